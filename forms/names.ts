// The forms' names: which forms there are, where they post by default, and what each field is
// called wherever a person reads it (the validation messages, the error summary under the form, the
// problem page a plain post gets back, the e-mail). Browser-safe, like the rest of forms/.

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

/** Where the forms post unless content/site.yaml says otherwise (`formEndpoint`): the Lambda behind CloudFront's /api/*, or `site serve`'s local handler. */
export const DEFAULT_FORM_ENDPOINT = '/api/send-contact-form';
