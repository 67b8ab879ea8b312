import type { ServiceContent } from '../../../src/content/services-schema.ts';
import type { CaseStudySummary as Teaser } from '../../components/CaseStudyTeaser.tsx';
import { ContactForm } from '../../components/ContactForm.tsx';
import { Faq } from '../../components/Faq.tsx';
import { Approach, AssessmentPromo, Benefits, CaseStudySection, Challenge, ServiceHero, Tools } from './ServiceSections.tsx';

/** One service: hero, challenge, the four stages, benefits, tools, a case study, questions, then the form. */
/** A service as its page and its teaser on the overview receive it. */
export type Service = ServiceContent & { slug: string };

export function ServicePage({ service, caseStudy }: { service: Service; caseStudy: Teaser }) {
  return (
    <>
      <ServiceHero hero={service.hero} />
      <Challenge challenge={service.challenge} />
      <Approach approach={service.approach} timelines={service.timelines} />
      <Benefits benefits={service.benefits} />
      <Tools tools={service.tools} />
      <CaseStudySection copy={service.caseStudy} study={caseStudy} />
      <Faq id="faq" heading={service.faq.heading} items={service.faq.items} tone="alt" />
      {service.assessment && <AssessmentPromo assessment={service.assessment} />}
      <ContactForm heading={service.contactHeading} idPrefix="service-contact" lead={service.contactLead} />
    </>
  );
}
