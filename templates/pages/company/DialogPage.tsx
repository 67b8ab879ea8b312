import type { DialogContent } from '../../../src/content/company-schema.ts';
import { Img } from '../../components/Img.tsx';
import { AssessmentButton, TalkButton } from '../../components/links.tsx';
import { Section } from '../../components/Section.tsx';
import { Testimonials } from '../../components/Testimonials.tsx';
import { PageHero } from '../../components/PageHero.tsx';

export function DialogPage({ content }: { content: DialogContent }) {
  const { hero, challenges, about, steps, aspects, businessCase, testimonials, cta } = content;
  return (
    <>
      <PageHero id="dialog-hero-heading" eyebrow={hero.eyebrow} heading={hero.heading} text={hero.text}
        actions={<><AssessmentButton /><TalkButton variant="ghost" /></>}
        aside={<Img className="company-figure" src={hero.image.src} alt={hero.image.alt} slot="figure" priority />} />

      <Section id="challenges" eyebrow="The challenge" heading={challenges.heading} lead={challenges.lead}>
        <ul className="grid grid--2 company-list">
          {challenges.items.map((item) => (
            <li key={item.title} className="card">
              <h3>{item.title}</h3>
              <p>{item.text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="what-is-dialog" tone="alt" eyebrow="What it is" heading={about.heading}>
        <div className="split company-split--top">
          <div className="narrow">
            {about.paragraphs.map((p, i) => <p key={i}>{p}</p>)}
          </div>
          <div className="card">
            <h3>What you get</h3>
            <ul className="checklist">
              {about.points.map((point) => <li key={point}>{point}</li>)}
            </ul>
          </div>
        </div>
      </Section>

      <Section id="approach" eyebrow="How it works" heading={steps.heading} lead={steps.lead}>
        <ol className="grid grid--3 company-list">
          {steps.items.map((step, i) => (
            <li key={step.title} className="card">
              <span className="card__number" aria-hidden="true">{i + 1}</span>
              <h3><span className="visually-hidden">Step {i + 1}: </span>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="aspects" tone="dark" eyebrow="What we look at" heading={aspects.heading} lead={aspects.lead}>
        <ul className="grid grid--3 company-list">
          {aspects.items.map((aspect) => (
            <li key={aspect.title} className="card">
              <h3>{aspect.title}</h3>
              <p className="aspect__question">{aspect.question}</p>
              <p>{aspect.text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="business-case" eyebrow="Why it matters" heading={businessCase.heading} lead={businessCase.lead}>
        <ul className="grid grid--3 company-list">
          {businessCase.figures.map((item) => (
            <li key={item.figure} className="card company-stat">
              <p className="company-stat__figure">{item.figure}</p>
              <p>{item.text}</p>
            </li>
          ))}
        </ul>
        <p className="company-note">{businessCase.note}</p>
      </Section>

      <Section id="dialog-testimonials" tone="alt" eyebrow="Client voices" heading={testimonials.heading}>
        <Testimonials label="DIAlog client quotes" items={testimonials.items.map((t) => ({ quote: t.quote, attribution: t.role }))} />
      </Section>

      <Section id="dialog-next-steps" tone="dark" eyebrow="Get started" heading={cta.heading} lead={cta.text}>
        <ul className="grid grid--2 company-list">
          {cta.surveys.map((survey) => (
            <li key={survey.form} className="card survey-card">
              <h3>{survey.title}</h3>
              <p>{survey.text}</p>
              <AssessmentButton form={survey.form} label={survey.label} />
            </li>
          ))}
        </ul>
        <div className="button-row">
          <TalkButton variant="ghost" />
        </div>
      </Section>
    </>
  );
}
