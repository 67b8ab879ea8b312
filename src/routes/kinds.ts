import type { SiteContent } from '../content/load.ts';
import type { collectionSchemas, legalPages, pageSchemas } from '../content/pages.ts';
import { homeRoutes, notFoundRoutes } from './home.ts';
import { companyRoutes } from './company.ts';
import { servicesRoutes } from './services.ts';
import { blogRoutes } from './blog.ts';
import { searchRoutes } from './search.ts';
import { formRoutes } from './forms.ts';
import { legalRoutes } from './legal.ts';

/** One kind of page: the content it draws, its routes, and the module of the templates they name. */
export interface PageKind {
  /**
   * The content files it draws: YAML pages (content/pages/<name>.yaml) and legal pages
   * (content/pages/<slug>.md), folders of entries (content/<folder>/), and the articles (content/blog/).
   */
  content: {
    pages?: ReadonlyArray<keyof typeof pageSchemas | (typeof legalPages)[number]>;
    folders?: ReadonlyArray<keyof typeof collectionSchemas>;
    articles?: true;
  };
  /** Its routes, a pure function of the content; each names a template of its own module. */
  routes: (site: SiteContent) => ReadonlyArray<{ template: string }>;
  /**
   * Its templates module, from the project's root: it exports `templates`, each template by the name
   * its routes give. The render stage and the CMS's previews bundle these modules (page-templates.ts
   * in src/bundle); the routes module imports its type (`routeMakers<typeof templates>()`).
   */
  templates: string;
}

/**
 * Every kind of page, in the order of the site's routes (the sitemap's, the routing table's). A new
 * kind is an entry here, its templates module, and its content's schema in src/content/pages.ts
 * (docs/architecture.md#adding-a-kind-of-page).
 */
export const pageKinds = {
  home: { content: { pages: ['home'] }, routes: homeRoutes, templates: 'templates/pages/Home.tsx' },
  company: { content: { pages: ['about', 'dialog', 'testimonials', 'case-studies'], folders: ['case-studies'] }, routes: companyRoutes, templates: 'templates/pages/company/index.ts' },
  services: { content: { pages: ['services'], folders: ['services'] }, routes: servicesRoutes, templates: 'templates/pages/services/index.ts' },
  blog: { content: { pages: ['blog'], articles: true }, routes: blogRoutes, templates: 'templates/pages/blog/index.ts' },
  search: { content: {}, routes: searchRoutes, templates: 'templates/pages/search/index.ts' },
  forms: { content: { pages: ['contact', 'dialog-assessment', 'thank-you'] }, routes: formRoutes, templates: 'templates/pages/forms/index.ts' },
  legal: { content: { pages: ['privacy-policy', 'terms-of-service'] }, routes: legalRoutes, templates: 'templates/pages/legal/LegalPage.tsx' },
  notFound: { content: {}, routes: notFoundRoutes, templates: 'templates/pages/NotFound.tsx' },
} satisfies Record<string, PageKind>;

type Kinds = typeof pageKinds;
/** A route of the site: what one of the kinds' routes functions returns. */
export type Route = ReturnType<Kinds[keyof Kinds]['routes']>[number];
export type TemplateName = Route['template'];

/** Each kind's templates module, by kind. */
export function templateModules(kinds: Record<string, Pick<PageKind, 'templates'>> = pageKinds): Record<string, string> {
  return Object.fromEntries(Object.entries(kinds).map(([name, kind]) => [name, kind.templates]));
}
