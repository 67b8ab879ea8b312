import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCards, pruneCardCache } from '../../src/cards/card-cache.ts';
import type { CardJob } from '../../src/cards/plan.ts';

let cacheDir: string;
beforeAll(async () => { cacheDir = await mkdtemp(path.join(os.tmpdir(), 'card-stage-')); });
afterAll(async () => { await rm(cacheDir, { recursive: true, force: true }); });

const key = (n: number) => createHash('sha256').update(`card ${n}`).digest('hex');
const job = (n: number) => ({ key: key(n), url: `/og/page-${n}-${key(n).slice(0, 12)}.png` }) as CardJob;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const png = (n: number) => new Uint8Array(Buffer.from(`not really a PNG, number ${n}`));
const GEN = 'a1b2c3d4e5f60718';
const cards = () => path.join(cacheDir, 'cards');
type Draw = (missing: CardJob[], each: (job: CardJob, png: Uint8Array) => Promise<void>) => Promise<void>;
const drawing = (drawn: string[]): Draw => async (missing, each) => {
  for (const j of missing) { drawn.push(j.url); await each(j, png(Number(j.url.split('-')[1]))); }
};
const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);

describe('the cards stage and its cache', () => {
  it("draws what the cache lacks, keeps it under its key and its bytes' SHA-256, and takes it from there next time", async () => {
    const drawn: string[] = [];
    const first = await buildCards([job(1), job(2)], cacheDir, GEN, drawing(drawn));
    expect(first).toMatchObject({ drawn: 2, reused: 0 });
    expect((await readdir(path.join(cards(), GEN))).sort()).toEqual([`${key(1)}.${sha(png(1))}.png`, `${key(2)}.${sha(png(2))}.png`].sort());
    expect(first.digests.get(job(1).url)).toBe(sha(png(1)));

    const again = await buildCards([job(1), job(2)], cacheDir, GEN, drawing(drawn));
    expect(again).toMatchObject({ drawn: 0, reused: 2 });
    expect(drawn).toHaveLength(2);
    expect(again.files).toEqual(first.files);
    expect(again.digests).toEqual(first.digests);
  });

  it('keeps the cards of each version of the card code in a folder of their own, and reads only its own', async () => {
    const drawn: string[] = [];
    const other = await buildCards([job(1)], cacheDir, 'ffffffffffffffff', drawing(drawn));
    expect(other).toMatchObject({ drawn: 1, reused: 0 });
    expect(other.files.get(job(1).url)).toBe(path.join(cards(), 'ffffffffffffffff', `${key(1)}.${sha(png(1))}.png`));
    expect(await readdir(path.join(cards(), GEN))).toHaveLength(2);
  });

  it('moves into a new folder the cards an earlier version kept loose in cards/, <key>.<sha256>.png or <key>.png, and nothing of another name', async () => {
    await mkdir(cards(), { recursive: true });
    await writeFile(path.join(cards(), `${key(3)}.png`), png(3));
    await writeFile(path.join(cards(), `${key(4)}.png`), png(4));
    await writeFile(path.join(cards(), `${key(4)}.${sha(png(4))}.png`), png(4));
    await writeFile(path.join(cards(), `${key(5).toUpperCase()}.png`), png(5));
    await writeFile(path.join(cards(), `${key(5)}.${sha(png(5))}.png.tmp`), png(5));
    const drawn: string[] = [];
    const generation = '0123456789abcdef';
    const built = await buildCards([job(3), job(4), job(5)], cacheDir, generation, drawing(drawn));
    expect(built).toMatchObject({ drawn: 1, reused: 2 });
    expect(drawn).toEqual([job(5).url]);
    // A card kept without its digest is taken as it is (it is hashed when written out); one kept both ways by its digest's name.
    expect(built.files.get(job(3).url)).toBe(path.join(cards(), generation, `${key(3)}.png`));
    expect(built.digests.has(job(3).url)).toBe(false);
    expect(built.files.get(job(4).url)).toBe(path.join(cards(), generation, `${key(4)}.${sha(png(4))}.png`));
    expect(built.digests.get(job(4).url)).toBe(sha(png(4)));
    // Moved, not copied; what was not taken stays where it was until it is pruned.
    const loose = (await readdir(cards())).filter((name) => name.endsWith('.png') || name.endsWith('.tmp'));
    expect(loose.sort()).toEqual([`${key(4)}.png`, `${key(5).toUpperCase()}.png`, `${key(5)}.${sha(png(5))}.png.tmp`].sort());
  });

  it('deletes the folders no build has used for 30 days, never the folder in use, gathers loose cards into one, and says how many cards and bytes', async () => {
    const drawn: string[] = [];
    await buildCards([job(6)], cacheDir, 'aaaaaaaaaaaaaaaa', drawing(drawn));
    await buildCards([job(7)], cacheDir, 'bbbbbbbbbbbbbbbb', drawing(drawn));
    const old = path.join(cards(), 'aaaaaaaaaaaaaaaa');
    const size = (await stat(path.join(old, (await readdir(old))[0]!))).size;
    await utimes(old, daysAgo(31), daysAgo(31));
    await utimes(path.join(cards(), 'bbbbbbbbbbbbbbbb'), daysAgo(29), daysAgo(29));
    await utimes(path.join(cards(), GEN), daysAgo(90), daysAgo(90));
    const loose = (await readdir(cards(), { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
    expect(loose.length).toBeGreaterThan(0);

    expect(await pruneCardCache(cacheDir, GEN)).toEqual({ files: 1, bytes: size });
    const left = await readdir(cards());
    expect(left.sort()).toEqual(['0123456789abcdef', GEN, 'bbbbbbbbbbbbbbbb', 'earlier', 'ffffffffffffffff'].sort());
    // The loose cards, an earlier version's that no build took, in a folder of their own, which goes as the others do.
    expect((await readdir(path.join(cards(), 'earlier'))).sort()).toEqual(loose.sort());
    const later = Date.now() + 31 * 24 * 60 * 60 * 1000;
    let others = 0;
    for (const name of left.filter((n) => n !== GEN)) others += (await readdir(path.join(cards(), name))).length;
    expect((await pruneCardCache(cacheDir, GEN, later)).files).toBe(others);
    expect(await readdir(cards())).toEqual([GEN]);

    // A build that uses a folder makes it recent again.
    await buildCards([job(1)], cacheDir, GEN, drawing(drawn));
    expect((await stat(path.join(cards(), GEN))).mtimeMs).toBeGreaterThan(daysAgo(1).getTime());
  });
});

describe('two builds drawing the same card at once', () => {
  it('both keep it: neither finds its temporary file taken by the other', async () => {
    const at = await mkdtemp(path.join(os.tmpdir(), 'card-race-'));
    try {
      // Both looked the cards up before either drew them, as site serve's live answer to a save and that save's build do.
      const jobs = [job(7), job(8)];
      const [a, b] = await Promise.all([buildCards(jobs, at, GEN, drawing([])), buildCards(jobs, at, GEN, drawing([]))]);
      expect(a.files).toEqual(b.files);
      expect((await readdir(path.join(at, 'cards', GEN))).sort()).toEqual([`${key(7)}.${sha(png(7))}.png`, `${key(8)}.${sha(png(8))}.png`].sort());
    } finally {
      await rm(at, { recursive: true, force: true });
    }
  });
});
