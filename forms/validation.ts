// How a form field's value is checked and cleaned: the zod rules each kind of field in
// forms/fields.ts is checked with. Imported by the browser islands too, so this module (and
// everything in forms/) must stay free of Node APIs.
// zod/mini rather than zod: the islands ship it, and mini tree-shakes to ~5 KB gzip
// where the chainable build costs ~25 KB.
import * as z from 'zod/mini';
import type { TextFieldDefinition } from './fields.ts';

/** Key used for a problem with the submission as a whole rather than one field. */
export const FORM_ERROR_KEY = 'form';

/** First message per field, keyed by field name. */
export type FieldErrors<F extends string> = Partial<Record<F | typeof FORM_ERROR_KEY, string>>;

export type ValidationResult<T, F extends string> =
  | { ok: true; data: T }
  | { ok: false; errors: FieldErrors<F> };

// A line break in a header-bound value (name and organisation go into the subject,
// the address into Reply-To) is how header injection starts; refuse it outright.
const SINGLE_LINE = /^[^\r\n\u2028\u2029]*$/;

// 'text@text.text', loosely, but limited to the characters an address may carry in
// ASCII: SES refuses non-ASCII local parts, and a comma or angle bracket would let one
// Reply-To value smuggle in a second address.
const EMAIL_SHAPE = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

// What SES refuses of an address that has the loose shape: a local part over 64 characters or
// with a dot at either end or two in a row, a domain label beginning or ending with '-'.
function sesTakes(address: string): boolean {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split('.');
  return (
    local.length <= 64 &&
    !/^\.|\.\.|\.$/.test(local) &&
    labels.every((label) => !label.startsWith('-') && !label.endsWith('-'))
  );
}

// Half of a surrogate pair (a broken emoji, say) is valid JSON but not valid Unicode: the SDK
// cannot encode it for SES. U+FFFD keeps the rest of the lead, as a UTF-8 decoder would.
// (A regex rather than String.prototype.toWellFormed, which older browsers lack.)
const LONE_SURROGATE = /\p{Cs}/gu;
const wellFormed = (value: string) => value.replace(LONE_SURROGATE, '\ufffd');

// Characters no one types into a form but that can deceive or damage whoever reads the lead: the
// C0 and C1 controls (an ESC sequence can erase lines and retitle the owner's terminal, NUL cuts
// text short in some tools) and the bidirectional controls (U+202E can make a name read
// backwards in the e-mail). One rule for the browser's check and the handler's: they are removed
// at validation, so a pasted name keeps everything a person meant (the e-mail address is refused
// with them instead: see emailAddress). A tab becomes a space; line
// breaks are left for the field's own rule (refused in one-line fields, kept in the message).
const HIDDEN_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A value with the characters above removed and tabs made spaces. */
export function withoutControls(value: string): string {
  return value.replace(/\t/g, ' ').replace(HIDDEN_CONTROLS, '');
}

// In a one-line field (name, organisation) no format character (Unicode Cf) is meant: zero-width
// spaces and joiners, U+2060, the byte-order mark, soft hyphens and tag characters hide text, or
// make a name that looks given out of nothing. They are removed too, and a field left empty is
// empty ('Name is required'). The message keeps them: a joiner holds an emoji sequence together.
const FORMAT_CHARS = /\p{Cf}/gu;
const withoutFormatting = (value: string) => value.replace(FORMAT_CHARS, '');

// What a browser takes off an address before anyone sees it: a type=email control's value
// sanitisation strips line breaks and then leading and trailing ASCII whitespace (tab, line feed,
// form feed, carriage return, space). The same is trimmed here, so a pasted address with a tab
// round it is taken as the browser would take it; nothing else is ever taken off.
const ASCII_WHITESPACE_AT_ENDS = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;
const trimAsciiWhitespace = (value: string) => value.replace(ASCII_WHITESPACE_AT_ENDS, '');

// What is never part of an address someone typed: a control, a format character (zero-width,
// direction controls, the byte-order mark), any other space, or a line or paragraph separator.
// Once the ends are trimmed as above, an address holding one is refused, never cleaned: a cleaned
// address would be one the visitor never typed, and the owner would reply to it.
const NOT_IN_AN_ADDRESS = /[\p{Cc}\p{Cf}\p{Z}]/u;

// In the message, a line break is a line break, whichever the browser sent (a form post sends CRLF).
const toNewlines = (value: string) => value.replace(/\r\n?|[\u2028\u2029]/g, '\n');

export interface TextRule {
  /** Name used in messages, e.g. 'Name'. */
  label: string;
  max: number;
  singleLine: boolean;
}

const textOf = (label: string) => z.string({
  error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`),
});

function textType({ label, singleLine }: TextRule) {
  return textOf(label).check(
    z.overwrite(wellFormed),
    z.overwrite(withoutControls),
    z.overwrite(singleLine ? withoutFormatting : toNewlines),
  );
}

function textChecks({ label, max, singleLine }: TextRule) {
  return [
    z.maxLength(max, `${label} must be ${max} characters or fewer`),
    ...(singleLine ? [z.regex(SINGLE_LINE, `${label} must not contain line breaks`)] : []),
  ];
}

/** A trimmed text field that may not be blank. */
export function requiredText(rule: TextRule) {
  return textType(rule).check(
    z.trim(),
    z.minLength(1, `${rule.label} is required`),
    ...textChecks(rule),
  );
}

/** A trimmed text field that may be left out or blank. */
export function optionalText(rule: TextRule) {
  return z.optional(textType(rule).check(z.trim(), ...textChecks(rule)));
}

/** The visitor's address: refused when it holds anything but what it looks like, never rewritten (past the trim a browser makes). */
export function emailAddress({ label, max }: Omit<TextRule, 'singleLine'>) {
  return textOf(label).check(
    z.overwrite(trimAsciiWhitespace),
    z.refine((value) => !NOT_IN_AN_ADDRESS.test(value), `${label} is invalid`),
    z.minLength(1, `${label} is required`),
    z.maxLength(max, `${label} must be ${max} characters or fewer`),
    z.refine((value) => value === '' || EMAIL_SHAPE.test(value), `${label} is invalid`),
    z.refine((value) => !EMAIL_SHAPE.test(value) || sesTakes(value), 'Please enter a valid email address'),
  );
}

/** The human-confirmation checkbox: only the literal `true` passes. */
export function humanConfirmation() {
  return z.literal(true, { error: 'Please confirm you are human' });
}

type RuleOf<F> = F extends { kind: 'email' }
  ? ReturnType<typeof emailAddress>
  : F extends { required: true } ? ReturnType<typeof requiredText> : ReturnType<typeof optionalText>;

/** The zod shape of a form's text fields, keyed by name. */
export type TextShape<Fields extends readonly TextFieldDefinition[]> = { [F in Fields[number] as F['name']]: RuleOf<F> };

function ruleOf(field: TextFieldDefinition) {
  const rule = { label: field.label, max: field.max, singleLine: field.kind !== 'lines' };
  if (field.kind === 'email') return emailAddress(rule);
  return field.required ? requiredText(rule) : optionalText(rule);
}

/** Each text field's rule, from its definition in forms/fields.ts. */
export function textShape<const Fields extends readonly TextFieldDefinition[]>(fields: Fields): TextShape<Fields> {
  return Object.fromEntries(fields.map((field) => [field.name, ruleOf(field)])) as TextShape<Fields>;
}

/** Turns zod issues into the first message for each field (nested answers keyed by their own name). */
export function firstMessages(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const last = issue.path[issue.path.length - 1];
    const key = typeof last === 'string' ? last : FORM_ERROR_KEY;
    if (!Object.hasOwn(errors, key)) errors[key] = issue.message;
  }
  return errors;
}
