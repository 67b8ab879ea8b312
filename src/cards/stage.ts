import { access, mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { IO_CONCURRENCY, mapLimit } from '../concurrency.ts';
import path from 'node:path';
import type { CardJob } from './plan.ts';

export interface BuiltCards {
  /** Public URL (/og/…png) → the cached file holding it, to copy into dist/. */
  files: Map<string, string>;
  /** Cards drawn by this build, and those found in the cache. */
  drawn: number;
  reused: number;
  /** All the cards' bytes together. */
  bytes: number;
}

const exists = (file: string) => access(file).then(() => true, () => false);

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
  for (const job of jobs) {
    if (await exists(fileOf(job))) files.set(job.url, fileOf(job));
    else missing.push(job);
  }
  if (missing.length) {
    await draw(missing, async (job, png) => {
      // Written under a temporary name, then renamed: a build stopped half-way leaves no half card.
      const tmp = `${fileOf(job)}.${process.pid}.tmp`;
      await writeFile(tmp, png);
      await rename(tmp, fileOf(job));
      files.set(job.url, fileOf(job));
    });
  }
  const sizes = await mapLimit([...files.values()], IO_CONCURRENCY, async (file) => (await stat(file)).size);
  return { files, drawn: missing.length, reused: jobs.length - missing.length, bytes: sizes.reduce((a, b) => a + b, 0) };
}
