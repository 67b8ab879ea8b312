import type { AboutContent } from '../../../src/content/company-schema.ts';
import { Img } from '../../components/Img.tsx';
import { AssessmentButton, TalkButton } from '../../components/links.tsx';
import { Section } from '../../components/Section.tsx';
import { PageHero } from '../../components/PageHero.tsx';

export function AboutPage({ content }: { content: AboutContent }) {
  const { hero, purpose, vision, mission, values, methodology, cta } = content;
  return (
    <>
      <PageHero id="about-hero-heading" eyebrow={hero.eyebrow} heading={hero.heading} text={hero.text}
        actions={<><a className="button button--primary" href="#methodology">See How We Work</a><TalkButton variant="ghost" /></>} />

      <Section id="purpose" eyebrow="Why we exist" heading={purpose.heading}>
        <div className="split">
          <div className="narrow">
            {purpose.paragraphs.map((p, i) => <p key={i}>{p}</p>)}
          </div>
          <Img className="company-figure" src={purpose.image.src} alt={purpose.image.alt} slot="figure" />
        </div>
      </Section>

      <div className="section section--alt">
        <div className="container grid grid--2">
          {([['vision', 'Where we are heading', vision], ['mission', 'What we do about it', mission]] as const).map(([id, eyebrow, block]) => (
            <section key={id} id={id} className="card company-statement" aria-labelledby={`${id}-heading`}>
              <p className="eyebrow">{eyebrow}</p>
              <h2 id={`${id}-heading`}>{block.heading}</h2>
              <p>{block.text}</p>
            </section>
          ))}
        </div>
      </div>

      <Section id="values" eyebrow="Our values" heading={values.heading} lead={values.lead}>
        <ul className="grid grid--2 company-list">
          {values.items.map((value) => (
            <li key={value.title} className="card value-card">
              <h3>{value.title}</h3>
              <p>{value.text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="methodology" tone="dark" eyebrow="Our method" heading={methodology.heading} lead={methodology.lead}>
        <ol className="grid grid--4 company-list method-stages">
          {methodology.stages.map((stage, i) => (
            <li key={stage.title} className="card method-stage">
              <span className="card__number" aria-hidden="true">{i + 1}</span>
              <h3><span className="visually-hidden">Stage {i + 1}: </span>{stage.title}</h3>
              <p className="method-stage__summary">{stage.summary}</p>
              <dl className="method-stage__detail">
                <dt>What happens</dt>
                <dd>{stage.happens}</dd>
                <dt>What you get</dt>
                <dd>{stage.outcome}</dd>
              </dl>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="about-next-steps" tone="alt" eyebrow="Next steps" heading={cta.heading} lead={cta.text}>
        <div className="button-row">
          <AssessmentButton />
          <TalkButton />
        </div>
      </Section>
    </>
  );
}
