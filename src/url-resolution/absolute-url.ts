/** The slow path: the WHATWG URL parser, for any path and any site URL. */
function parsed(siteUrl: string, path: string): string {
  const url = new URL(path, siteUrl).href;
  return path === '/' ? url : url.replace(/\/$/, '');
}

/**
 * A path the URL parser would copy as it is: segments of unreserved characters, none of them empty
 * or starting with a dot (so no '.' or '..' to resolve), no query, fragment or percent escape.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/;

/** Each site URL's origin, when it is an origin alone (`https://host`, `https://host/`): a plain path then only follows it. */
const origins = new Map<string, string | null>();

function originOf(siteUrl: string): string | null {
  let origin = origins.get(siteUrl);
  if (origin === undefined) {
    try {
      const url = new URL(siteUrl);
      origin = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password && url.origin !== 'null' ? url.origin : null;
    } catch {
      origin = null;
    }
    if (origins.size < 100) origins.set(siteUrl, origin);
  }
  return origin;
}

/**
 * A site path as an absolute address under the site's URL, without the trailing slash our URLs never
 * carry. A large blog asks for tens of thousands (structured data, share links, the sitemap): a plain
 * path under an origin is joined as text, which is what the parser would make of it
 * (tests/url-resolution/absolute-url.test.ts holds the two together); anything else goes through the parser.
 */
export function absoluteUrl(siteUrl: string, path: string): string {
  const origin = PLAIN_PATH.test(path) ? originOf(siteUrl) : null;
  if (origin === null) return parsed(siteUrl, path);
  return path === '/' || !path.endsWith('/') ? origin + path : origin + path.slice(0, -1);
}
