/**
 * URL → file / redirect / not-found. `site serve` calls `resolve`, and the build bundles this very
 * module into the CloudFront viewer-request function, so it must stay self-contained: no imports,
 * no Node APIs, only syntax CloudFront's JavaScript runtime 2.0 accepts.
 */

export interface RoutingTable {
  /** Every page URL that has a file, without trailing slash ('/' for home). */
  pages: string[];
  /** Exact-path redirects. */
  redirects: Record<string, { to: string; status: 301 | 302 }>;
  /** Unknown paths under a prefix: redirected, or answered with a page and status. */
  fallbacks: Array<{ prefix: string; redirect?: string; file?: string; status: number }>;
  /** The not-found page's file. */
  notFound: string;
}

export type Resolution =
  | { kind: 'file'; file: string; status: number }
  | { kind: 'redirect'; location: string; status: number }
  | { kind: 'bad-request'; status: 400 };

/**
 * The request targets answered: an origin-form path of printable ASCII without a backslash. The
 * rest is refused, so that no redirect is ever built from it: an absolute-form target
 * ('https://evil.example/x/' would become 'https:/evil.example/x'), a backslash (browsers read
 * '/\evil.example' as '//evil.example'), raw tabs and newlines (browsers drop them from a
 * Location, so '/<tab>/evil.example' would also become '//evil.example'), spaces and other bytes
 * that a browser always percent-encodes.
 */
var PATH_TARGET = /^\/[\x21-\x5b\x5d-\x7e]*$/;

/**
 * The object file that holds a page URL: '/' → '/index.html', '/about' → '/about.html',
 * '/blog/page/2' → '/blog/page/2.html'. A file beside its siblings rather than an index.html in a
 * folder of its own: one folder fewer for the build to make per page. The URL is the same either way.
 */
export function pageFile(url: string): string {
  return url === '/' ? '/index.html' : url + '.html';
}

/** Whether `url` is one of the table's pages: '/about.html' names the page '/about', '/404.html' no page, '/.html' not the home page. */
function isPage(url: string, table: RoutingTable): boolean {
  return url !== '/' && table.pages.indexOf(url) !== -1;
}

export function resolve(path: string, table: RoutingTable): Resolution {
  if (!PATH_TARGET.test(path)) return { kind: 'bad-request', status: 400 };
  // Collapse repeated slashes first: '//evil.example/' must never become a protocol-relative redirect.
  var clean = path.replace(/\/{2,}/g, '/');
  if (clean.length > 1 && clean.charAt(clean.length - 1) === '/') clean = clean.replace(/\/+$/, '') || '/';
  // Each page has one URL. Its file's name is another way to it, and so is the folder layout that
  // builds used to write ('/about/index.html'), which old bookmarks and shared links may still name.
  if (clean.length > 11 && clean.slice(-11) === '/index.html') clean = clean.slice(0, -11);
  else if (clean === '/index.html') clean = '/';
  if (clean.slice(-5) === '.html' && isPage(clean.slice(0, -5), table)) clean = clean.slice(0, -5);
  if (clean !== path) return { kind: 'redirect', location: clean, status: 301 };

  // The error pages' own files answer with their status too, however they are reached.
  if (path === table.notFound) return { kind: 'file', file: path, status: 404 };
  for (var j = 0; j < table.fallbacks.length; j++) {
    var e = table.fallbacks[j]!;
    if (e.file && path === e.file) return { kind: 'file', file: path, status: e.status };
  }

  var redirect = table.redirects[path];
  if (redirect) return { kind: 'redirect', location: redirect.to, status: redirect.status };
  if (table.pages.indexOf(path) !== -1) return { kind: 'file', file: pageFile(path), status: 200 };

  var last = path.slice(path.lastIndexOf('/') + 1);
  if (last.indexOf('.') !== -1) return { kind: 'file', file: path, status: 200 };

  for (var i = 0; i < table.fallbacks.length; i++) {
    var f = table.fallbacks[i]!;
    if (path.indexOf(f.prefix) === 0 && path.length > f.prefix.length) {
      if (f.redirect) return { kind: 'redirect', location: f.redirect, status: f.status };
      if (f.file) return { kind: 'file', file: f.file, status: f.status };
    }
  }
  return { kind: 'file', file: table.notFound, status: 404 };
}
