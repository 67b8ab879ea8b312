import type { CaseStudy, SiteContent } from '../content/load.ts';
import type { SiteSettings } from '../content/schemas.ts';
import type { PageMeta } from './meta.ts';
import type { CaseStudySummary } from '../../templates/components/CaseStudyTeaser.tsx';
import type { templates } from '../../templates/pages/company/index.ts';
import { routeMakers, type RouteOf } from './route.ts';

/** This kind's routes: to its templates only. */
type Route = RouteOf<typeof templates>;
const { errorPage, page } = routeMakers<typeof templates>();


export function caseStudyUrl(slug: string): string {
  return `/case-studies/${slug}`;
}

/** A header image's alt text: the one written for it, else one built from the client's name. */
export function caseStudyImageAlt(study: Pick<CaseStudy, 'client' | 'headerImageAlt'>): string {
  return study.headerImageAlt?.trim() || `${study.client} case study`;
}

export function caseStudySummary(study: CaseStudy): CaseStudySummary {
  return {
    slug: study.slug,
    href: caseStudyUrl(study.slug),
    client: study.client,
    title: study.title,
    subtitle: study.subtitle,
    ...(study.headerImage ? { image: { src: study.headerImage, alt: caseStudyImageAlt(study) } } : {}),
  };
}

/** Cut text to at most `max` characters at a word boundary, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : cut.length).replace(/[\s,.;:]+$/, '')}…`;
}

/** The custom title and description when the case study has them, else generic ones naming the client. */
export function caseStudyMeta(study: CaseStudy, settings: Pick<SiteSettings, 'name' | 'url'>): PageMeta {
  const url = new URL(caseStudyUrl(study.slug), settings.url).href;
  return {
    title: study.metaTitle ?? `${study.client} Case Study`,
    description: study.metaDescription ?? clip(`How we worked with ${study.client}: ${study.subtitle}`, 160),
    ...(study.headerImage ? { image: study.headerImage } : {}),
    type: 'article',
    card: { title: study.title, label: `Case study · ${study.client}`, ...(study.headerImage ? { art: study.headerImage } : {}) },
    jsonLd: [{
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: study.title,
      description: study.subtitle.replace(/\s+/g, ' ').trim(),
      about: { '@type': 'Organization', name: study.client },
      author: { '@type': 'Organization', name: settings.name, url: settings.url },
      publisher: { '@type': 'Organization', name: settings.name, url: settings.url },
      mainEntityOfPage: url,
      url,
    }],
  };
}

/** The routes of the company pages: About, DIAlog, Our Work, the case studies and their not-found page. */
export function companyRoutes(site: SiteContent): Route[] {
  const { about, dialog, testimonials } = site.pages;
  const list = site.pages['case-studies'];
  const caseStudies = site.caseStudies.map(caseStudySummary);
  return [
    page('/about', 'about', { content: about }, { title: about.title, description: about.description, image: about.purpose.image.src }),
    page('/dialog', 'dialog', { content: dialog }, { title: dialog.title, description: dialog.description, image: dialog.hero.image.src }),
    page('/testimonials', 'testimonials', { content: testimonials, caseStudies }, { title: testimonials.title, description: testimonials.description }),
    page('/case-studies', 'caseStudies', { content: list, caseStudies }, { title: list.title, description: list.description }),
    ...site.caseStudies.map((study) => page(caseStudyUrl(study.slug), 'caseStudy', { study, imageAlt: caseStudyImageAlt(study), cta: list.studyCta }, caseStudyMeta(study, site.settings))),
    errorPage('/case-studies/404', '/case-studies/404.html', 'caseStudyNotFound', {}, {
      title: 'Case Study Not Found',
      description: "The case study you're looking for doesn't exist or has been moved.",
    }),
  ];
}
