// Which CloudFront paths a deploy invalidates. The edge caches by the path the viewer-request
// function rewrote to (/about → /about/index.html), and a viewer may also have asked for the
// file itself, so a page invalidates both. New hashed assets were never cached; old ones are
// unreferenced once their pages are invalidated, so neither needs a path.
import { isHashedAsset } from '../routing/cache-control.ts';

/** Past this many paths one wildcard is cheaper (each path counts against the monthly quota). */
export const MAX_INVALIDATION_PATHS = 50;

/** '/about/index.html' and '/about' for 'about/index.html'; '/index.html' and '/' for the home page. */
export function pathsForKey(key: string): string[] {
  if (key === 'index.html') return ['/', '/index.html'];
  if (key.endsWith('/index.html')) return [`/${key.slice(0, -'/index.html'.length)}`, `/${key}`];
  return [`/${key}`];
}

export function invalidationPaths(changedKeys: readonly string[], max = MAX_INVALIDATION_PATHS): string[] {
  const paths = new Set<string>();
  for (const key of changedKeys) {
    if (isHashedAsset(key)) continue;
    for (const p of pathsForKey(key)) paths.add(encodeURI(p));
  }
  if (paths.size > max) return ['/*'];
  return [...paths].sort();
}
