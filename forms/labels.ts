// What each field of the two forms is called wherever a person reads its name: the validation
// messages, the error summary under the form, the problem page a plain post gets back, the e-mail.
// Browser-safe, like the rest of forms/.

/** The two forms a visitor can send. */
export type FormName = 'contact' | 'assessment';

/** The fields both forms share, by name. */
export const FIELD_LABELS = {
  name: 'Name',
  email: 'Email',
  company: 'Organisation',
  isHuman: 'Human confirmation',
} as const;

/** The free-text field: the contact form's message, the assessment's optional comments. */
export const MESSAGE_LABELS: Record<FormName, string> = { contact: 'Message', assessment: 'Comments' };
