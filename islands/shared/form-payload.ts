/**
 * From what a visitor entered to what the islands post (docs/product-rules.md#what-the-forms-post), checked with the same schemas
 * the handler uses, so the browser shows the handler's messages before anything is sent.
 */
import { validateContact } from '../../forms/contact.ts';
import {
  ANSWER_FIELDS,
  ASSESSMENT_FORM_TYPE,
  HONEYPOT_FIELD,
  validateAssessment,
  type AnswerField,
} from '../../forms/assessment.ts';
import type { FieldErrors } from './form-state.ts';

/** The parts of FormData the islands read (FormData itself, or a stand-in in tests). */
export interface FormEntries {
  get(name: string): unknown;
}

export interface ContactValues {
  name: string;
  email: string;
  company: string;
  message: string;
  isHuman: boolean;
  /** The honeypot: empty for people. */
  website: string;
}

export type AssessmentValues = ContactValues & { answers: Record<AnswerField, string> };

/** When and from where the form was sent: the caller's clock and origin. */
export interface SendContext { timestamp: string; source: string }

export interface ContactPayload {
  name: string;
  email: string;
  company: string;
  message: string;
  isHuman: true;
  timestamp: string;
  source: string;
  website?: string;
}

export interface AssessmentPayload extends ContactPayload {
  formType: typeof ASSESSMENT_FORM_TYPE;
  /** The six answers as the labels shown in the dropdowns, not codes. */
  assessmentData: Record<AnswerField, string>;
}

export type Checked<P> = { ok: true; payload: P } | { ok: false; errors: FieldErrors };

const text = (entries: FormEntries, name: string): string => {
  const value = entries.get(name);
  return typeof value === 'string' ? value : '';
};

export function contactValues(entries: FormEntries): ContactValues {
  return {
    name: text(entries, 'name'),
    email: text(entries, 'email'),
    company: text(entries, 'company'),
    message: text(entries, 'message'),
    // An unticked checkbox is absent from the form's entries.
    isHuman: entries.get('isHuman') !== null && entries.get('isHuman') !== undefined,
    website: text(entries, HONEYPOT_FIELD),
  };
}

export function assessmentValues(entries: FormEntries): AssessmentValues {
  const answers = Object.fromEntries(ANSWER_FIELDS.map((f) => [f, text(entries, f)])) as Record<AnswerField, string>;
  return { ...contactValues(entries), answers };
}

// A bot that fills the trap with script running is sent on, so the handler can drop it quietly.
const trap = (website: string) => (website ? { [HONEYPOT_FIELD]: website } : {});

/** The contact form's payload, or the validation message for each field that is wrong. */
export function toContactPayload(values: ContactValues, context: SendContext): Checked<ContactPayload> {
  const result = validateContact({ name: values.name, email: values.email, company: values.company, message: values.message, isHuman: values.isHuman });
  if (!result.ok) return { ok: false, errors: result.errors as FieldErrors };
  const { name, email, company = '', message } = result.data;
  return { ok: true, payload: { name, email, company, message, isHuman: true, ...context, ...trap(values.website) } };
}

/** The assessment's payload (answers as labels), or a message for each field that is wrong. */
export function toAssessmentPayload(values: AssessmentValues, context: SendContext): Checked<AssessmentPayload> {
  const result = validateAssessment({
    name: values.name,
    email: values.email,
    company: values.company,
    message: values.message,
    isHuman: values.isHuman,
    formType: ASSESSMENT_FORM_TYPE,
    assessmentData: values.answers,
  });
  if (!result.ok) return { ok: false, errors: result.errors as FieldErrors };
  const { name, email, company = '', message = '', assessmentData } = result.data;
  return {
    ok: true,
    payload: {
      name, email, company, message, isHuman: true,
      formType: ASSESSMENT_FORM_TYPE,
      assessmentData,
      ...context,
      ...trap(values.website),
    },
  };
}
