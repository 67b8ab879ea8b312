import type { Route } from '../routes/table.ts';

/**
 * An article's body HTML lives in the build cache (.site-cache/bodies.pack), not in the main
 * thread's memory: the parsed article, and so its route's props, hold this marker instead, naming
 * the markdown key the body was made from. A page's key is worked out from the route with the marker
 * in it, which names the body as surely as the HTML would (the parse is a pure function of what the
 * key holds). The HTML is put back only in a copy of the route handed to the thread that renders it.
 *
 * It starts with U+0000, which our markdown renderer never writes (CommonMark turns it into U+FFFD):
 * no real body can be taken for a marker.
 */
const MARKER = '\u0000body:';

export const bodyMarker = (key: string): string => `${MARKER}${key}`;

/** The key a marker names, or undefined for anything else (real HTML). */
export const markedKey = (html: unknown): string | undefined =>
  typeof html === 'string' && html.startsWith(MARKER) ? html.slice(MARKER.length) : undefined;

const postOf = (route: Route) => (route.props as { post?: { html?: unknown } } | undefined)?.post;

/** The key of the body a route's page needs from the cache, if its props hold a marker. */
export const routeBodyKey = (route: Route): string | undefined => markedKey(postOf(route)?.html);

const decodeBody = (bytes: Uint8Array): string | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    return typeof value === 'string' && markedKey(value) === undefined ? value : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The route as its template must see it: unchanged if it holds no marker; else a copy with the
 * body put back (the site's own route is shared, and stays as it is); undefined if the body's bytes
 * are missing or are not a body (a damaged cache), so that the marker can never reach a page.
 */
export function withBody(route: Route, bytes: Uint8Array | undefined): Route | undefined {
  const post = postOf(route);
  if (markedKey(post?.html) === undefined) return route;
  const html = bytes && decodeBody(bytes);
  if (html === undefined) return undefined;
  return { ...route, props: { ...(route.props as object), post: { ...post, html } } } as Route;
}
