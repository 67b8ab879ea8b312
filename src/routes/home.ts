import type { SiteContent } from '../content/load.ts';
import type { templates as homeTemplates } from '../../templates/pages/Home.tsx';
import type { templates as notFoundTemplates } from '../../templates/pages/NotFound.tsx';
import { routeMakers, type RouteOf } from './route.ts';

const home = routeMakers<typeof homeTemplates>();
const notFound = routeMakers<typeof notFoundTemplates>();

/** The home page, its share card the hero's art beside the site's location. */
export function homeRoutes(site: SiteContent): Array<RouteOf<typeof homeTemplates>> {
  const content = site.pages.home;
  return [home.page('/', 'home', { content }, { title: content.title, description: content.description, image: content.hero.image.src, card: { title: content.title, label: site.settings.location, art: content.hero.image.src } })];
}

/** The site's not-found page, answered with a 404 from 404.html. */
export function notFoundRoutes(): Array<RouteOf<typeof notFoundTemplates>> {
  return [notFound.errorPage('/404', '/404.html', 'notFound', {}, { title: 'Page not found', description: "The page you're looking for doesn't exist or has been moved." })];
}
