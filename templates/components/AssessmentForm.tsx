import type { AssessmentPageContent } from '../../src/content/insights-schema.ts';
import AssessmentFormIsland from '../../islands/assessment-form.tsx';
import { Island } from '../../src/page-api/island.tsx';
import { useSite } from '../../src/page-api/site-context.tsx';
import { Img } from './Img.tsx';

/** /dialog-assessment: the titled introduction (the page's h1) and the assessment form. */
export function AssessmentForm({ content, idPrefix = 'assessment' }: { content: AssessmentPageContent; idPrefix?: string }) {
  const { settings } = useSite();
  return (
    <>
      <section className="page-hero assessment-hero" aria-labelledby={`${idPrefix}-title`}>
        <div className="container assessment-hero__inner">
          <div>
            <p className="eyebrow">{content.eyebrow}</p>
            <h1 id={`${idPrefix}-title`}>DIAlog Assessment</h1>
            <p>{content.intro}</p>
          </div>
          <div className="assessment-hero__media">
            <Img src={content.image.src} alt={content.image.alt} slot="figure" priority />
          </div>
        </div>
      </section>
      <div className="section section--alt">
        <div className="container form-container">
          {/* Wakes at the first focus or touch: until then it is a plain form that posts without script,
              so the page loads no JavaScript before the visitor starts answering. */}
          <Island
            component={AssessmentFormIsland}
            props={{ idPrefix, action: settings.formEndpoint, questionsLead: content.questionsLead, contactLead: content.contactLead }}
            hydrate="interaction"
          />
        </div>
      </div>
    </>
  );
}
