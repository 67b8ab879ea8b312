// The routing table's shape, which the resolver and the store's entries read; the build makes it from
// the routes (src/routes/routing-table.ts).

/** What `resolve` and the store's entries are made of. */
export interface RoutingTable {
  /** Every page URL that has a file, without trailing slash ('/' for home). */
  pageUrls: string[];
  /** Exact-path redirects. */
  redirects: Record<string, { to: string; status: 301 | 302 }>;
  /** Unknown paths under a prefix: redirected, or answered with a page and status. */
  fallbacks: Array<{ prefix: string; redirect?: string; file?: string; status: number }>;
  /** The not-found page's file. */
  notFound: string;
  /** With a content manager on a host of its own: the site's host name and the manager's (see rule.ts). */
  hosts?: { site: string; cms: string };
}
