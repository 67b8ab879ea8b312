import type { ThankYouPageContent } from '../../../src/content/insights-schema.ts';
import { ButtonLink } from '../../components/links.tsx';
import { Section } from '../../components/Section.tsx';
import { PageHero } from '../../components/PageHero.tsx';

/** /thank-you: where a sent form lands (not indexed). */
export function ThankYouPage({ content }: { content: ThankYouPageContent }) {
  const { hero, next, links } = content;
  return (
    <>
      <PageHero id="thanks-title" eyebrow={hero.eyebrow} heading={hero.heading} className="thanks-hero">
        <p>{hero.text}</p>
      </PageHero>
      <Section id="next-steps" heading={next.heading}>
        <ol className="grid grid--3 steps">
          {next.steps.map((step, i) => (
            <li key={step.title} className="card">
              <span className="card__number" aria-hidden="true">{i + 1}</span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </Section>
      <Section id="keep-exploring" heading={links.heading} lead={links.text} tone="alt">
        <div className="button-row">
          <ButtonLink href="/" variant="secondary">Return to Home</ButtonLink>
          <ButtonLink href="/blog" variant="ghost">Read Our Insights</ButtonLink>
        </div>
      </Section>
    </>
  );
}
