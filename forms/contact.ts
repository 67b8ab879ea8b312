// The contact form: the authority in the handler and the client-side check in the island.
import * as z from 'zod/mini';
import {
  LIMITS,
  contactShape,
  firstMessages,
  requiredText,
  type FieldErrors,
  type ValidationResult,
} from './fields.ts';
import { MESSAGE_LABELS } from './names.ts';

export { HONEYPOT_FIELD, LIMITS, FORM_ERROR_KEY } from './fields.ts';
export type { FieldErrors, ValidationResult } from './fields.ts';

export const contactSchema = z.object(
  {
    ...contactShape,
    message: requiredText({ label: MESSAGE_LABELS.contact, max: LIMITS.message, singleLine: false }),
  },
  { error: 'The form fields must be sent as an object' },
);

export type ContactSubmission = z.output<typeof contactSchema>;
export type ContactField = 'name' | 'email' | 'company' | 'message' | 'isHuman';

/** Validates the contact payload; values are trimmed, unknown keys dropped. */
export function validateContact(values: unknown): ValidationResult<ContactSubmission, ContactField> {
  const result = contactSchema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: firstMessages(result.error.issues) as FieldErrors<ContactField> };
}
