import type { SiteContent } from '../content/load.ts';
import { categoriesOf, categorySlug, categoryUrl } from '../content/categories.ts';
import { SEARCH_DIR } from '../search/search-index.ts';
import type { templates } from '../../templates/pages/search/index.ts';
import { routeMakers, type RouteOf } from './route.ts';

/** This kind's routes: to its templates only. */
type Route = RouteOf<typeof templates>;
const { page } = routeMakers<typeof templates>();

/** /search, when the site has search (content/site.yaml `search`, on unless set to false). */
export function searchRoutes(site: SiteContent): Route[] {
  if (!site.settings.search) return [];
  const words = site.pages.blog.search;
  // Each category once, by its page's address, with how many articles it lists; then the other kinds of page search finds.
  const categories = new Map<string, { name: string; href: string; count: number }>();
  for (const post of site.posts) {
    for (const name of categoriesOf(post)) {
      const slug = categorySlug(name);
      const entry = categories.get(slug) ?? categories.set(slug, { name, href: categoryUrl(name), count: 0 }).get(slug)!;
      entry.count++;
    }
  }
  const browse = [...categories.values()].sort((a, b) => a.name.localeCompare(b.name, 'en-GB'));
  if (site.caseStudies.length) browse.push({ name: 'Case studies', href: '/case-studies', count: site.caseStudies.length });
  if (site.collections.services.length) browse.push({ name: 'Services', href: '/services', count: site.collections.services.length });
  return [page('/search', 'search', { content: words, browse, index: `${SEARCH_DIR}/pagefind.js` }, { title: words.title, description: words.description })];
}
