import { createHash } from 'node:crypto';
import { renameSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { CardJob } from './plan.ts';
import { UNUSED_MS, type Pruned } from '../images/prune.ts';
import { writeBeside } from '../temp-file.ts';

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

/** Which cards the cache's folder holds (by public URL, with their bytes' digests where known) and which are to be drawn into it. */
export interface CardLookup { dir: string; files: Map<string, string>; digests: Map<string, string>; missing: CardJob[] }

type Draw = (missing: CardJob[], each: (job: CardJob, png: Uint8Array) => Promise<void>) => Promise<void>;

/**
 * The cards stage: each card from .site/cache/cards/<generation>/<key>.<sha256>.png when there, else
 * drawn by `draw` and stored there. The key is a hash of everything drawn, so a build with nothing
 * changed draws none. `generation` names the code that draws them (the card template, its fonts and
 * the engine): each change of it starts a folder, and the cards of the folders no build has used for
 * a while are deleted (see `pruneCardCache`). In one folder, a rebuild lists only its own cards.
 * The build takes the two steps apart: the cards looked up before the pages render, so that cached
 * ones are written beside the pages, and the missing drawn while they render.
 */
export async function buildCards(jobs: CardJob[], cacheDir: string, generation: string, draw: Draw): Promise<BuiltCards> {
  return drawMissingCards(await lookUpCards(jobs, cacheDir, generation), draw);
}

/** Each job's card in the folder of `generation`'s cards (made if need be, and marked as used now), or missing. */
export async function lookUpCards(jobs: CardJob[], cacheDir: string, generation: string): Promise<CardLookup> {
  const cards = path.join(cacheDir, 'cards');
  const dir = path.join(cards, generation);
  await mkdir(dir, { recursive: true });
  // Its time is when a build last used it.
  const now = new Date();
  await utimes(dir, now, now);
  const files = new Map<string, string>();
  const digests = new Map<string, string>();
  // One listing, not a look-up per card: a warm build of a large site asks the disk once.
  const names = await readdir(dir);
  // A new folder takes the cards an earlier version kept in cards/ itself, where its keys name them.
  if (!names.length) names.push(...await adoptFlatCards(cards, dir, new Set(jobs.map((job) => job.key))));
  const cached = cachedCards(names);
  const missing: CardJob[] = [];
  // A file name joined as it is: ten thousand path.join calls cost a large blog's rebuild 10 ms.
  const inDir = dir + path.sep;
  for (const job of jobs) {
    const found = cached.get(job.key);
    if (!found) { missing.push(job); continue; }
    files.set(job.url, inDir + found.name);
    if (found.sha256) digests.set(job.url, found.sha256);
  }
  return { dir, files, digests, missing };
}

/** The cards `lookup` found missing, drawn by `draw` and stored in its folder: with the cached ones, every card of the build. */
export async function drawMissingCards(lookup: CardLookup, draw: Draw): Promise<BuiltCards> {
  const { dir, files, digests, missing } = lookup;
  const reused = files.size;
  let bytes = 0;
  if (missing.length) {
    await draw(missing, async (job, png) => {
      const sha256 = createHash('sha256').update(png).digest('hex');
      const file = path.join(dir, `${job.key}.${sha256}.png`);
      // Written under a temporary name, then renamed: a build stopped half-way leaves no half card.
      await writeBeside(file, png);
      bytes += png.byteLength;
      files.set(job.url, file);
      digests.set(job.url, sha256);
    });
  }
  return { files, digests, drawn: missing.length, reused, bytes };
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
    // Tested, then cut at known places: a match's captures for each of ten thousand names cost a rebuild 10 ms.
    if (NAMED.test(name)) cards.set(name.slice(0, 64), { name, sha256: name.slice(65, 129) });
    else if (OLDER.test(name) && !cards.has(name.slice(0, 64))) cards.set(name.slice(0, 64), { name });
  }
  return cards;
}
const NAMED = /^[0-9a-f]{64}\.[0-9a-f]{64}\.png$/;
const OLDER = /^[0-9a-f]{64}\.png$/;

/** Moves the cards kept loose in `cards` by earlier versions (no folder per version) whose keys are `wanted` into `dir`; their names. */
async function adoptFlatCards(cards: string, dir: string, wanted: Set<string>): Promise<string[]> {
  const adopted: string[] = [];
  for (const [key, { name }] of cachedCards(await readdir(cards))) {
    if (wanted.has(key) && await rename(path.join(cards, name), path.join(dir, name)).then(() => true, () => false)) adopted.push(name);
  }
  return adopted;
}

/** Where the cards left loose by earlier versions go, to be pruned as a version's folder is (see pruneCardCache). */
const EARLIER = 'earlier';

/**
 * Bounds .site/cache/cards/, which otherwise grows by a card for every page at each change of the
 * card template: deletes each folder of cards that no build has used for UNUSED_DAYS (by its time,
 * which each build that uses it sets), as the image cache does, `generation` aside.
 */
export async function pruneCardCache(cacheDir: string, generation: string, now = Date.now()): Promise<Pruned> {
  const cards = path.join(cacheDir, 'cards');
  const entries = await readdir(cards, { withFileTypes: true }).catch(() => []);
  // Loose cards (an earlier version's, that no build took) into a folder of their own, once: one look
  // at a folder next time, not one at each of ten thousand cards (synchronously: as many renames).
  const loose = entries.filter((e) => !e.isDirectory()).map((e) => e.name);
  if (loose.length) {
    await mkdir(path.join(cards, EARLIER), { recursive: true });
    for (const name of loose) { try { renameSync(path.join(cards, name), path.join(cards, EARLIER, name)); } catch { /* gone since */ } }
  }
  const pruned: Pruned = { files: 0, bytes: 0 };
  for (const name of new Set([...entries.filter((e) => e.isDirectory()).map((e) => e.name), ...(loose.length ? [EARLIER] : [])])) {
    if (name === generation) continue;
    const folder = path.join(cards, name);
    const info = await stat(folder).catch(() => undefined);
    if (!info || now - info.mtimeMs <= UNUSED_MS) continue;
    for (const file of await readdir(folder).catch(() => [] as string[])) { pruned.files++; pruned.bytes += (await stat(path.join(folder, file)).catch(() => undefined))?.size ?? 0; }
    await rm(folder, { recursive: true, force: true });
  }
  return pruned;
}

/** The cache folder of the cards drawn by one version of the card code (`cardsCode`, hashed from its code, fonts and engine). */
export const cardsGeneration = (cardsCode: string) => cardsCode.slice(0, 16);
