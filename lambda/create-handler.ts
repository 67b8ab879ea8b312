import { createHash, timingSafeEqual } from 'node:crypto';
// The send-contact-form handler, built from explicit parts so the Lambda entry, `site serve`
// and the tests all run the same code with their own configuration and SES client.
import { SendEmailCommand } from '@aws-sdk/client-ses';
import { bodyKind, DEFAULT_MAX_BODY_BYTES, readPayload, type BodyKind, type BodyProblem } from './body.ts';
import type { HandlerConfig } from './config.ts';
import { composeEmail } from './email.ts';
import { header, type HttpEvent, type HttpHandler, type HttpResult } from './event.ts';
import { jsonLogger, type Logger } from './log.ts';
import { backPath, corsHeaders, isAllowedOrigin, requestOrigin } from './origin.ts';
import { FAILURES, failureAnswer, type Failure } from './failures.ts';
import type { FormName } from './problem-page.ts';
import { emptyAnswer, jsonAnswer, redirectAnswer } from './responses.ts';
import { classifySesError } from './ses-errors.ts';
import type { MailSender } from './ses-client.ts';
import { validateSubmission, isSpam } from './submission.ts';

export interface HandlerOptions {
  ses: MailSender;
  config: HandlerConfig;
  now?: () => Date;
  log?: Logger;
  maxBodyBytes?: number;
  /** Where a successful plain form post is redirected. */
  successPath?: string;
}

const FORM_PAGES: Record<FormName, string> = { contact: '/contact', assessment: '/dialog-assessment' };

const BODY_FAILURES: Record<BodyProblem, Failure> = {
  'too-large': FAILURES.tooLarge,
  'not-utf8': FAILURES.notUtf8,
  'malformed-json': FAILURES.malformedJson,
};

/** What one request came to, for the answer and its log line. */
interface Outcome {
  result: HttpResult;
  form?: FormName;
  kind?: BodyKind;
  reason?: string;
  spam?: boolean;
  invalidFields?: string[];
}

/** The header CloudFront adds to /api/* requests (infra/lib/form-backend.ts sets it). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

export function createHandler(options: HandlerOptions): HttpHandler {
  const log = options.log ?? jsonLogger;
  return async (event) => {
    const started = performance.now();
    let outcome: Outcome;
    try {
      outcome = await respond(event, options, log);
    } catch (error) {
      // A bug, not a visitor's doing: answer 500 and log what kind of error it was.
      log({ level: 'error', event: 'handler_error', name: error instanceof Error ? error.name : typeof error });
      outcome = { result: jsonAnswer(500, { ok: false, error: 'Internal error' }), reason: 'internal' };
    }
    const status = outcome.result.statusCode;
    log({
      level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
      event: 'request',
      method: event.requestContext?.http?.method,
      status,
      form: outcome.form,
      kind: outcome.kind,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...(event.requestContext?.requestId ? { requestId: event.requestContext.requestId } : {}),
      ...(outcome.reason ? { reason: outcome.reason } : {}),
      ...(outcome.spam ? { spam: true } : {}),
      ...(outcome.invalidFields ? { invalidFields: outcome.invalidFields } : {}),
    });
    return outcome.result;
  };
}

/** Constant-time comparison of the origin secret, so its value cannot be guessed a byte at a time. */
export function hasOriginSecret(event: HttpEvent, secret: string): boolean {
  const sent = header(event, ORIGIN_VERIFY_HEADER) ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(secret));
}

async function respond(event: HttpEvent, options: HandlerOptions, log: Logger): Promise<Outcome> {
  const { config } = options;
  // Before anything else, OPTIONS included: a request that bypassed CloudFront is not answered.
  if (config.originSecret && !hasOriginSecret(event, config.originSecret)) {
    return { result: jsonAnswer(403, { ok: false, error: 'Forbidden' }), reason: 'origin-secret' };
  }
  const method = (event.requestContext?.http?.method ?? '').toUpperCase();
  const origin = requestOrigin(event);
  const allowed = isAllowedOrigin(origin, config.allowedOrigins);
  const headers = { vary: 'Origin', ...(allowed ? corsHeaders(origin, method === 'OPTIONS') : {}) };

  if (method === 'OPTIONS') return { result: emptyAnswer(204, headers) };
  if (method !== 'POST') {
    const result = jsonAnswer(405, { ok: false, error: 'Method not allowed' }, { ...headers, allow: 'POST, OPTIONS' });
    return { result, reason: 'method' };
  }

  const kind = bodyKind(header(event, 'content-type'));
  const fail = (failure: Failure, form?: FormName, errors?: Record<string, string>): Outcome => {
    const back = backPath(event, config.allowedOrigins, FORM_PAGES[form ?? 'contact']);
    const result = failureAnswer(kind, failure, { form: form ?? 'contact', errors, backHref: back, headers });
    return { result, form, kind, reason: failure.reason };
  };

  if (!allowed) return fail(FAILURES.forbidden);
  if (!kind) return fail(FAILURES.unsupported);
  const read = readPayload(event.body, event.isBase64Encoded, kind, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  if (!read.ok) return fail(BODY_FAILURES[read.problem]);
  const { payload } = read;

  const succeed = (form: FormName, extra: Partial<Outcome> = {}): Outcome => ({
    result: kind === 'json' ? jsonAnswer(200, { ok: true }, headers) : redirectAnswer(options.successPath ?? '/thank-you', headers),
    form,
    kind,
    ...extra,
  });

  const checked = validateSubmission(payload);
  // Spam gets the same answer as success, so a bot learns nothing, and nothing is sent.
  if (isSpam(payload)) return succeed(checked.form, { spam: true });
  if (!checked.ok) {
    const outcome = fail(FAILURES.invalid, checked.form, checked.errors);
    return { ...outcome, invalidFields: Object.keys(checked.errors) };
  }

  const mail = composeEmail(checked.submission, {
    mailTo: config.mailTo,
    mailFrom: config.mailFrom,
    receivedAt: (options.now ?? (() => new Date()))(),
    source: `${origin}${backPath(event, config.allowedOrigins, '')}`,
  });
  try {
    await options.ses.send(new SendEmailCommand(mail));
  } catch (error) {
    const failure = classifySesError(error);
    if (failure.kind === 'internal') {
      log({ level: 'error', event: 'handler_error', form: checked.form, name: failure.name });
      return fail(FAILURES.internal, checked.form);
    }
    log({ level: 'error', event: 'ses_error', form: checked.form, ...failure });
    const answer = failure.status === 503 ? FAILURES.busy(failure.retryAfter) : FAILURES.badGateway;
    return { ...fail(answer, checked.form), reason: `ses_${failure.kind}` };
  }
  return succeed(checked.form);
}
