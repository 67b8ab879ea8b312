/**
 * What a project copy made with `seeded` (tests/scratch-project.ts, fixture-project.ts) takes from
 * the unit tests' seed, one clean build of such a copy made once per run (seed-setup.ts): what the
 * copy's first build would otherwise make again, the same. That is the build's bundled code and the
 * site's scripts and styles (esbuild's records and their output), the share cards and image variants
 * of the content every copy starts with, and the record of the CloudFront functions' check in njs.
 * Each is keyed on what it was made from, so a copy whose code or content differs makes its own, as
 * any build would. Not the content's records (the packs, the sources' index): a seeded copy's first
 * build is still a clean one that reads, checks and renders every article.
 *
 * Why: a copy's first build spent some 2 CPU-seconds on these (esbuild, the card process and its
 * spawn from a test worker holding hundreds of megabytes, njs) and a second of wall time. The files
 * about those caches themselves (bundle-cache, the cards, the pool, the images' prune, settled) make
 * their copies unseeded.
 */
import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';
import { CACHE_DIR } from '../../src/output/layout.ts';

/** The cache entries a seed lends (see above). */
const LENT = new Set(['bundle-code.json', 'bundle-assets.json', 'bundle-cdn-rule-script.json', 'page-templates.mjs', 'cards', 'images', 'njs-check.json']);
const lent = (name: string) => LENT.has(name) || name.startsWith('code-');

/**
 * The seed's entries copied into the cache of the project at `root`. Without a seed (a file run
 * by a configuration without the set-up) the copy makes its own: slower, never different.
 */
export async function seedCache(root: string): Promise<void> {
  const from = inject('seedCache');
  if (!from) return;
  for (const name of await readdir(from)) {
    if (lent(name)) await cp(path.join(from, name), path.join(root, CACHE_DIR, name), { recursive: true });
  }
}

declare module 'vitest' {
  export interface ProvidedContext { seedCache?: string }
}
