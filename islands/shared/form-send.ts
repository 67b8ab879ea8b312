/**
 * Posting a form's payload to the endpoint as JSON, and reading the one thing the page needs from
 * the answer: sent, refused (field messages to show), or failed (the error toast).
 */
import type { FieldErrors } from './form-state.ts';

export type SendOutcome =
  | { kind: 'sent' }
  | { kind: 'refused'; errors: FieldErrors }
  | { kind: 'failed'; reason: unknown };

/** Longer than the handler's own worst case (three SES attempts of 3 s plus backoff), so only a hung request is cut off. */
export const SEND_TIMEOUT_MS = 30_000;

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** The field messages in a 400 answer, keeping only fields this form has; empty when there are none. */
export function refusedFields(body: unknown, fields: readonly string[]): FieldErrors {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== 'object') return {};
  const found: Record<string, string> = {};
  for (const field of fields) {
    const message = (errors as Record<string, unknown>)[field];
    if (typeof message === 'string' && message) found[field] = message;
  }
  return found;
}

export async function sendForm(
  action: string,
  payload: object,
  fields: readonly string[],
  fetcher: Fetch = (url, init) => fetch(url, init),
  timeoutMs = SEND_TIMEOUT_MS,
): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await fetcher(action, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (reason) {
    return { kind: 'failed', reason };
  }
  if (response.ok) return { kind: 'sent' };
  const status = `${response.status} ${response.statusText}`.trim();
  if (response.status === 400) {
    const body: unknown = await response.json().catch(() => null);
    const errors = refusedFields(body, fields);
    // A 400 about something the visitor cannot fix (no field of theirs named) is a failure like any other.
    if (Object.keys(errors).length > 0) return { kind: 'refused', errors };
    return { kind: 'failed', reason: new Error(`The endpoint refused the form: ${status} ${JSON.stringify(body)}`) };
  }
  return { kind: 'failed', reason: new Error(`The endpoint answered ${status}`) };
}
