import type { CaseStudiesPageContent } from '../../../src/content/company-schema.ts';
import type { CaseStudySummary } from '../../components/CaseStudyTeaser.tsx';
import { CaseStudyGrid } from '../../components/CaseStudyTeaser.tsx';
import { ButtonLink, TalkButton } from '../../components/links.tsx';
import { Section } from '../../components/Section.tsx';
import { PageHero } from '../../components/PageHero.tsx';

export function CaseStudiesPage({ content, caseStudies }: { content: CaseStudiesPageContent; caseStudies: CaseStudySummary[] }) {
  const { hero, list, cta } = content;
  return (
    <>
      <PageHero id="case-studies-hero-heading" eyebrow={hero.eyebrow} heading={hero.heading} text={hero.text} />

      <Section id="case-study-list" heading={list.heading} lead={list.lead}>
        <CaseStudyGrid studies={caseStudies} />
      </Section>

      <Section id="case-studies-next-steps" tone="dark" eyebrow="Next steps" heading={cta.heading} lead={cta.text}>
        <div className="button-row">
          <TalkButton variant="primary" />
          <ButtonLink href="/dialog-assessment" variant="ghost">Test Your Data Maturity</ButtonLink>
        </div>
      </Section>
    </>
  );
}
