import { Section } from './Section.tsx';

export interface FaqItem { question: string; answer: string }

/**
 * Questions and answers as native disclosures: readable and usable without JavaScript, and the
 * shared `name` lets modern browsers keep one open at a time. An accordion island may enhance it.
 */
export function Faq({ id, heading, items, tone }: { id: string; heading: string; items: FaqItem[]; tone?: 'alt' | 'dark' }) {
  return (
    <Section id={id} heading={heading} tone={tone} className="faq-section">
      <div className="faq">
        {items.map((item, i) => (
          <details key={i} name={id} className="faq__item">
            <summary><span className="faq__q">{item.question}</span></summary>
            <div className="faq__a"><p>{item.answer}</p></div>
          </details>
        ))}
      </div>
    </Section>
  );
}
