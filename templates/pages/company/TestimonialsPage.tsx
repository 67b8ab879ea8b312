import type { TestimonialsContent } from '../../../src/content/company-schema.ts';
import type { CaseStudySummary } from '../../components/CaseStudyTeaser.tsx';
import { CaseStudyGrid } from '../../components/CaseStudyTeaser.tsx';
import { ButtonLink, TalkButton } from '../../components/links.tsx';
import { Section } from '../../components/Section.tsx';
import { Testimonials } from '../../components/Testimonials.tsx';
import { PageHero } from '../../components/PageHero.tsx';

/** Our Work: client quotes, the case-study grid and a closing call to action. */
export function TestimonialsPage({ content, caseStudies }: { content: TestimonialsContent; caseStudies: CaseStudySummary[] }) {
  const { hero, testimonials, cta } = content;
  return (
    <>
      <PageHero id="work-hero-heading" eyebrow={hero.eyebrow} heading={content.title} text={hero.text} />

      <Section id="client-testimonials" eyebrow="Client voices" heading={testimonials.heading} lead={testimonials.lead}>
        <Testimonials label="Client quotes" items={testimonials.items.map((t) => ({ quote: t.quote, attribution: `${t.role}, ${t.organisation}` }))} />
      </Section>

      <Section id="case-studies" tone="alt" eyebrow="In detail" heading={content.caseStudies.heading} lead={content.caseStudies.lead}>
        <CaseStudyGrid studies={caseStudies} />
      </Section>

      <Section id="work-next-steps" tone="dark" eyebrow="Next steps" heading={cta.heading} lead={cta.text}>
        <div className="button-row">
          {/* Always the on-site assessment here, whatever the external form setting (docs/product-rules.md#pages-and-routes). */}
          <ButtonLink href="/dialog-assessment">Test Your Data Maturity</ButtonLink>
          <TalkButton variant="ghost" />
        </div>
      </Section>
    </>
  );
}
