import { AssessmentPage } from './AssessmentPage.tsx';
import { ContactPage } from './ContactPage.tsx';
import { ThankYouPage } from './ThankYouPage.tsx';

/** The pages built around a form: contact, the DIAlog assessment, and where both land. */
export const templates = {
  contact: ContactPage,
  assessment: AssessmentPage,
  thankYou: ThankYouPage,
};
