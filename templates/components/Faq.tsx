import { Section } from './Section.tsx';
import { Island } from '../../src/page-api/island.tsx';
import Accordion from '../../islands/accordion.tsx';

export interface FaqItem { question: string; answer: string }

/**
 * Questions and answers: native disclosures in the HTML (readable without JavaScript, one open at a
 * time in modern browsers through the shared `name`), made an APG accordion on first interaction.
 */
export function Faq({ id, heading, items, tone }: { id: string; heading: string; items: FaqItem[]; tone?: 'alt' | 'dark' }) {
  return (
    <Section id={id} heading={heading} tone={tone} className="faq-section">
      <Island component={Accordion} hydrate="interaction" props={{ id, items }} />
    </Section>
  );
}
