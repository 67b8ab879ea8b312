/**
 * The routing rule: URL → file / redirect / not-found, from the routing data kept as key/value
 * entries (see store-data.ts). `site serve` runs it over the entries held in memory (resolve.ts);
 * the build bundles this very module into the CloudFront functions, which run it over the same
 * entries read from the CloudFront KeyValueStore. So it must stay self-contained: no imports, no
 * Node APIs, only syntax CloudFront's JavaScript runtime 2.0 accepts.
 *
 * The entries: under each page's URL ('/about') the value 'page'; under each redirected path its
 * status and target ('301 /services/data-visualisation'); under RULES_KEY, which no path can be,
 * the not-found page and the fallbacks for unknown paths, as JSON.
 */

export interface Fallback { prefix: string; redirect?: string; file?: string; status: number }

/** What holds for every path: the not-found page's file, and how unknown paths under a prefix are answered. */
export interface Rules {
  notFound: string;
  fallbacks: Fallback[];
  /**
   * With a content manager on a host name of its own: the site's host and the manager's. The
   * manager's host answers /admin and the site's assets (its previews draw with them), and sends
   * every other path to the same path on the site's host; any other host sends /admin to the
   * manager's. So no page, nor any script a page brings, ever runs on the origin that holds the
   * manager's sign-in token.
   */
  hosts?: { site: string; cms: string };
}

export type Resolution =
  | { kind: 'file'; file: string; status: number }
  | { kind: 'redirect'; location: string; status: number }
  | { kind: 'bad-request'; status: 400 };

/** The value a page's URL holds. */
export var PAGE = 'page';
/** The key of the rules: no path, since every path begins with '/'. */
export var RULES_KEY = 'rules';

/**
 * A pull request's preview answers on a host of its own, 'pr-<n>.<preview domain>'; its routing
 * entries are the build's, each key behind '<preview>:' ('pr-12:/about', 'pr-12:rules'), and its
 * files are under '/<preview>/' in its bucket. No other host can be it: the site's host names are
 * refused if they look like one (infra/lib/settings.ts).
 */
export var PREVIEW_HOST = /^(pr-[1-9][0-9]{0,8})\./;

/** The preview a Host names ('pr-12'), or '' for any other host. */
export function previewOf(host: string | undefined): string {
  var m = PREVIEW_HOST.exec((host || '').toLowerCase());
  return m ? m[1]! : '';
}

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

/** The value a redirect's path holds: '301 /to'. */
export function redirectValue(to: string, status: number): string {
  return status + ' ' + to;
}

/** `path` with repeated slashes collapsed, trailing slashes and a trailing '/index.html' dropped (undefined when it is no path the site answers). */
function tidy(path: string): string | undefined {
  if (!PATH_TARGET.test(path)) return undefined;
  // Collapse repeated slashes first: '//evil.example/' must never become a protocol-relative redirect.
  var clean = path.replace(/\/{2,}/g, '/');
  if (clean.length > 1 && clean.charAt(clean.length - 1) === '/') clean = clean.replace(/\/+$/, '') || '/';
  // Each page has one URL. Its file's name is another way to it, and so is the folder layout that
  // builds used to write ('/about/index.html'), which old bookmarks and shared links may still name.
  if (clean.length > 11 && clean.slice(-11) === '/index.html') clean = clean.slice(0, -11);
  else if (clean === '/index.html') clean = '/';
  return clean;
}

/**
 * The keys whose entries the answer for `path` can depend on, besides RULES_KEY: the page that a
 * '.html' name may be the file of, and the path itself. The CloudFront functions read these and
 * no others.
 */
export function keysFor(path: string): string[] {
  var clean = tidy(path);
  if (clean === undefined) return [];
  var keys = [];
  // As answer() reads it: '/.html' and '/index.html' name no page ('' is no key, '/' is never asked).
  if (clean.slice(-5) === '.html' && clean.length > 6) keys.push(clean.slice(0, -5));
  // A path that is tidied is redirected, whatever it holds.
  if (clean === path) keys.push(path);
  return keys;
}

/** Whether `path` (tidied) is the content manager's: its page, bundle and config. */
function isAdmin(path: string): boolean {
  return path === '/admin' || path.indexOf('/admin/') === 0;
}

/**
 * The answer for `path`, given the rules and `entry`, the value under a key of keysFor(path)
 * (undefined where the key holds nothing); `host`, the Host the request named (see Rules.hosts).
 */
export function answer(path: string, rules: Rules, entry: (key: string) => string | undefined, host?: string): Resolution {
  var clean = tidy(path);
  if (clean === undefined) return { kind: 'bad-request', status: 400 };
  var hosts = rules.hosts;
  if (hosts && host !== undefined) {
    var name = host.toLowerCase().replace(/:\d+$/, '');
    if (name === hosts.cms) {
      if (!isAdmin(clean) && clean.indexOf('/assets/') !== 0) return { kind: 'redirect', location: 'https://' + hosts.site + clean, status: 301 };
    } else if (isAdmin(clean)) {
      return { kind: 'redirect', location: 'https://' + hosts.cms + clean, status: 301 };
    }
  }
  // '/about.html' names the page '/about'; '/404.html' no page, '/.html' not the home page.
  if (clean.slice(-5) === '.html') {
    var base = clean.slice(0, -5);
    if (base !== '/' && entry(base) === PAGE) clean = base;
  }
  if (clean !== path) return { kind: 'redirect', location: clean, status: 301 };

  // The error pages' own files answer with their status too, however they are reached.
  if (path === rules.notFound) return { kind: 'file', file: path, status: 404 };
  for (var j = 0; j < rules.fallbacks.length; j++) {
    var e = rules.fallbacks[j]!;
    if (e.file && path === e.file) return { kind: 'file', file: path, status: e.status };
  }

  var value = entry(path);
  if (value === PAGE) return { kind: 'file', file: pageFile(path), status: 200 };
  var redirect = value === undefined ? null : /^(30[1278]) (\/.*|[a-z][a-z0-9+.-]*:.*)$/i.exec(value);
  if (redirect) return { kind: 'redirect', location: redirect[2]!, status: Number(redirect[1]) };

  var last = path.slice(path.lastIndexOf('/') + 1);
  if (last.indexOf('.') !== -1) return { kind: 'file', file: path, status: 200 };

  for (var i = 0; i < rules.fallbacks.length; i++) {
    var f = rules.fallbacks[i]!;
    if (path.indexOf(f.prefix) === 0 && path.length > f.prefix.length) {
      if (f.redirect) return { kind: 'redirect', location: f.redirect, status: f.status };
      if (f.file) return { kind: 'file', file: f.file, status: f.status };
    }
  }
  return { kind: 'file', file: rules.notFound, status: 404 };
}
