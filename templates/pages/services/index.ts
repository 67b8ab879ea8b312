import { ServicesOverviewPage } from './ServicesOverview.tsx';
import { ServicePage } from './ServicePage.tsx';

/** The services page templates, by the name their routes give. */
export const templates = {
  servicesOverview: ServicesOverviewPage,
  service: ServicePage,
};
