import type { ReactNode } from 'react';
import ContactFormIsland from '../../islands/contact-form.tsx';
import { Island, type HydrateStrategy } from '../../src/page-api/island.tsx';
import { useSite } from '../../src/page-api/site-context.tsx';

/**
 * A complete contact section: heading, optional lead, the form and, on /contact only, an aside
 * beside it (office location, e-mail, hours). Every id derives from idPrefix.
 */
export function ContactForm({ heading, idPrefix, lead, aside, tone, hydrate }: {
  heading: string;
  idPrefix: string;
  lead?: string;
  aside?: ReactNode;
  tone?: 'alt';
  /**
   * When the form's island wakes. Default `visible`: a form embedded lower on a page (the service
   * pages) wakes as it scrolls into view. /contact passes `interaction`: its form wakes at the first
   * focus or touch, and until then posts as a plain form, so no script loads before a visitor acts.
   */
  hydrate?: Extract<HydrateStrategy, 'idle' | 'visible' | 'interaction'>;
}) {
  const { settings } = useSite();
  return (
    <section id={idPrefix} aria-labelledby={`${idPrefix}-heading`} className={`section contact-section${tone ? ` section--${tone}` : ''}`}>
      <div className={`container contact-section__inner${aside ? ' contact-section__inner--aside' : ''}`}>
        <div className="form-card">
          <h2 id={`${idPrefix}-heading`}>{heading}</h2>
          {lead && <p className="form-card__lead">{lead}</p>}
          <Island component={ContactFormIsland} props={{ idPrefix, action: settings.formEndpoint }} hydrate={hydrate ?? 'visible'} />
        </div>
        {aside}
      </div>
    </section>
  );
}
