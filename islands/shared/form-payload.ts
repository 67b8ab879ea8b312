/**
 * From what a visitor entered to what the islands post (docs/product-rules.md#what-the-forms-post), checked with the same schemas
 * the handler uses, so the browser shows the handler's messages before anything is sent.
 */
import { validateContact } from '../../forms/contact.ts';
import {
  ANSWER_FIELDS,
  ASSESSMENT_FORM_TYPE,
  validateAssessment,
  type AnswerField,
} from '../../forms/assessment.ts';
import {
  ASSESSMENT_TEXT_FIELDS,
  CONTACT_TEXT_FIELDS,
  HONEYPOT_FIELD,
  HUMAN_CHECK,
  type AssessmentTextField,
  type ContactTextField,
  type TextFieldDefinition,
} from '../../forms/fields.ts';
import type { FieldErrors } from './form-state.ts';

/** The parts of FormData the islands read (FormData itself, or a stand-in in tests). */
export interface FormEntries {
  get(name: string): unknown;
}

/** What a visitor entered: each text field of the form (forms/fields.ts), the checkbox and the honeypot. */
type Entered<F extends string> = Record<F, string> & {
  isHuman: boolean;
  /** The honeypot's value: empty for people. */
  honeypot: string;
};

export type ContactValues = Entered<ContactTextField>;
export type AssessmentValues = Entered<AssessmentTextField> & { answers: Record<AnswerField, string> };

/** When and from where the form was sent: the caller's clock and origin. */
export interface SendContext { timestamp: string; source: string }

/** What is posted: each text field (an optional one left blank as ''), isHuman, the time and origin. */
type Posted<F extends string> = Record<F, string> & Partial<Record<typeof HONEYPOT_FIELD, string>> & {
  isHuman: true;
  timestamp: string;
  source: string;
};

export type ContactPayload = Posted<ContactTextField>;

export interface AssessmentPayload extends Posted<AssessmentTextField> {
  formType: typeof ASSESSMENT_FORM_TYPE;
  /** The six answers as the labels shown in the dropdowns, not codes. */
  assessmentData: Record<AnswerField, string>;
}

export type Checked<P> = { ok: true; payload: P } | { ok: false; errors: FieldErrors };

const text = (entries: FormEntries, name: string): string => {
  const value = entries.get(name);
  return typeof value === 'string' ? value : '';
};

function entered<F extends string>(entries: FormEntries, fields: readonly (TextFieldDefinition & { name: F })[]): Entered<F> {
  const values = Object.fromEntries(fields.map((f) => [f.name, text(entries, f.name)])) as Record<F, string>;
  return {
    ...values,
    // An unticked checkbox is absent from the form's entries.
    isHuman: entries.get(HUMAN_CHECK.name) !== null && entries.get(HUMAN_CHECK.name) !== undefined,
    honeypot: text(entries, HONEYPOT_FIELD),
  };
}

/** The text fields alone, as the schema reads them. */
function textOf<F extends string>(values: Record<F, string>, fields: readonly (TextFieldDefinition & { name: F })[]): Record<F, string> {
  return Object.fromEntries(fields.map((f) => [f.name, values[f.name]])) as Record<F, string>;
}

/** The validated text fields, an optional one left out sent as ''. */
function posted<F extends string>(data: Partial<Record<F, string>>, fields: readonly (TextFieldDefinition & { name: F })[]): Record<F, string> {
  return Object.fromEntries(fields.map((f) => [f.name, data[f.name] ?? ''])) as Record<F, string>;
}

export function contactValues(entries: FormEntries): ContactValues {
  return entered(entries, CONTACT_TEXT_FIELDS);
}

export function assessmentValues(entries: FormEntries): AssessmentValues {
  const answers = Object.fromEntries(ANSWER_FIELDS.map((f) => [f, text(entries, f)])) as Record<AnswerField, string>;
  return { ...entered(entries, ASSESSMENT_TEXT_FIELDS), answers };
}

// A filled trap is sent on, so the handler stores the lead flagged as likely spam.
const trap = (honeypot: string) => (honeypot ? { [HONEYPOT_FIELD]: honeypot } : {});

/** The contact form's payload, or the validation message for each field that is wrong. */
export function toContactPayload(values: ContactValues, context: SendContext): Checked<ContactPayload> {
  const result = validateContact({ ...textOf(values, CONTACT_TEXT_FIELDS), isHuman: values.isHuman });
  if (!result.ok) return { ok: false, errors: result.errors as FieldErrors };
  return { ok: true, payload: { ...posted(result.data, CONTACT_TEXT_FIELDS), isHuman: true, ...context, ...trap(values.honeypot) } };
}

/** The assessment's payload (answers as labels), or a message for each field that is wrong. */
export function toAssessmentPayload(values: AssessmentValues, context: SendContext): Checked<AssessmentPayload> {
  const result = validateAssessment({
    ...textOf(values, ASSESSMENT_TEXT_FIELDS),
    isHuman: values.isHuman,
    formType: ASSESSMENT_FORM_TYPE,
    assessmentData: values.answers,
  });
  if (!result.ok) return { ok: false, errors: result.errors as FieldErrors };
  return {
    ok: true,
    payload: {
      ...posted(result.data, ASSESSMENT_TEXT_FIELDS),
      isHuman: true,
      formType: ASSESSMENT_FORM_TYPE,
      assessmentData: result.data.assessmentData,
      ...context,
      ...trap(values.honeypot),
    },
  };
}
