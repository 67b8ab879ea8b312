import { AboutPage } from './AboutPage.tsx';
import { DialogPage } from './DialogPage.tsx';
import { TestimonialsPage } from './TestimonialsPage.tsx';
import { CaseStudiesPage } from './CaseStudiesPage.tsx';
import { CaseStudyPage } from './CaseStudyPage.tsx';
import { CaseStudyNotFoundPage } from './CaseStudyNotFound.tsx';

/** The company page templates, by the name their routes give. */
export const templates = {
  about: AboutPage,
  dialog: DialogPage,
  testimonials: TestimonialsPage,
  caseStudies: CaseStudiesPage,
  caseStudy: CaseStudyPage,
  caseStudyNotFound: CaseStudyNotFoundPage,
};
