import type { ServiceContent } from '../../../src/content/services-schema.ts';
import type { CaseStudySummary as Teaser } from '../../components/CaseStudyTeaser.tsx';
import { Img } from '../../components/Img.tsx';
import { PageHero } from '../../components/PageHero.tsx';
import { AssessmentButton, ButtonLink } from '../../components/links.tsx';
import { Section } from '../../components/Section.tsx';
import { StageList } from './StageList.tsx';

/** The sections of a service page, each given only the copy it shows. */

export function ServiceHero({ hero }: { hero: ServiceContent['hero'] }) {
  return (
    <PageHero id="service-hero-heading" className="services-hero" eyebrow={hero.eyebrow} heading={hero.heading} text={hero.text}
      actions={hero.action === 'assessment' ? <AssessmentButton form="readiness" /> : <ButtonLink href="/contact">Book a Free Consultation</ButtonLink>} />
  );
}

export function Challenge({ challenge }: { challenge: ServiceContent['challenge'] }) {
  return (
    <Section id="challenge" eyebrow="The challenge" heading={challenge.heading} lead={challenge.text}>
      <ul className="problem-list">
        {challenge.problems.map((p, i) => <li key={i}>{p}</li>)}
      </ul>
    </Section>
  );
}

export function Approach({ approach, timelines }: { approach: ServiceContent['approach']; timelines?: ServiceContent['timelines'] }) {
  return (
    <Section id="approach" tone="alt" eyebrow="Our approach" heading={approach.heading} lead={approach.lead}>
      <StageList stages={approach.stages} />
      {timelines && (
        <div className="timelines">
          <h3>{timelines.heading}</h3>
          <dl className="grid grid--2">
            {timelines.items.map((t) => (
              <div key={t.label} className="timeline">
                <dt>{t.label}</dt>
                <dd className="timeline__duration">{t.duration}</dd>
                <dd>{t.text}</dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    </Section>
  );
}

export function Benefits({ benefits }: { benefits: ServiceContent['benefits'] }) {
  const columns = benefits.items.length % 3 === 0 ? 'grid--3' : 'grid--2';
  return (
    <Section id="benefits" eyebrow="Why work with us" heading={benefits.heading} lead={benefits.lead}>
      <ul className={`grid ${columns} benefit-list`}>
        {benefits.items.map((b) => (
          <li key={b.title} className="card benefit">
            <h3>{b.title}</h3>
            <p>{b.text}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

export function Tools({ tools }: { tools: ServiceContent['tools'] }) {
  return (
    <Section id="tools" tone="alt" eyebrow="Tools and platforms" heading={tools.heading} lead={tools.lead}>
      <div className={`grid ${tools.groups.length === 3 ? 'grid--3' : 'grid--2'}`}>
        {tools.groups.map((g) => (
          <div key={g.name} className="card tool-group">
            <h3>{g.name}</h3>
            <ul className="tags">
              {g.items.map((item) => <li key={item} className="tag">{item}</li>)}
            </ul>
          </div>
        ))}
      </div>
    </Section>
  );
}

export function CaseStudySection({ copy, study }: { copy: ServiceContent['caseStudy']; study: Teaser }) {
  return (
    <Section id="case-study" eyebrow="Case study" heading={copy.heading} lead={copy.text}>
      <article className="card case-teaser" aria-labelledby="case-study-title">
        {study.image && (
          <div className="case-teaser__media">
            <Img src={study.image.src} alt={study.image.alt} slot="figure" />
          </div>
        )}
        <div className="case-teaser__body">
          <p className="meta-line">{study.client}</p>
          <h3 id="case-study-title">{study.title}</h3>
          <p>{study.subtitle}</p>
          <div className="button-row">
            <ButtonLink href={`/case-studies/${study.slug}`} variant="secondary">Read the full case study</ButtonLink>
          </div>
        </div>
      </article>
    </Section>
  );
}

export function AssessmentPromo({ assessment }: { assessment: NonNullable<ServiceContent['assessment']> }) {
  return (
    <Section id="assessment" tone="dark" eyebrow="DIAlog assessment" heading={assessment.heading} lead={assessment.text}>
      <ul className="grid grid--3 dimension-list">
        {assessment.dimensions.map((d, i) => (
          <li key={d.title} className="card">
            <span className="card__number" aria-hidden="true">{i + 1}</span>
            <h3>{d.title}</h3>
            <p>{d.text}</p>
          </li>
        ))}
      </ul>
      <p className="assessment-note">{assessment.note}</p>
      <div className="button-row">
        <AssessmentButton form="readiness" />
      </div>
    </Section>
  );
}
