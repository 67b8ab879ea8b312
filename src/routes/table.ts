import type { SiteContent } from '../content/load.ts';
import { errorPage, page, type Route } from './route.ts';
import { servicesRoutes } from './services.ts';
import { companyRoutes } from './company.ts';
import { blogRoutes } from './blog.ts';
import { formRoutes } from './forms.ts';
import { legalRoutes } from './legal.ts';
import { searchRoutes } from './search.ts';

export type { Route, TemplateName } from './route.ts';

/** Every URL of the site: a pure function of the content. Build, sitemap, serve and the CDN read this list. */
export function routes(site: SiteContent): Route[] {
  const { home } = site.pages;
  return [
    page('/', 'home', { content: home }, { title: home.title, description: home.description, image: home.hero.image.src, card: { title: home.title, label: site.settings.location, art: home.hero.image.src } }),
    ...companyRoutes(site),
    ...servicesRoutes(site),
    ...blogRoutes(site),
    ...searchRoutes(site),
    ...formRoutes(site),
    ...legalRoutes(site),
    errorPage('/404', '/404.html', 'notFound', {}, { title: 'Page not found', description: "The page you're looking for doesn't exist or has been moved." }),
  ];
}
