import type { ServicesOverviewContent } from '../../../src/content/services-schema.ts';
import { ButtonLink, AssessmentButton } from '../../components/links.tsx';
import { PageHero } from '../../components/PageHero.tsx';
import { Section } from '../../components/Section.tsx';
import { ServiceTeaser } from '../../components/ServiceTeaser.tsx';
import { StageList } from './StageList.tsx';

/** A service's teaser on /services. */
export interface ServiceListing { slug: string; name: string; summary: string }

export function ServicesOverviewPage({ content, services }: { content: ServicesOverviewContent; services: ServiceListing[] }) {
  const { hero, list, method, closing } = content;
  return (
    <>
      <PageHero id="services-hero-heading" className="services-hero" eyebrow={hero.eyebrow} heading={hero.heading} text={hero.text}
        actions={<><ButtonLink href="/contact">Book a Free Consultation</ButtonLink><AssessmentButton variant="ghost" /></>} />

      <Section id="services-list" heading={list.heading} lead={list.lead}>
        <ul className="grid grid--3 service-cards">
          {services.map((s) => <ServiceTeaser key={s.slug} href={`/services/${s.slug}`} name={s.name} summary={s.summary} />)}
        </ul>
      </Section>

      <Section id="how-we-work" tone="alt" heading={method.heading} lead={method.lead}>
        <StageList stages={method.stages} />
      </Section>

      <Section id="services-next-step" tone="dark" heading={closing.heading} lead={closing.text}>
        <div className="button-row">
          <ButtonLink href="/contact">Book a Free Consultation</ButtonLink>
        </div>
      </Section>
    </>
  );
}
