import type { ContactPageContent } from '../../../src/content/insights-schema.ts';
import { useSite } from '../../../src/page-api/site-context.tsx';
import { ContactForm } from '../../components/ContactForm.tsx';
import { ClockIcon, MailIcon, PinIcon } from '../../../islands/shared/icons.tsx';
import { PageHero } from '../../components/PageHero.tsx';

/** Office location, e-mail and hours, shown beside the form on /contact only. */
function ContactDetails({ heading, text }: ContactPageContent['details']) {
  const { settings } = useSite();
  return (
    <aside className="contact-details" aria-labelledby="contact-details-heading">
      <h3 id="contact-details-heading">{heading}</h3>
      <p>{text}</p>
      <ul className="contact-details__list">
        <li>
          <PinIcon />
          <span><strong>Office</strong><br />{settings.location}</span>
        </li>
        <li>
          <MailIcon />
          <span><strong>Email</strong><br /><a href={`mailto:${settings.email}`}>{settings.email}</a></span>
        </li>
        <li>
          <ClockIcon />
          <span><strong>Working hours</strong><br />{settings.officeHours}</span>
        </li>
      </ul>
    </aside>
  );
}

export function ContactPage({ content }: { content: ContactPageContent }) {
  return (
    <>
      <PageHero id="contact-title" eyebrow={content.hero.eyebrow} heading={content.hero.heading}>
        <p>{content.hero.text}</p>
      </PageHero>
      <ContactForm
        hydrate="interaction"
        heading={content.form.heading}
        idPrefix="contact"
        lead={content.form.lead}
        tone="alt"
        aside={<ContactDetails {...content.details} />}
      />
    </>
  );
}
