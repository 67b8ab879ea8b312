// Reading the request body: its kind from Content-Type, its bytes (plain or base64) under a
// size limit, and its fields, with urlencoded form posts reshaped into the JSON payload's shape.
// The limits that matter are the fields' own, on their decoded text (forms/fields.ts, checked by
// the schemas); the body's cap only turns away early what no valid post could be.
import { ANSWER_FIELDS } from '../forms/assessment-questions.ts';
import { CONTACT_TEXT_FIELDS, ASSESSMENT_TEXT_FIELDS, FORM_TYPE_FIELD, HONEYPOT_FIELD, HUMAN_CHECK, LEAD_FIELDS } from '../forms/fields.ts';

export type BodyKind = 'json' | 'form';

/**
 * The most bytes one character of a text field can take in a body: a character of the Basic
 * Multilingual Plane beyond ASCII (Chinese, Japanese, Greek…) counts once against a field's limit
 * (its length in UTF-16 units) and is three UTF-8 bytes, each written `%XX` in a form post. JSON
 * takes at most six (`\uXXXX`); a character beyond the BMP counts twice and takes twelve.
 */
export const WORST_BYTES_PER_CHARACTER = 9;

/** Room for what is not a text field: names and separators, the six answers, the ids, the time and the origin. */
const REST_OF_A_POST_BYTES = 16 * 1024;

/**
 * The body's cap: a post with every text field of the longer form at its longest, written in the
 * costliest encoding a browser uses, still fits (a 5,000-character message in Chinese is 45 KB as
 * a plain form post, 15 KB as JSON), while a body no valid post could be is refused before it is
 * decoded. About 64 KB.
 */
export const DEFAULT_MAX_BODY_BYTES = Math.max(...[CONTACT_TEXT_FIELDS, ASSESSMENT_TEXT_FIELDS].map(
  (fields) => fields.reduce((sum, field) => sum + field.max, 0),
)) * WORST_BYTES_PER_CHARACTER + REST_OF_A_POST_BYTES;

export function bodyKind(contentType: string | undefined): BodyKind | undefined {
  const media = contentType?.split(';')[0]?.trim().toLowerCase();
  if (media === 'application/json') return 'json';
  if (media === 'application/x-www-form-urlencoded') return 'form';
  return undefined;
}

export type DecodedBody =
  | { ok: true; text: string }
  | { ok: false; problem: 'too-large' | 'not-utf8' };

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeBody(
  body: string | null | undefined,
  isBase64: boolean | undefined,
  maxBytes: number,
): DecodedBody {
  // Anything but text (an event no API sends) reads as an empty body.
  const raw = typeof body === 'string' ? body : '';
  // Checked on the encoded length first so an oversized body is never decoded at all.
  const roughBytes = isBase64 ? Math.floor((raw.length * 3) / 4) : raw.length;
  if (roughBytes > maxBytes * 4) return { ok: false, problem: 'too-large' };
  if (!isBase64) {
    return Buffer.byteLength(raw, 'utf8') > maxBytes ? { ok: false, problem: 'too-large' } : { ok: true, text: raw };
  }
  const bytes = Buffer.from(raw, 'base64');
  if (bytes.length > maxBytes) return { ok: false, problem: 'too-large' };
  try {
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    return { ok: false, problem: 'not-utf8' };
  }
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The fields a plain post keeps as they are: every text field of either form (forms/fields.ts), the form type and the honeypot. */
const SINGLE_FIELDS = [...LEAD_FIELDS, FORM_TYPE_FIELD, HONEYPOT_FIELD] as const;

// A ticked checkbox posts its value, 'on' unless the markup sets one.
const TICKED = new Set(['on', 'true']);

/**
 * A form post as the JSON payload would carry it: the checkbox as a boolean and, on the
 * assessment (recognised by its formType field), the six answers under assessmentData.
 * Only the first value of a repeated field counts; unknown fields are dropped.
 */
export function formFields(text: string): Record<string, unknown> {
  const params = new URLSearchParams(text);
  const fields: Record<string, unknown> = {};
  for (const name of SINGLE_FIELDS) {
    const value = params.get(name);
    if (value !== null) fields[name] = value;
  }
  const isHuman = params.get(HUMAN_CHECK.name);
  if (isHuman !== null) fields[HUMAN_CHECK.name] = TICKED.has(isHuman.toLowerCase()) ? true : isHuman;
  if (params.has(FORM_TYPE_FIELD)) {
    const answers: Record<string, string> = {};
    for (const field of ANSWER_FIELDS) {
      const value = params.get(field);
      if (value !== null) answers[field] = value;
    }
    fields.assessmentData = answers;
  }
  return fields;
}

export type BodyProblem = 'too-large' | 'not-utf8' | 'malformed-json';

/** The request's fields, from either kind of body, or what stopped them being read. */
export function readPayload(
  body: string | null | undefined,
  isBase64: boolean | undefined,
  kind: BodyKind,
  maxBytes: number,
): { ok: true; payload: unknown } | { ok: false; problem: BodyProblem } {
  const decoded = decodeBody(body, isBase64, maxBytes);
  if (!decoded.ok) return decoded;
  if (kind === 'form') return { ok: true, payload: formFields(decoded.text) };
  const parsed = parseJson(decoded.text);
  return parsed.ok ? { ok: true, payload: parsed.value } : { ok: false, problem: 'malformed-json' };
}
