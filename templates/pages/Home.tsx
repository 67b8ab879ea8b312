import type { HomeContent } from '../../src/content/schemas.ts';
import { Img } from '../components/Img.tsx';
import { AssessmentButton, TalkButton } from '../components/links.tsx';
import { Section } from '../components/Section.tsx';
import { Testimonials } from '../components/Testimonials.tsx';

export function HomePage({ content }: { content: HomeContent }) {
  const { hero, testimonials, cta } = content;
  return (
    <>
      <section className="hero" aria-labelledby="hero-heading">
        <Img className="hero__bg" src={hero.image.src} alt={hero.image.alt} slot="hero" priority />
        <div className="container">
          <h1 id="hero-heading">{hero.headline}</h1>
          <p>{hero.text}</p>
          <div className="button-row">
            <AssessmentButton />
            <TalkButton variant="ghost" />
          </div>
        </div>
      </section>

      <Section id="testimonials" eyebrow="Client voices" heading={testimonials.heading}>
        <Testimonials label="Client quotes" items={testimonials.items.map((t) => ({ quote: t.quote, attribution: `${t.role}, ${t.company}` }))} />
      </Section>

      <Section id="next-steps" tone="alt" heading={cta.heading} lead={cta.text}>
        <div className="grid grid--2">
          <div className="cta-card cta-card--teal">
            <h3>{cta.assessment.title}</h3>
            <p>{cta.assessment.text}</p>
            <AssessmentButton />
          </div>
          <div className="cta-card">
            <h3>{cta.talk.title}</h3>
            <p>{cta.talk.text}</p>
            <TalkButton variant="primary" />
          </div>
        </div>
      </Section>
    </>
  );
}

/** The home page's template, by the name its route gives. */
export const templates = { home: HomePage };
