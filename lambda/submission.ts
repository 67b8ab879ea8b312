// Which form a payload is, whether it is spam, and whether it passes that form's schema.
import type { Submission } from './email.ts';
import type { FormName } from '../forms/names.ts';
import { validateAssessment } from '../forms/assessment.ts';
import { validateContact } from '../forms/contact.ts';
import { HONEYPOT_FIELD } from '../forms/fields.ts';

export type CheckedSubmission =
  | { ok: true; form: FormName; submission: Submission }
  | { ok: false; form: FormName; errors: Record<string, string> };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The assessment is the payload that names a form type; everything else is the contact form. */
export function formOf(payload: unknown): FormName {
  return isRecord(payload) && Object.hasOwn(payload, 'formType') ? 'assessment' : 'contact';
}

/** True when the hidden honeypot field holds anything but blank text. */
export function isSpam(payload: unknown): boolean {
  if (!isRecord(payload) || !Object.hasOwn(payload, HONEYPOT_FIELD)) return false;
  const value = payload[HONEYPOT_FIELD];
  return !(value === null || value === undefined || (typeof value === 'string' && value.trim() === ''));
}

export function validateSubmission(payload: unknown): CheckedSubmission {
  if (formOf(payload) === 'assessment') {
    const result = validateAssessment(payload);
    return result.ok
      ? { ok: true, form: 'assessment', submission: { form: 'assessment', data: result.data } }
      : { ok: false, form: 'assessment', errors: result.errors as Record<string, string> };
  }
  const result = validateContact(payload);
  return result.ok
    ? { ok: true, form: 'contact', submission: { form: 'contact', data: result.data } }
    : { ok: false, form: 'contact', errors: result.errors as Record<string, string> };
}
