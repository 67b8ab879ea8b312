import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCards } from '../../src/cards/card-cache.ts';
import type { CardJob } from '../../src/cards/plan.ts';

let cacheDir: string;
beforeAll(async () => { cacheDir = await mkdtemp(path.join(os.tmpdir(), 'card-stage-')); });
afterAll(async () => { await rm(cacheDir, { recursive: true, force: true }); });

const key = (n: number) => createHash('sha256').update(`card ${n}`).digest('hex');
const job = (n: number) => ({ key: key(n), url: `/og/page-${n}-${key(n).slice(0, 12)}.png` }) as CardJob;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const png = (n: number) => new Uint8Array(Buffer.from(`not really a PNG, number ${n}`));

describe('the cards stage and its cache', () => {
  it("draws what the cache lacks, keeps it under its key and its bytes' SHA-256, and takes it from there next time", async () => {
    const drawn: string[] = [];
    const draw = async (missing: CardJob[], each: (job: CardJob, png: Uint8Array) => Promise<void>) => {
      for (const j of missing) { drawn.push(j.key); await each(j, png(Number(j.url.split('-')[1]))); }
    };
    const first = await buildCards([job(1), job(2)], cacheDir, draw);
    expect(first).toMatchObject({ drawn: 2, reused: 0 });
    expect((await readdir(path.join(cacheDir, 'cards'))).sort()).toEqual([`${key(1)}.${sha(png(1))}.png`, `${key(2)}.${sha(png(2))}.png`].sort());
    expect(first.digests.get(job(1).url)).toBe(sha(png(1)));

    const again = await buildCards([job(1), job(2)], cacheDir, draw);
    expect(again).toMatchObject({ drawn: 0, reused: 2 });
    expect(drawn).toHaveLength(2);
    expect(again.files).toEqual(first.files);
    expect(again.digests).toEqual(first.digests);
  });

  it('takes a card an earlier version kept as <key>.png, without a digest (it is hashed when written out)', async () => {
    await mkdir(path.join(cacheDir, 'cards'), { recursive: true });
    await writeFile(path.join(cacheDir, 'cards', `${key(3)}.png`), png(3));
    const built = await buildCards([job(3)], cacheDir, async () => { throw new Error('nothing to draw'); });
    expect(built).toMatchObject({ drawn: 0, reused: 1 });
    expect(built.files.get(job(3).url)).toBe(path.join(cacheDir, 'cards', `${key(3)}.png`));
    expect(built.digests.has(job(3).url)).toBe(false);
  });

  it("takes a card kept both ways by its digest's name, and nothing from a file of another name", async () => {
    const cards = path.join(cacheDir, 'cards');
    await mkdir(cards, { recursive: true });
    await writeFile(path.join(cards, `${key(4)}.png`), png(4));
    await writeFile(path.join(cards, `${key(4)}.${sha(png(4))}.png`), png(4));
    await writeFile(path.join(cards, `${key(5).toUpperCase()}.png`), png(5));
    await writeFile(path.join(cards, `${key(5)}.${sha(png(5))}.png.tmp`), png(5));
    const drawn: string[] = [];
    const built = await buildCards([job(4), job(5)], cacheDir, async (missing, each) => { for (const j of missing) { drawn.push(j.url); await each(j, png(5)); } });
    expect(built.files.get(job(4).url)).toBe(path.join(cards, `${key(4)}.${sha(png(4))}.png`));
    expect(built.digests.get(job(4).url)).toBe(sha(png(4)));
    expect(drawn).toEqual([job(5).url]);
  });
});
