import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
// The send-contact-form handler, built from explicit parts so the Lambda entry, `site serve`
// and the tests all run the same code with their own configuration and SES client.
import { bodyKind, DEFAULT_MAX_BODY_BYTES, readPayload, type BodyKind, type BodyProblem } from './body.ts';
import type { HandlerConfig } from './config.ts';
import { header, methodOf, type HttpEvent, type HttpHandler, type HttpResult, type LambdaContext } from './event.ts';
import { jsonLogger, type Logger } from './log.ts';
import { backPath, corsHeaders, isAllowedOrigin, requestOrigin } from './origin.ts';
import { FAILURES, failureAnswer, type Failure } from './failures.ts';
import type { FormName } from '../forms/names.ts';
import { emptyAnswer, jsonAnswer, redirectAnswer } from './responses.ts';
import { mailLead } from './leads/mail-lead.ts';
import { FIRST_SEND_CLAIM_MS, newLead, submissionKey } from './leads/new-lead.ts';
import type { LeadRecord, LikelySpam } from './leads/record.ts';
import { clientAddress } from './limits/client-address.ts';
import { ORIGIN_VERIFY_HEADER } from './cloudfront-request-headers.ts';
import { checkSender, mayMailNow, networkMayMail, type VolumeLimits } from './limits/volume.ts';
import { metricFields, METRICS, type MetricName } from './metrics.ts';
import { answerMetrics } from './answer-metrics.ts';
import { emailKeyOf, type LeadStore } from './leads/store.ts';
import { SES_DEFAULTS, type MailSender } from './ses-client.ts';
import { validateSubmission, isSpam } from './submission.ts';

export interface HandlerOptions {
  ses: MailSender;
  /** The leads table: every valid submission is stored here before it is e-mailed. */
  leads: LeadStore;
  /** Per-sender limits and the hourly cap on lead e-mails; without them (tests of other things) there are none. */
  limits?: VolumeLimits;
  config: HandlerConfig;
  now?: () => Date;
  log?: Logger;
  maxBodyBytes?: number;
  /** Where a successful plain form post is redirected. */
  successPath?: string;
}

/**
 * The Lambda time a send needs: SES's one attempt (connect and answer, ses-client.ts), then the
 * write of its outcome (two short DynamoDB attempts, lambda-env.ts), and a little to answer.
 */
export const SEND_NEEDS_MS = SES_DEFAULTS.connectionTimeoutMs + SES_DEFAULTS.requestTimeoutMs + 3500 + 500;

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
  /** Figures for the alarms, each counted once on the request's log line. */
  metrics?: MetricName[];
}


export function createHandler(options: HandlerOptions): HttpHandler {
  const log = options.log ?? jsonLogger;
  return async (event, context) => {
    const started = performance.now();
    let outcome: Outcome;
    try {
      outcome = await respond(event, options, log, context);
    } catch (error) {
      // A bug, not a visitor's doing: answer 500 and log what kind of error it was.
      log({ level: 'error', event: 'handler_error', name: error instanceof Error ? error.name : typeof error });
      outcome = { result: jsonAnswer(500, { ok: false, error: 'Internal error' }), reason: 'internal' };
    }
    // Guarded too: the log line reads the event again, and an event no API sends must still get its answer.
    try {
      logRequest(event, outcome, started, options, log);
    } catch (error) {
      log({ level: 'error', event: 'handler_error', step: 'log', name: error instanceof Error ? error.name : typeof error });
    }
    return outcome.result;
  };
}

/** The request's log line, with the figures for the alarms (metrics.ts) each counted once. */
function logRequest(event: HttpEvent, outcome: Outcome, started: number, options: HandlerOptions, log: Logger): void {
  const status = outcome.result.statusCode;
  const metrics = [...(outcome.metrics ?? []), ...answerMetrics(event, { statusCode: status, spam: outcome.spam }, Boolean(options.config.originSecret))];
  const requestId = event.requestContext?.requestId;
  log({
    level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
    event: 'request',
    method: methodOf(event),
    status,
    form: outcome.form,
    kind: outcome.kind,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    ...(typeof requestId === 'string' && requestId ? { requestId } : {}),
    ...(outcome.reason ? { reason: outcome.reason } : {}),
    ...(outcome.spam ? { spam: true } : {}),
    ...(outcome.invalidFields ? { invalidFields: outcome.invalidFields } : {}),
    ...(metrics.length ? { ...Object.fromEntries(metrics.map((name) => [name, 1])), ...metricFields(new Date(), metrics) } : {}),
  });
}

/** Constant-time comparison of the origin secret, so its value cannot be guessed a byte at a time. */
export function hasOriginSecret(event: HttpEvent, secret: string): boolean {
  const sent = header(event, ORIGIN_VERIFY_HEADER) ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(secret));
}

async function respond(event: HttpEvent, options: HandlerOptions, log: Logger, context?: LambdaContext): Promise<Outcome> {
  const { config } = options;
  // Before anything else, OPTIONS included: a request that bypassed CloudFront is not answered.
  if (config.originSecret && !hasOriginSecret(event, config.originSecret)) {
    return { result: jsonAnswer(403, { ok: false, error: 'Forbidden' }), reason: 'origin-secret' };
  }
  const method = methodOf(event);
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
  if (!checked.ok) {
    const outcome = fail(FAILURES.invalid, checked.form, checked.errors);
    return { ...outcome, invalidFields: Object.keys(checked.errors), spam: isSpam(payload) || undefined };
  }
  // A filled honeypot is a bot, or a person whose browser or password manager filled the hidden
  // field: either way the lead is stored, flagged, and mailed only in the digest, never dropped.
  const spam = isSpam(payload);

  const receivedAt = (options.now ?? (() => new Date()))();
  const submissionId = submissionKey(payload, checked.submission, receivedAt);
  // Volume: a script posting from one address (an IPv4 address, an IPv6 /64) is refused past a
  // handful (lambda/limits/settings.ts): nothing is stored or sent, and the page keeps what was
  // typed. Posts past the limit on an IPv6 /48 or on one e-mail address are taken, and mailed
  // together in the digest.
  let heldBy: string | undefined = spam ? 'likely-spam' : undefined;
  // Past the limit on a /48 or on one e-mail address is how a flood looks (a script rotating its
  // /64s, or one address typed again and again): mailed, but flagged and after every real lead.
  let likelySpam: LikelySpam | undefined = spam ? 'hidden field filled' : undefined;
  const networks = clientAddress(event, Boolean(config.originSecret));
  if (options.limits) {
    const sender = { ...networks, emailKey: emailKeyOf(checked.submission.data.email), submissionId };
    const verdict = await checkSender(options.limits, sender, receivedAt, log);
    if (verdict.refuse) return { ...fail(FAILURES.rateLimited(verdict.refuse.retryAfterSeconds), checked.form), reason: `rate-limited-${verdict.refuse.limit}`, metrics: [METRICS.rateLimited], spam: spam || undefined };
    heldBy ??= verdict.heldBy && { perSite: 'held-per-site', perEmail: 'held-per-email' }[verdict.heldBy];
    likelySpam ??= verdict.heldBy && ({ perSite: 'past its network\'s limit', perEmail: 'past its e-mail address\'s limit' } as const)[verdict.heldBy];
  }

  // Store first: once the lead is in the table it cannot be lost, whatever SES does next. It is
  // stored pending and claimed by no one (held already when a limit or the honeypot said so).
  const record = {
    ...newLead(checked.submission, {
      submissionId,
      receivedAt,
      source: `${origin}${backPath(event, config.allowedOrigins, '')}`,
      retentionMonths: config.retentionMonths,
      held: Boolean(heldBy),
    }),
    ...(likelySpam ? { likelySpam } : {}),
  };
  let stored: 'stored' | 'duplicate';
  try {
    stored = await options.leads.putNew(record);
  } catch (error) {
    log({ level: 'error', event: 'store_error', form: checked.form, name: error instanceof Error ? error.name : typeof error });
    return { ...fail(FAILURES.storeDown(), checked.form), reason: 'store_unavailable', metrics: [METRICS.storeErrors], spam: spam || undefined };
  }
  // The same submission again (a retry after a lost answer, a double-click): already stored and
  // mailed, or being mailed; the visitor is told it worked, and nothing is sent twice.
  if (stored === 'duplicate') return succeed(checked.form, { reason: 'duplicate', spam: spam || undefined });
  const storedLead = { ...record, mail: { ...record.mail, version: 0 } };

  // Past a limit that holds for the digest, past its network's share of the hour's lead e-mails, or
  // past the hour's cap, the lead stays stored and pending, and the scheduled mailer sends it in its
  // next digest: the inbox gets one e-mail every few minutes, not hundreds.
  if (heldBy) return succeed(checked.form, spam ? { reason: heldBy, spam } : { reason: heldBy, metrics: [METRICS.digested] });
  if (options.limits) {
    if (!(await networkMayMail(options.limits, networks.network, receivedAt, log))) heldBy = 'held-network-share';
    else if (!(await mayMailNow(options.limits, receivedAt, log))) heldBy = 'held-for-digest';
  }
  if (heldBy) {
    try {
      await options.leads.hold(storedLead);
    } catch (error) {
      // Pending and claimed by no one: the mailer sends it on its own after the handler's grace period.
      log({ level: 'error', event: 'mail_state_error', form: checked.form, name: error instanceof Error ? error.name : typeof error });
    }
    return succeed(checked.form, { reason: heldBy, metrics: [METRICS.digested] });
  }

  // Too little of the Lambda's time left for a send and the write of its outcome: the send is left
  // to the mailer (never sent, so not a repeat), rather than be cut off after SES took it.
  if (context && context.getRemainingTimeInMillis() < SEND_NEEDS_MS) {
    log({ level: 'warn', event: 'send_left_to_mailer', form: checked.form, remainingMs: context.getRemainingTimeInMillis() });
    return succeed(checked.form, { reason: 'left-to-mailer' });
  }

  // The handler claims its own send as any sender does (FIRST_SEND_CLAIM_MS), so no retry run can
  // mail it at the same time; a claim refused means another sender (the owner's resend) has it.
  let claimed: LeadRecord;
  try {
    const claim = await options.leads.claim(storedLead, { now: receivedAt, until: new Date(receivedAt.getTime() + FIRST_SEND_CLAIM_MS), sendId: randomUUID(), sending: true });
    if (!claim.ok) return succeed(checked.form, { reason: 'sent-by-another' });
    claimed = claim.lead;
  } catch (error) {
    // Unclaimed: the mailer sends it after the handler's grace period, as a lead never sent.
    log({ level: 'error', event: 'mail_state_error', form: checked.form, name: error instanceof Error ? error.name : typeof error });
    return succeed(checked.form);
  }
  try {
    const mailer = { ses: options.ses, store: options.leads, mailTo: config.mailTo, mailFrom: config.mailFrom, configurationSet: config.sesConfigurationSet, ...(options.now ? { now: options.now } : {}) };
    const mailed = await mailLead(claimed, mailer, { sendId: claimed.mail.sendId!, repeat: false });
    if (!mailed.sent) {
      // `unanswered`: it may have gone; recorded as uncertain, and left to SES's events or the quiet period (leads/resend.ts).
      log({ level: 'warn', event: 'ses_error', form: checked.form, ...mailed.failure });
      return succeed(checked.form, { metrics: [METRICS.mailFailures] });
    }
  } catch (error) {
    // The send went (or not) but its outcome could not be written: the lead stays pending with no
    // attempt recorded, which the retry mailer treats as a send that may have gone. The visitor's
    // lead is stored, so it is still a success.
    log({ level: 'error', event: 'mail_state_error', form: checked.form, name: error instanceof Error ? error.name : typeof error });
  }
  return succeed(checked.form);
}
