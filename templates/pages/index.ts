import { HomePage } from './Home.tsx';
import { NotFoundPage } from './NotFound.tsx';
import { servicesTemplates } from './services/index.ts';
import { companyTemplates } from './company/index.ts';
import { insightsTemplates } from './insights/index.ts';

/** Every page template, by the name routes give it. */
export const templates = {
  home: HomePage,
  notFound: NotFoundPage,
  ...servicesTemplates,
  ...companyTemplates,
  ...insightsTemplates,
};
