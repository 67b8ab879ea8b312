// The `prune` stage: the caches kept to what the build just used, and what older versions left in
// .site/cache/ removed. Last, once every other stage has passed.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { BuildSession } from './session.ts';
import { CACHE_DIR } from '../output/layout.ts';
import { pruneCardCache } from '../cards/card-cache.ts';
import { pruneImageCache } from '../images/prune.ts';
import type { BuildSummary } from '../measure/summary.ts';

/** `prune`, once the build has succeeded: a cache that cannot be pruned costs disk space, not the build. */
export async function pruneStage(run: { root: string; cacheDir: string; session?: BuildSession; warn: (line: string) => void }, imageFiles: Map<string, string>, cards: string, summary: BuildSummary): Promise<void> {
  const unpruned = (error: unknown) => { run.warn(`warning: ${CACHE_DIR}/ not pruned: ${error instanceof Error ? error.message : String(error)}`); return undefined; };
  if (!run.session?.pruned) {
    summary.images.pruned = await pruneImageCache(path.join(run.cacheDir, 'images'), new Set(imageFiles.values())).catch(unpruned);
    const prunedCards = await pruneCardCache(run.cacheDir, cards).catch(unpruned);
    if (summary.cards && prunedCards) summary.cards.pruned = prunedCards;
  }
  if (run.session) run.session.pruned = true;
  // Where older versions kept one file list per output folder, each folder ever built (a test's, say) adding one: the lists now live in the folder's trees.
  await rm(path.join(run.root, CACHE_DIR, 'dist'), { recursive: true, force: true }).catch(unpruned);
  // Where older versions kept a second copy of every rendered page: the documents in the output are that copy now.
  await Promise.all(['pages.pack', 'pages.pack.index'].map((name) => rm(path.join(run.root, CACHE_DIR, name), { force: true }))).catch(unpruned);
}
