import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CardJob } from './plan.ts';
import { cardEngine } from './engine.ts';

export interface BuiltCards {
  /** Public URL (/og/…png) → the cached file holding it, to copy into dist/. */
  files: Map<string, string>;
  /** Public URL → the SHA-256 of the card's bytes, where the cache knows it (see `buildCards`). */
  digests: Map<string, string>;
  /** Cards drawn by this build, and those found in the cache. */
  drawn: number;
  reused: number;
  /** The bytes of the cards drawn (the cache's are not looked at again). */
  bytes: number;
}

/**
 * The cards stage: each card from .site-cache/cards/<key>.<sha256>.png when there, else drawn by `draw` and
 * stored there. The key is a hash of everything drawn, so a build with nothing changed draws none.
 */
export async function buildCards(jobs: CardJob[], cacheDir: string, draw: (missing: CardJob[], each: (job: CardJob, png: Uint8Array) => Promise<void>) => Promise<void>): Promise<BuiltCards> {
  const dir = path.join(cacheDir, 'cards');
  await mkdir(dir, { recursive: true });
  const files = new Map<string, string>();
  const digests = new Map<string, string>();
  // One listing, not a look-up per card: a warm build of a large site asks the disk once.
  const cached = cachedCards(await readdir(dir));
  const missing: CardJob[] = [];
  for (const job of jobs) {
    const found = cached.get(job.key);
    if (!found) { missing.push(job); continue; }
    files.set(job.url, path.join(dir, found.name));
    if (found.sha256) digests.set(job.url, found.sha256);
  }
  let bytes = 0;
  if (missing.length) {
    await draw(missing, async (job, png) => {
      const sha256 = createHash('sha256').update(png).digest('hex');
      const file = path.join(dir, `${job.key}.${sha256}.png`);
      // Written under a temporary name, then renamed: a build stopped half-way leaves no half card.
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, png);
      bytes += png.byteLength;
      await rename(tmp, file);
      files.set(job.url, file);
      digests.set(job.url, sha256);
    });
  }
  return { files, digests, drawn: missing.length, reused: jobs.length - missing.length, bytes };
}

/**
 * The cache's cards by key: `<key>.<sha256>.png`, the SHA-256 of its bytes in its name, so that the
 * completion manifest, which lists every file's, need not read ten thousand cards to hash them (half
 * a gigabyte, most of a second of the main thread, on a large blog); `<key>.png`, as earlier versions
 * wrote them, is still taken (and hashed when written into the output).
 */
function cachedCards(names: string[]): Map<string, { name: string; sha256?: string }> {
  const cards = new Map<string, { name: string; sha256?: string }>();
  for (const name of names) {
    const match = /^([0-9a-f]{64})(?:\.([0-9a-f]{64}))?\.png$/.exec(name);
    if (match && !(match[2] === undefined && cards.has(match[1]!))) cards.set(match[1]!, { name, ...(match[2] ? { sha256: match[2] } : {}) });
  }
  return cards;
}

/**
 * On a build with no cards drawn yet (a fresh checkout, CI), the drawing engine (takumi, its fonts
 * registered) is made at once, in the gaps while the content loads and esbuild bundles, rather than
 * after. The drawing code then finds it made (see engine.ts). A build with cards cached makes nothing.
 */
export async function preloadDrawing(cacheDir: string): Promise<void> {
  const cached = await readdir(path.join(cacheDir, 'cards')).catch(() => [] as string[]);
  if (cached.length) return;
  await cardEngine().catch(() => { /* the cards stage reports it */ });
}
