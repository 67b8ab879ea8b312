import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CardJob } from './plan.ts';

export interface BuiltCards {
  /** Public URL (/og/…png) → the cached file holding it, to copy into dist/. */
  files: Map<string, string>;
  /** Cards drawn by this build, and those found in the cache. */
  drawn: number;
  reused: number;
  /** The bytes of the cards drawn (the cache's are not looked at again). */
  bytes: number;
}

/**
 * The cards stage: each card from .site-cache/cards/<key>.png when there, else drawn by `draw` and
 * stored there. The key is a hash of everything drawn, so a build with nothing changed draws none.
 */
export async function buildCards(jobs: CardJob[], cacheDir: string, draw: (missing: CardJob[], each: (job: CardJob, png: Uint8Array) => Promise<void>) => Promise<void>): Promise<BuiltCards> {
  const dir = path.join(cacheDir, 'cards');
  await mkdir(dir, { recursive: true });
  const fileOf = (job: CardJob) => path.join(dir, `${job.key}.png`);
  const files = new Map<string, string>();
  const missing: CardJob[] = [];
  // One listing, not a look-up per card: a warm build of a large site asks the disk once.
  const have = new Set(await readdir(dir));
  for (const job of jobs) {
    if (have.has(`${job.key}.png`)) files.set(job.url, fileOf(job));
    else missing.push(job);
  }
  let bytes = 0;
  if (missing.length) {
    await draw(missing, async (job, png) => {
      // Written under a temporary name, then renamed: a build stopped half-way leaves no half card.
      const tmp = `${fileOf(job)}.${process.pid}.tmp`;
      await writeFile(tmp, png);
      bytes += png.byteLength;
      await rename(tmp, fileOf(job));
      files.set(job.url, fileOf(job));
    });
  }
  return { files, drawn: missing.length, reused: jobs.length - missing.length, bytes };
}

/**
 * On a build with no cards drawn yet (a fresh checkout, CI), satori's module is loaded at once, in
 * the gaps while the content loads and esbuild bundles, rather than after. The drawing code then
 * finds it loaded (one module per file, whoever imports it). A build with cards cached loads nothing.
 */
export async function preloadDrawing(cacheDir: string): Promise<void> {
  const cached = await readdir(path.join(cacheDir, 'cards')).catch(() => [] as string[]);
  if (cached.length) return;
  await import('satori').catch(() => { /* the cards stage reports it */ });
}
