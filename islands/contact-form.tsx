import { CONTACT_TEXT_FIELDS, fieldsByName, HUMAN_CHECK } from '../forms/fields.ts';
import { trackFormSubmit } from './shared/analytics.ts';
import { ErrorSummary, HumanCheckbox, Honeypot, RequiredNote, TextArea, TextField } from './shared/form-controls.tsx';
import { useFormFlow, useFormIsland } from './shared/form-island.ts';
import { contactValues, toContactPayload } from './shared/form-payload.ts';
import { errorSummary, type FieldName } from './shared/form-state.ts';

export interface ContactFormProps { idPrefix: string; action: string }

/** The fields in page order (forms/fields.ts's order), with the names the error summary uses for them. */
export const CONTACT_FIELDS: readonly FieldName[] = [
  ...CONTACT_TEXT_FIELDS.map(({ name, label }) => ({ name, label })),
  HUMAN_CHECK,
];
const ORDER = CONTACT_FIELDS.map((f) => f.name);
const FIELD = fieldsByName(CONTACT_TEXT_FIELDS);

/**
 * The contact form (/contact, and embedded on every service page). Its first render is the static
 * form, which without script posts to the endpoint and gets a redirect; hydrated, it checks the
 * fields here with the handler's own schema, posts JSON, and goes to /thank-you once sent.
 */
export default function ContactForm({ idPrefix, action }: ContactFormProps) {
  const island = useFormIsland(idPrefix, ORDER);
  const { state, submitRef } = island;
  const busy = state.status !== 'idle';
  const error = (name: string) => state.errors[name];

  const { onChange, onSubmit } = useFormFlow(island, {
    action, order: ORDER,
    check: (entries, context) => toContactPayload(contactValues(entries), context),
    failure: 'Failed to send your message. Please try again.',
    async sent(payload) {
      // Waits for the tag manager's callback (at most 2 s), or not at all without one.
      await trackFormSubmit(window as Window & { dataLayer?: unknown[] }, { form: 'contact', email: payload.email, organisation: payload.company });
      window.location.assign('/thank-you');
    },
  });

  return (
    <form className="form" method="post" action={action} noValidate data-form="contact" aria-labelledby={`${idPrefix}-heading`} aria-busy={state.status === 'submitting' || undefined} onSubmit={onSubmit} onChange={onChange}>
      <RequiredNote />
      <TextField idPrefix={idPrefix} field={FIELD.name} error={error('name')} />
      <TextField idPrefix={idPrefix} field={FIELD.email} error={error('email')} />
      <TextField idPrefix={idPrefix} field={FIELD.company} error={error('company')} />
      <TextArea idPrefix={idPrefix} field={FIELD.message} label="How can we help?" rows={6} error={error('message')} />
      <HumanCheckbox idPrefix={idPrefix} error={error('isHuman')} />
      <Honeypot idPrefix={idPrefix} />
      <ErrorSummary id={`${idPrefix}-summary`} text={errorSummary(CONTACT_FIELDS, state.errors)} />
      <div className="form__actions">
        <button ref={submitRef} type="submit" className="button button--secondary form__submit" disabled={busy}>{busy ? 'Sending...' : 'Send Message'}</button>
      </div>
    </form>
  );
}
