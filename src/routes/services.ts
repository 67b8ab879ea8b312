import type { SiteContent } from '../content/load.ts';
import type { SiteSettings } from '../content/schemas.ts';
import type { CaseStudySummary } from '../../templates/components/CaseStudyTeaser.tsx';
import type { Service } from '../../templates/pages/services/ServicePage.tsx';
import type { ServiceListing } from '../../templates/pages/services/ServicesOverview.tsx';
import { caseStudySummary } from './company.ts';
import type { templates } from '../../templates/pages/services/index.ts';
import { routeMakers, type RouteOf } from './route.ts';

/** This kind's routes: to its templates only. */
type Route = RouteOf<typeof templates>;
const { page } = routeMakers<typeof templates>();


export const servicePath = (slug: string) => `/services/${slug}`;

/** schema.org Service, offered by the site's organisation across the UK. */
export function serviceJsonLd(service: Service, settings: SiteSettings): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Service',
    name: service.hero.heading,
    serviceType: service.name,
    description: service.metaDescription,
    url: new URL(servicePath(service.slug), settings.url).href,
    provider: { '@type': 'Organization', name: settings.name, url: settings.url },
    areaServed: 'United Kingdom',
  };
}

/** The case study a service page links to; a slug with no case study is a content error, not a broken link. */
export function caseStudyTeaser(service: Service, site: Pick<SiteContent, 'caseStudies'>): CaseStudySummary {
  const study = site.caseStudies.find((s) => s.slug === service.caseStudy.slug);
  if (!study) {
    const known = site.caseStudies.map((s) => s.slug).join(', ');
    throw new Error(`content/services/${service.slug}.yaml caseStudy.slug: no case study "${service.caseStudy.slug}" in content/case-studies (known: ${known})`);
  }
  return caseStudySummary(study);
}

/** The routes of the services pages: the overview, then one page per file in content/services. */
export function servicesRoutes(site: SiteContent): Route[] {
  const overview = site.pages.services;
  const services: Service[] = site.collections.services;
  const cards: ServiceListing[] = services.map((s) => ({ slug: s.slug, name: s.name, summary: s.summary }));
  return [
    page('/services', 'servicesOverview', { content: overview, services: cards }, { title: overview.title, description: overview.description }),
    ...services.map((service) => page(servicePath(service.slug), 'service', { service, caseStudy: caseStudyTeaser(service, site) }, {
      title: service.metaTitle,
      description: service.metaDescription,
      card: { title: service.metaTitle, label: 'Service' },
      jsonLd: [serviceJsonLd(service, site.settings)],
      faq: service.faq.items,
    })),
  ];
}
