import type { Site } from '../content/load.ts';
import type { SiteSettings, Faq } from '../content/schemas.ts';
import type { ServiceContent } from '../content/services-schema.ts';
import { page, type Route } from './route.ts';

/** A service as its page and the overview card receive it. */
export type Service = ServiceContent & { slug: string };

/** What a service page shows of the case study it points to. */
export interface CaseStudyTeaser { slug: string; client: string; title: string; subtitle: string; image?: { src: string; alt: string } }

/** A card on /services. */
export interface ServiceCard { slug: string; name: string; summary: string }

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

/** schema.org FAQPage from question-and-answer pairs. */
export function faqPageJsonLd(items: Faq[]): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  };
}

/** The case study a service page links to; a slug with no case study is a content error, not a broken link. */
export function caseStudyTeaser(service: Service, site: Pick<Site, 'caseStudies'>): CaseStudyTeaser {
  const study = site.caseStudies.find((s) => s.slug === service.caseStudy.slug);
  if (!study) {
    const known = site.caseStudies.map((s) => s.slug).join(', ');
    throw new Error(`content/services/${service.slug}.yaml caseStudy.slug: no case study "${service.caseStudy.slug}" in content/case-studies (known: ${known})`);
  }
  const image = study.headerImage ? { src: study.headerImage, alt: study.headerImageAlt ?? '' } : undefined;
  return { slug: study.slug, client: study.client, title: study.title, subtitle: study.subtitle, ...(image ? { image } : {}) };
}

/** The routes of the services pages: the overview, then one page per file in content/services. */
export function servicesRoutes(site: Site): Route[] {
  const overview = site.pages.services;
  const services: Service[] = site.collections.services;
  const cards: ServiceCard[] = services.map((s) => ({ slug: s.slug, name: s.name, summary: s.summary }));
  return [
    page('/services', 'servicesOverview', { content: overview, services: cards }, { title: overview.title, description: overview.description }),
    ...services.map((service) => page(servicePath(service.slug), 'servicePage', { service, caseStudy: caseStudyTeaser(service, site) }, {
      title: service.metaTitle,
      description: service.metaDescription,
      jsonLd: [serviceJsonLd(service, site.settings), faqPageJsonLd(service.faq.items)],
    })),
  ];
}
