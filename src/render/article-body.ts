import type { Route } from '../routes/table.ts';
import { keptBody, markedKey, type KeptBody } from '../body-marker.ts';

/** An article's route holds the marker of its body (see body-marker.ts); here the body and its contents list are put back for the thread that renders it. */
const postOf = (route: Route) => (route.props as { post?: { html?: unknown } } | undefined)?.post;

/** The key of the body a route's page needs from the cache, if its props hold a marker. */
export const routeBodyKey = (route: Route): string | undefined => markedKey(postOf(route)?.html);

/** A kept body from its bytes in the pack, or undefined if they are not one. */
export const decodeKeptBody = (bytes: Uint8Array): KeptBody | undefined => {
  try {
    return keptBody(JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')));
  } catch {
    return undefined;
  }
};

/**
 * The route as its template must see it: unchanged if it holds no marker; else a copy with the
 * body and its table of contents put back (the site's own route is shared, and stays as it is); undefined if the body's bytes
 * are missing or are not a body (a damaged cache), so that the marker can never reach a page.
 */
export function withBody(route: Route, bytes: Uint8Array | undefined): Route | undefined {
  const post = postOf(route);
  if (markedKey(post?.html) === undefined) return route;
  const kept = bytes && decodeKeptBody(bytes);
  if (!kept) return undefined;
  return { ...route, props: { ...(route.props as object), post: { ...post, html: kept.html, toc: kept.toc } } } as Route;
}
