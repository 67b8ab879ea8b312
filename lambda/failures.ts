// Every way a POST can fail, with its status and its words for both audiences: a short
// `error` for the fetch() caller (which only checks that there was one) and a heading and
// sentence for the person whose browser posted the form without JavaScript.
import type { BodyKind } from './body.ts';
import type { HttpResult } from './event.ts';
import type { FormName } from '../forms/names.ts';
import { problemsFrom, renderProblemPage } from './problem-page.ts';
import { htmlAnswer, jsonAnswer } from './responses.ts';

export interface Failure {
  status: number;
  /** Short token for the log line. */
  reason: string;
  error: string;
  heading: string;
  intro: string;
  headers?: Record<string, string>;
}

const NOT_SENT = 'Your message could not be sent';

export const FAILURES = {
  forbidden: {
    status: 403,
    reason: 'origin',
    error: 'Origin not allowed',
    heading: NOT_SENT,
    intro: 'This form can only be sent from our own website.',
  },
  unsupported: {
    status: 415,
    reason: 'content-type',
    error: 'Send application/json or application/x-www-form-urlencoded',
    heading: NOT_SENT,
    intro: 'The form was sent in a format we do not accept.',
  },
  tooLarge: {
    status: 413,
    reason: 'too-large',
    error: 'Request body too large',
    heading: 'Your message is too long',
    intro: 'Please go back, shorten your message and try again.',
  },
  notUtf8: {
    status: 400,
    reason: 'encoding',
    error: 'Request body is not valid UTF-8',
    heading: NOT_SENT,
    intro: 'The form arrived in a text encoding we could not read. Please go back and try again.',
  },
  malformedJson: {
    status: 400,
    reason: 'malformed-json',
    error: 'Malformed JSON',
    heading: NOT_SENT,
    intro: 'The form data could not be read. Please go back and try again.',
  },
  invalid: {
    status: 400,
    reason: 'invalid',
    error: 'Validation failed',
    heading: 'There is a problem with the form',
    intro: 'Nothing has been sent yet. Please go back and correct the following:',
  },
  // The leads table cannot be reached: nothing is stored or sent, so the visitor is asked to try again.
  storeDown: (retryAfter = 10): Failure => ({
    status: 503,
    reason: 'store-unavailable',
    error: 'Failed to send message',
    heading: NOT_SENT,
    intro: 'We could not take your message just now. Please go back and try again in a minute.',
    headers: { 'retry-after': String(retryAfter) },
  }),
  // Too many posts from one address or for one e-mail address: nothing is stored or sent.
  rateLimited: (retryAfter: number): Failure => ({
    status: 429,
    reason: 'rate-limited',
    error: 'Too many messages',
    heading: NOT_SENT,
    intro: `We have had several messages from you in the last few minutes. Please go back and try again in ${Math.max(1, Math.ceil(retryAfter / 60))} minutes; what you typed has not been sent.`,
    headers: { 'retry-after': String(retryAfter) },
  }),
} satisfies Record<string, Failure | ((retryAfter: number) => Failure)>;

export interface FailureContext {
  form: FormName;
  errors?: Record<string, string> | undefined;
  backHref: string;
  headers: Record<string, string>;
}

/** JSON for JSON requests; the HTML problem page for plain form posts. */
export function failureAnswer(kind: BodyKind | undefined, failure: Failure, context: FailureContext): HttpResult {
  const headers = { ...context.headers, ...failure.headers };
  if (kind === 'form') {
    const page = renderProblemPage({
      heading: failure.heading,
      intro: failure.intro,
      ...(context.errors ? { problems: problemsFrom(context.form, context.errors) } : {}),
      backHref: context.backHref,
    });
    return htmlAnswer(failure.status, page, headers);
  }
  const body = { ok: false, error: failure.error, ...(context.errors ? { errors: context.errors } : {}) };
  return jsonAnswer(failure.status, body, headers);
}
