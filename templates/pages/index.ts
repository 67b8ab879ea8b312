import { HomePage } from './Home.tsx';
import { NotFoundPage } from './NotFound.tsx';
import { servicesTemplates } from './services/index.ts';
import { companyTemplates } from './company/index.ts';
import { blogTemplates } from './blog/index.ts';
import { formTemplates } from './forms/index.ts';
import { LegalPage } from './legal/LegalPage.tsx';
import { searchTemplates } from './search/index.ts';

/** Every page template, by the name routes give it. */
export const templates = {
  home: HomePage,
  notFound: NotFoundPage,
  legal: LegalPage,
  ...servicesTemplates,
  ...companyTemplates,
  ...blogTemplates,
  ...formTemplates,
  ...searchTemplates,
};
