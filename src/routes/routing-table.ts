import type { Route } from './route.ts';

/** The routing table the build makes from the routes: what `resolve` and the store's entries are made of. */
export interface RoutingTable {
  /** Every page URL that has a file, without trailing slash ('/' for home). */
  pageUrls: string[];
  /** Exact-path redirects. */
  redirects: Record<string, { to: string; status: 301 | 302 }>;
  /** Unknown paths under a prefix: redirected, or answered with a page and status. */
  fallbacks: Array<{ prefix: string; redirect?: string; file?: string; status: number }>;
  /** The not-found page's file. */
  notFound: string;
}

/** Exact-path redirects; the CDN and `site serve` apply them alike. */
export const REDIRECTS: RoutingTable['redirects'] = {
  '/services/analytics-and-reporting': { to: '/services/data-visualisation', status: 301 },
};

/** `others`: pages the build writes that are no route (the content manager's /admin), each an exact path like a page's. */
export function routingTable(all: Route[], others: string[] = []): RoutingTable {
  return {
    pageUrls: [...all.filter((r) => r.status === 200).map((r) => r.url), ...others],
    redirects: REDIRECTS,
    fallbacks: [
      { prefix: '/blog/', redirect: '/blog', status: 302 },
      ...(all.some((r) => r.file === '/case-studies/404.html') ? [{ prefix: '/case-studies/', file: '/case-studies/404.html', status: 404 }] : []),
    ],
    notFound: '/404.html',
  };
}
