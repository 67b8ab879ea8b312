// Names what kind of failure a SendEmail met, for the lead's record (mail.lastError), the log and
// the retry mailer. "Not sent" only when SES cannot have taken the e-mail: a throttle (SES answered
// that it took nothing); no connection made (refused, no route, no address, not made in time), so
// no byte of the request left; SES refusing this e-mail for its own content or addresses (refused:
// sent again, the same mail would be refused again, so a digest is split and a lead is set aside
// after two); SES refusing every e-mail of the account or its set-up (account: paused sending, an
// unverified identity, a missing configuration set, bad credentials, or an error we do not know,
// which is no reason to blame the e-mail); an error raised before the request left (internal, a
// bug of ours). Everything that can happen after the request went out is `unanswered`: no answer in
// time, the connection reset or broken (ECONNRESET, EPIPE) and a 5xx from SES's side, since SES may
// have taken the e-mail before any of them. The mailer treats it as uncertain rather than failed:
// settled by SES's own events, or sent again saying it may repeat (leads/resend.ts). The lead is
// stored before the send, so none of these reaches the visitor.
// What is logged is the error's name and code, never its message: SES messages can quote
// the addresses involved.

export type SesFailureKind = 'throttled' | 'unanswered' | 'connection' | 'refused' | 'account' | 'internal';

/** Failures of this one e-mail (its content or addresses, or a request that could not be built from it): the same e-mail fails again. */
export const isFailureOfTheEmail = (kind: string): boolean => kind === 'refused' || kind === 'internal';

export interface SesFailure {
  kind: SesFailureKind;
  name: string;
  code?: string;
  httpStatusCode?: number;
  requestId?: string;
}

const THROTTLE_NAMES = new Set([
  'Throttling',
  'ThrottlingException',
  'TooManyRequests',
  'TooManyRequestsException',
]);

// SES refusing one e-mail for what it holds; MessageRejected also says so of an unverified
// address (the sandbox) or paused sending, which is the account's, not the e-mail's.
const EMAIL_REFUSALS = new Set(['MessageRejected', 'InvalidParameterValue']);
const ACCOUNT_WORDS = /not verified|verify|paused|sandbox|account|suspended/i;

// SES's own faults; any 5xx answer counts too. SES may have taken the e-mail before it failed.
const SERVER_FAULT_NAMES = new Set(['InternalFailure', 'ServiceUnavailable']);

/** Errors of a connection never made: no byte of the request left, so SES cannot have the e-mail. */
const NOT_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Errors of a connection broken after it was made: the request may have reached SES whole. */
const BROKEN_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

export function classifySesError(error: unknown): SesFailure {
  const name = text(field(error, 'name')) ?? 'UnknownError';
  const metadata = field(error, '$metadata');
  const httpStatusCode = field(metadata, 'httpStatusCode');
  const requestId = text(field(metadata, 'requestId'));
  // Node socket errors carry `code`; SES service errors carry `Code` (the query-protocol error code).
  const code = text(field(error, 'code')) ?? text(field(error, 'Code'));
  const details = {
    name,
    ...(code ? { code } : {}),
    ...(typeof httpStatusCode === 'number' ? { httpStatusCode } : {}),
    ...(requestId ? { requestId } : {}),
  };

  // The SDK's retry layer stamps $metadata on every error from an attempt to reach SES, answered
  // or not. Without it the error came from building the request (URIError from a lone
  // surrogate, say): not SES's doing, and not a visitor's.
  if (typeof metadata !== 'object' || metadata === null) return { kind: 'internal', ...details };
  if (THROTTLE_NAMES.has(name) || (code && THROTTLE_NAMES.has(code)) || httpStatusCode === 429) {
    return { kind: 'throttled', ...details };
  }
  if (name === 'TimeoutError' || code === 'ETIMEDOUT') {
    // A connection never made carried nothing to SES; any later timeout came after the request left.
    const connecting = field(error, 'syscall') === 'connect' || /establish a connection/i.test(String(field(error, 'message') ?? ''));
    return { kind: connecting ? 'connection' : 'unanswered', ...details };
  }
  if (SERVER_FAULT_NAMES.has(name) || (typeof httpStatusCode === 'number' && httpStatusCode >= 500)) {
    return { kind: 'unanswered', ...details };
  }
  if (code && NOT_CONNECTED_CODES.has(code)) return { kind: 'connection', ...details };
  if (code && BROKEN_CODES.has(code)) return { kind: 'unanswered', ...details };
  const refusal = EMAIL_REFUSALS.has(name) || (code !== undefined && EMAIL_REFUSALS.has(code));
  if (refusal && !ACCOUNT_WORDS.test(String(field(error, 'message') ?? ''))) return { kind: 'refused', ...details };
  return { kind: 'account', ...details };
}
