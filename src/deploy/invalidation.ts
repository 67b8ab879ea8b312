// Which CloudFront paths a deploy invalidates. The edge caches by the path the viewer-request
// function rewrote to (/about → /about.html), and a viewer may also have asked for the URL
// itself, so a page invalidates both. A key of the folder layout builds used to write
// (about/index.html, deleted by the first deploy of the new one) invalidates its URL and file
// alike. New hashed assets were never cached; old ones are unreferenced once their pages are
// invalidated, so neither needs a path.
import { isHashedAsset } from '../url-resolution/cache-control.ts';

/** Past this many paths one wildcard is cheaper (each path counts against the monthly quota). */
export const MAX_INVALIDATION_PATHS = 50;

/**
 * '/about' and '/about.html' for 'about.html' (and for 'about/index.html', the old layout's);
 * '/' and '/index.html' for the home page; only '/404.html' for an error page's file, which is
 * answered at its own name and at unknown URLs, never at '/404'.
 */
export function pathsForKey(key: string): string[] {
  if (key === 'index.html') return ['/', '/index.html'];
  if (key.endsWith('/index.html')) return [`/${key.slice(0, -'/index.html'.length)}`, `/${key}`];
  if (key.endsWith('.html') && key !== '404.html' && !key.endsWith('/404.html')) return [`/${key.slice(0, -'.html'.length)}`, `/${key}`];
  return [`/${key}`];
}

/** The paths of the changed keys, with `also` (paths an earlier, unfinished deploy was to invalidate); past `max` of them, '/*'. */
export function invalidationPaths(changedKeys: readonly string[], max = MAX_INVALIDATION_PATHS, also: readonly string[] = []): string[] {
  const paths = new Set<string>(also);
  if (paths.has('/*')) return ['/*'];
  for (const key of changedKeys) {
    if (isHashedAsset(key)) continue;
    for (const p of pathsForKey(key)) paths.add(encodeURI(p));
  }
  if (paths.size > max) return ['/*'];
  return [...paths].sort();
}
