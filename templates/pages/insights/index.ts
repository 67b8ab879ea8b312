import { AssessmentPage } from './AssessmentPage.tsx';
import { BlogListPage } from './BlogList.tsx';
import { BlogPostPage } from './BlogPost.tsx';
import { ContactPage } from './ContactPage.tsx';
import { LegalPage } from './LegalPage.tsx';
import { ThankYouPage } from './ThankYouPage.tsx';

/** The insights, forms and legal page templates, by the name their routes give. */
export const insightsTemplates = {
  blogList: BlogListPage,
  blogPost: BlogPostPage,
  contactPage: ContactPage,
  assessmentPage: AssessmentPage,
  thankYouPage: ThankYouPage,
  legalPage: LegalPage,
};
