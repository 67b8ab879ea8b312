// The clean that the benchmarks start from (scripts/bench.mjs, scripts/bench-render-floor.mjs).
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Everything a build made, gone (dist and .site/: the output trees, the deploy folder, the build cache), but the share cards it drew:
 * the next build is a clean one that finds every card in the cache, as a build does once the site has
 * been built before. Cards are the one thing Eleventy does not make at all. `keepCode`: the bundled
 * code stays too (the build's own code and the site's scripts and styles, esbuild's two bundles),
 * which a build takes from the cache while every file it was bundled from is unchanged.
 */
const isCode = (name) => name.startsWith('code-') || /^bundle-.*\.json$/.test(name);
export async function cleanBuiltKeepingCards(root, keepCode = false) {
  // The names src/output/layout.ts gives (this script runs without compiling TypeScript).
  const family = path.join(root, '.site');
  await rm(path.join(root, 'dist'), { recursive: true, force: true });
  for (const part of await readdir(family).catch(() => [])) if (part !== 'cache') await rm(path.join(family, part), { recursive: true, force: true });
  const cache = path.join(family, 'cache');
  for (const name of await readdir(cache).catch(() => [])) if (name !== 'cards' && !(keepCode && isCode(name))) await rm(path.join(cache, name), { recursive: true, force: true });
}
