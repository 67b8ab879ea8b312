// The forms' fields, defined once: each form's text fields in page order, with the label a person
// reads (validation messages, the error summary, the problem page, the e-mail), the longest value
// taken, whether it is required and what kind of text it holds. Everything else is derived from
// this list: the zod schemas (forms/contact.ts, forms/assessment.ts), the fields a plain form post
// keeps (lambda/body.ts), the stored lead (lambda/leads/record.ts), the e-mail's rows
// (lambda/email.ts), the CSV export's columns (src/leads/csv.ts), `site leads list`'s lines
// (src/leads/command.ts) and the islands' values, error summary and controls' attributes (name,
// type, maxlength, required, autocomplete). Where a control stands in its form is the one thing
// written by hand, in the form's island (tests/islands/form-fields.test.ts holds it to this list).
// Browser-safe, like the rest of forms/.
import type { FormName } from './names.ts';

/** `line`: one line of text; `email`: the visitor's address (always required: it is the Reply-To); `lines`: free text over several lines. */
export type TextKind = 'line' | 'email' | 'lines';

export interface TextFieldDefinition {
  /** The control's name, the payload's key and the stored lead's attribute. */
  name: string;
  /** What the field is called wherever a person reads it. */
  label: string;
  /** The most characters taken, after trimming. */
  max: number;
  required: boolean;
  kind: TextKind;
  /** A one-line field's input type where it is not plain text: 'tel' for a phone number (the keyboard a phone shows). */
  inputType?: 'tel' | 'url';
  /** The control's autocomplete token (what the field holds, for the browser's autofill), if it has one. */
  autoComplete?: string;
}

/** The type of a field's control: an <input>'s type, or 'textarea' for several lines. */
export function controlType(field: TextFieldDefinition): 'text' | 'email' | 'tel' | 'url' | 'textarea' {
  if (field.kind === 'lines') return 'textarea';
  return field.kind === 'email' ? 'email' : field.inputType ?? 'text';
}

const NAME = { name: 'name', label: 'Name', max: 100, required: true, kind: 'line', autoComplete: 'name' } as const satisfies TextFieldDefinition;
const EMAIL = { name: 'email', label: 'Email', max: 254, required: true, kind: 'email', autoComplete: 'email' } as const satisfies TextFieldDefinition;
const ORGANISATION = { name: 'company', label: 'Organisation', max: 150, required: false, kind: 'line', autoComplete: 'organization' } as const satisfies TextFieldDefinition;

/** The contact form's text fields, in page order. */
export const CONTACT_TEXT_FIELDS = [
  NAME,
  EMAIL,
  ORGANISATION,
  { name: 'message', label: 'Message', max: 5000, required: true, kind: 'lines' },
] as const satisfies readonly TextFieldDefinition[];

/** The assessment's text fields (after its six questions, forms/assessment-questions.ts), in page order. */
export const ASSESSMENT_TEXT_FIELDS = [
  NAME,
  EMAIL,
  ORGANISATION,
  { name: 'message', label: 'Comments', max: 5000, required: false, kind: 'lines' },
] as const satisfies readonly TextFieldDefinition[];

export type ContactTextField = (typeof CONTACT_TEXT_FIELDS)[number]['name'];
export type AssessmentTextField = (typeof ASSESSMENT_TEXT_FIELDS)[number]['name'];
/** Every text field of either form: the attributes a stored lead carries. */
export type LeadField = ContactTextField | AssessmentTextField;

/** Each of a form's fields by its name, for the island that places their controls. */
export const fieldsByName = <F extends readonly TextFieldDefinition[]>(fields: F) =>
  Object.fromEntries(fields.map((f) => [f.name, f])) as { [K in F[number]['name']]: Extract<F[number], { name: K }> };

export const TEXT_FIELDS: Record<FormName, readonly TextFieldDefinition[]> = {
  contact: CONTACT_TEXT_FIELDS,
  assessment: ASSESSMENT_TEXT_FIELDS,
};

/** Every text field name of either form, each once, contact form's order first. */
export const LEAD_FIELDS = [...new Set([...CONTACT_TEXT_FIELDS, ...ASSESSMENT_TEXT_FIELDS].map((f) => f.name))] as readonly LeadField[];

/** The most characters each text field takes. */
export const MAX_LENGTHS = Object.fromEntries(
  [...CONTACT_TEXT_FIELDS, ...ASSESSMENT_TEXT_FIELDS].map((f) => [f.name, f.max]),
) as Readonly<Record<LeadField, number>>;

/** A lead's text, one string per field of either form: '' when not given or not on its form. */
export type LeadFieldValues = Record<LeadField, string>;

/** The text fields of a submission or a stored lead as strings ('' where absent: a record stored before the field existed). */
export function leadFieldValues(source: Partial<Record<LeadField, unknown>>): LeadFieldValues {
  return Object.fromEntries(LEAD_FIELDS.map((name) => {
    const value = source[name];
    return [name, typeof value === 'string' ? value : ''];
  })) as LeadFieldValues;
}

/** The required human-confirmation checkbox both forms end with. */
export const HUMAN_CHECK = { name: 'isHuman', label: 'Human confirmation' } as const;

/**
 * The hidden field a person never fills in. A lead that arrives with it filled is stored and
 * flagged as likely spam, and mailed only in the digest. Its name means nothing to a browser's
 * autofill or a password manager: Chromium's heuristics read a field's name, id, label and
 * autocomplete attribute, and a name such as `website`, `address` or `email` is filled from the
 * visitor's saved details (the field is hidden with `hidden` too, which autofill skips).
 */
export const HONEYPOT_FIELD = 'mellifera';

/** The assessment's hidden field naming the form (forms/assessment.ts's ASSESSMENT_FORM_TYPE). */
export const FORM_TYPE_FIELD = 'formType';
