// Names what kind of failure a SendEmail met, for the lead's record (mail.lastError), the log and
// the retry mailer: a throttle or a fault inside SES; no connection (refused, or not made in time);
// SES refusing this e-mail for its own content or addresses (refused: sent again, the same mail
// would be refused again, so a digest is split and a lead is set aside after two); SES refusing
// every e-mail of the account or its set-up (account: paused sending, an unverified identity, a
// missing configuration set, bad credentials, or an error we do not know, which is no reason to
// blame the e-mail); an error raised before the request left (internal, a bug of ours);
// or no answer in time after the request left (unanswered), the one kind whose e-mail may still have
// been sent, which the mailer treats as uncertain rather than failed (leads/resend.ts). The lead is
// stored before the send, so none of these reaches the visitor.
// What is logged is the error's name and code, never its message: SES messages can quote
// the addresses involved.

export type SesFailureKind = 'throttled' | 'unanswered' | 'unavailable' | 'connection' | 'refused' | 'account' | 'internal';

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

// SES's own faults; any 5xx answer counts too.
const SERVER_FAULT_NAMES = new Set(['InternalFailure', 'ServiceUnavailable']);

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

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
    return { kind: 'unavailable', ...details };
  }
  if (code && CONNECTION_CODES.has(code)) return { kind: 'connection', ...details };
  const refusal = EMAIL_REFUSALS.has(name) || (code !== undefined && EMAIL_REFUSALS.has(code));
  if (refusal && !ACCOUNT_WORDS.test(String(field(error, 'message') ?? ''))) return { kind: 'refused', ...details };
  return { kind: 'account', ...details };
}
