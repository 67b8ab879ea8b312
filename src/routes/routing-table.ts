import type { Route } from './kinds.ts';
import type { RoutingTable } from '../url-resolution/routing-table.ts';

/** Exact-path redirects; the CDN and `site serve` apply them alike. */
export const REDIRECTS: RoutingTable['redirects'] = {
  '/services/analytics-and-reporting': { to: '/services/data-visualisation', status: 301 },
};

/**
 * `others`: pages the build writes that are no route (the content manager's /admin), each an exact
 * path like a page's. `hosts`: the site's and the content manager's host names, when it has one.
 */
export function routingTable(all: Route[], others: string[] = [], hosts?: RoutingTable['hosts']): RoutingTable {
  return {
    ...(hosts ? { hosts } : {}),
    pageUrls: [...all.filter((r) => r.status === 200).map((r) => r.url), ...others],
    redirects: REDIRECTS,
    fallbacks: [
      { prefix: '/blog/', redirect: '/blog', status: 302 },
      ...(all.some((r) => r.file === '/case-studies/404.html') ? [{ prefix: '/case-studies/', file: '/case-studies/404.html', status: 404 }] : []),
    ],
    notFound: '/404.html',
  };
}
