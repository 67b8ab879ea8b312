import type { ReactNode } from 'react';
import { LIMITS } from '../../lambda/schemas/contact.ts';
import { useSite } from '../../src/render/context.tsx';
import { HumanCheckbox, Honeypot, RequiredNote, TextArea, TextField } from './formFields.tsx';

/**
 * The contact form's fields and button, as a plain HTML form that posts to the form endpoint.
 * Props are plain data so the forms island can render the same markup. noValidate: the island
 * validates in the browser; without script the handler validates and answers.
 */
export function ContactFormMarkup({ idPrefix, action }: { idPrefix: string; action: string }) {
  return (
    <form className="form" method="post" action={action} noValidate data-form="contact" aria-labelledby={`${idPrefix}-heading`}>
      <RequiredNote />
      <TextField idPrefix={idPrefix} name="name" label="Name" required maxLength={LIMITS.name} autoComplete="name" />
      <TextField idPrefix={idPrefix} name="email" label="Email" type="email" required maxLength={LIMITS.email} autoComplete="email" />
      <TextField idPrefix={idPrefix} name="company" label="Organisation" maxLength={LIMITS.company} autoComplete="organization" />
      <TextArea idPrefix={idPrefix} name="message" label="How can we help?" required maxLength={LIMITS.message} rows={6} />
      <HumanCheckbox idPrefix={idPrefix} />
      <Honeypot idPrefix={idPrefix} />
      <div className="form__actions">
        <button type="submit" className="button button--secondary form__submit">Send Message</button>
      </div>
    </form>
  );
}

/**
 * A complete contact section: heading, optional lead, the form and, on /contact only, an aside
 * beside it (office location, e-mail, hours). Every id derives from idPrefix.
 */
export function ContactForm({ heading, idPrefix, lead, aside, tone }: {
  heading: string;
  idPrefix: string;
  lead?: string;
  aside?: ReactNode;
  tone?: 'alt';
}) {
  const { settings } = useSite();
  return (
    <section id={idPrefix} aria-labelledby={`${idPrefix}-heading`} className={`section contact-section${tone ? ` section--${tone}` : ''}`}>
      <div className={`container contact-section__inner${aside ? ' contact-section__inner--aside' : ''}`}>
        <div className="form-card">
          <h2 id={`${idPrefix}-heading`}>{heading}</h2>
          {lead && <p className="form-card__lead">{lead}</p>}
          <ContactFormMarkup idPrefix={idPrefix} action={settings.formEndpoint} />
        </div>
        {aside}
      </div>
    </section>
  );
}
