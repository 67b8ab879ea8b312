import { ServicesOverviewPage } from './ServicesOverview.tsx';
import { ServicePage } from './ServicePage.tsx';

/** The services page templates, by the name their routes give. */
export const servicesTemplates = {
  servicesOverview: ServicesOverviewPage,
  service: ServicePage,
};
