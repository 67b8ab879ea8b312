// The forms' names: which forms there are and where they post by default. Each field's name and
// label is in forms/fields.ts. Browser-safe, like the rest of forms/.

/** The two forms a visitor can send. */
export type FormName = 'contact' | 'assessment';

/** Where the forms post unless content/site.yaml says otherwise (`formEndpoint`): the Lambda behind CloudFront's /api/*, or `site serve`'s local handler. */
export const DEFAULT_FORM_ENDPOINT = '/api/send-contact-form';
