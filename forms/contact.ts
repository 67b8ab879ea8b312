// The contact form: the authority in the handler and the client-side check in the island.
import * as z from 'zod/mini';
import { CONTACT_TEXT_FIELDS, HUMAN_CHECK, type ContactTextField } from './fields.ts';
import {
  firstMessages,
  humanConfirmation,
  textShape,
  type FieldErrors,
  type ValidationResult,
} from './validation.ts';

export { FORM_ERROR_KEY } from './validation.ts';
export type { FieldErrors, ValidationResult } from './validation.ts';

export const contactSchema = z.object(
  { ...textShape(CONTACT_TEXT_FIELDS), [HUMAN_CHECK.name]: humanConfirmation() },
  { error: 'The form fields must be sent as an object' },
);

export type ContactSubmission = z.output<typeof contactSchema>;
export type ContactField = ContactTextField | typeof HUMAN_CHECK.name;

/** Validates the contact payload; values are trimmed, unknown keys dropped. */
export function validateContact(values: unknown): ValidationResult<ContactSubmission, ContactField> {
  const result = contactSchema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: firstMessages(result.error.issues) as FieldErrors<ContactField> };
}
