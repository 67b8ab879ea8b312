import type { ReactNode } from 'react';
import type { CaseStudy } from '../../../src/content/load.ts';
import { ArrowLeft } from '../../../islands/shared/icons.tsx';
import { Img } from '../../components/Img.tsx';
import { AssessmentButton, TalkButton } from '../../components/links.tsx';
import { PageHero } from '../../components/PageHero.tsx';

function Part({ id, heading, children }: { id: string; heading: string; children: ReactNode }) {
  return (
    <section id={id} className="case-part" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{heading}</h2>
      {children}
    </section>
  );
}

/** One case study: its fixed sections in order; feedback and 'Why Us' only when the file has them. */
export function CaseStudyPage({ study, imageAlt, cta }: { study: CaseStudy; imageAlt: string; cta: { heading: string; text: string } }) {
  return (
    <>
      <PageHero id="case-study-heading" eyebrow={study.client} heading={study.title} text={study.subtitle}
        before={<a className="case-study__back" href="/testimonials"><ArrowLeft />Back to Testimonials</a>} />

      <div className="section case-study">
        <div className="container case-study__body">
          {study.headerImage && (
            <Img className="case-study__image" src={study.headerImage} alt={imageAlt} slot="article" priority />
          )}
          <dl className="case-study__facts">
            <dt>Client</dt>
            <dd>{study.client}</dd>
          </dl>
          <Part id="about-client" heading="About the client"><p>{study.aboutClient}</p></Part>
          <Part id="challenge" heading="The Challenge"><p>{study.challenge}</p></Part>
          <Part id="solution" heading="The Solution">
            <ul className="checklist">{study.solution.map((item) => <li key={item}>{item}</li>)}</ul>
          </Part>
          <Part id="results" heading="The Results">
            <ul className="checklist">{study.results.map((item) => <li key={item}>{item}</li>)}</ul>
          </Part>
          {study.feedback && (
            <Part id="feedback" heading="Client Feedback">
              <figure className="quote case-study__quote">
                <blockquote><p>{study.feedback.quote}</p></blockquote>
                <figcaption>{study.feedback.author}, {study.feedback.role}</figcaption>
              </figure>
            </Part>
          )}
          {study.whyUs && study.whyUs.length > 0 && (
            <Part id="why-us" heading="Why Us">
              <ul className="checklist">{study.whyUs.map((item) => <li key={item}>{item}</li>)}</ul>
            </Part>
          )}
        </div>
      </div>

      <section className="section section--dark" aria-labelledby="case-study-next-heading">
        <div className="container">
          <header className="section-head">
            <p className="eyebrow">Next steps</p>
            <h2 id="case-study-next-heading">{cta.heading}</h2>
            <p>{cta.text}</p>
          </header>
          <div className="button-row">
            <AssessmentButton />
            <TalkButton variant="ghost" />
          </div>
        </div>
      </section>
    </>
  );
}
