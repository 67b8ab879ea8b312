import type { SiteContent } from '../content/load.ts';
import type { templates } from '../../templates/pages/legal/LegalPage.tsx';
import { routeMakers, type RouteOf } from './route.ts';
import { legalPages } from '../content/pages.ts';

/** This kind's routes: to its templates only. */
type Route = RouteOf<typeof templates>;
const { page } = routeMakers<typeof templates>();

/** The privacy policy and the terms, each with the anchors of its sections. */
export function legalRoutes(site: SiteContent): Route[] {
  return legalPages.map((slug) => {
    const { title, description, updated, html, toc, bodyImages } = site.legal[slug];
    return page(`/${slug}`, 'legal', { title, updated, html, toc: toc.filter((t) => t.depth === 2), bodyImages }, { title, description });
  });
}
