/** `.site/cache/images/` and `cards/` stay bounded: what no build has used for 30 days goes after a successful build. */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { formatSummary } from '../../src/measure/summary.ts';
import { LAST_USED_FILE, pruneImageCache } from '../../src/images/prune.ts';
import { fixtureProject, type FixtureProject } from '../support/fixture-project.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';

const DAY = 24 * 60 * 60 * 1000;
const made: string[] = [];
afterAll(async () => { for (const dir of made) await rm(dir, { recursive: true, force: true }); });

describe('pruning the image cache', () => {
  it('deletes what no build has used for 30 days, keeps what a build used since, and counts what it deleted', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'site-prune-'));
    made.push(dir);
    const now = Date.now();
    const file = async (name: string, bytes: number, ageDays: number) => {
      await writeFile(path.join(dir, name), Buffer.alloc(bytes));
      const at = new Date(now - ageDays * DAY);
      await utimes(path.join(dir, name), at, at);
      return path.join(dir, name);
    };
    const used = await file('used-old.avif', 10, 90);
    await file('unused-old.avif', 100, 31);
    await file('unused-recent.avif', 1000, 29);
    await file('unused-old-but-used-lately.webp', 10_000, 60);
    await file('stray.avif.123.tmp', 5, 1);
    await writeFile(path.join(dir, LAST_USED_FILE), JSON.stringify({ 'unused-old-but-used-lately.webp': now - 5 * DAY, 'unused-old.avif': now - 40 * DAY }));

    expect(await pruneImageCache(dir, new Set([used]), now)).toEqual({ files: 2, bytes: 105 });
    expect((await readdir(dir)).sort()).toEqual([LAST_USED_FILE, 'unused-old-but-used-lately.webp', 'unused-recent.avif', 'used-old.avif']);
    // The variant used now counts from now: thirty days on it is still there; 31 days on, unused, it goes.
    expect(await pruneImageCache(dir, new Set(), now + 30 * DAY)).toEqual({ files: 2, bytes: 11_000 });
    expect((await readdir(dir)).sort()).toEqual([LAST_USED_FILE, 'used-old.avif']);
    expect(await pruneImageCache(dir, new Set(), now + 31 * DAY)).toEqual({ files: 1, bytes: 10 });
  });
});

describe('a build', () => {
  let project: FixtureProject;
  afterAll(() => project?.remove());

  it('prunes the variants of a replaced image, and the cards of an older card template, once no build has used them for 30 days, and says so in its summary', async () => {
    project = await fixtureProject('site-prune-build-');
    made.push(project.root);
    const images = path.join(project.root, CACHE_DIR, 'images');
    const build = () => buildSite({ root: project.root, outDir: path.join(project.root, 'dist'), budgets: false, warn: () => {} });
    // An older version's record of an output folder: no longer used, and one more per folder ever built.
    await mkdir(path.join(project.root, CACHE_DIR, 'dist'), { recursive: true });
    await writeFile(path.join(project.root, CACHE_DIR, 'dist/0123456789abcdef.json'), '{}');

    await build();
    expect(existsSync(path.join(project.root, CACHE_DIR, 'dist'))).toBe(false);
    const variants = async () => (await readdir(images)).filter((f) => f !== LAST_USED_FILE).sort();
    const first = await variants();
    expect(first.length).toBeGreaterThan(0);

    // The share image replaced: its old variants are no longer used, but recent, so they stay.
    const png = path.join(project.root, 'content/images/og-default.png');
    const { width, height } = await sharp(png).metadata();
    await writeFile(png, await sharp({ create: { width: width!, height: height!, channels: 3, background: '#2a6f97' } }).png().toBuffer());
    const replaced = await build();
    expect(replaced.summary.images.pruned).toEqual({ files: 0, bytes: 0 });
    expect(formatSummary(replaced.summary)).not.toContain('image cache:');
    const second = await variants();
    // Nothing was deleted: the first build's variants are all still there beside the new ones.
    expect(second).toEqual(expect.arrayContaining(first));
    const now = second.filter((f) => !first.includes(f));
    expect(now.length).toBeGreaterThan(0);

    // Forty days on (the record and the files aged by hand), the old ones go and the summary says so.
    const lastUsed = JSON.parse(await readFile(path.join(images, LAST_USED_FILE), 'utf8')) as Record<string, number>;
    const aged = new Date(Date.now() - 40 * DAY);
    let bytes = 0;
    for (const f of first) {
      lastUsed[f] = aged.getTime();
      await utimes(path.join(images, f), aged, aged);
      bytes += (await stat(path.join(images, f))).size;
    }
    await writeFile(path.join(images, LAST_USED_FILE), JSON.stringify(lastUsed));
    // And the cards drawn by an earlier card template, in their own folder, as old.
    const oldCards = path.join(project.root, CACHE_DIR, 'cards/0000000000000000');
    await mkdir(oldCards, { recursive: true });
    await writeFile(path.join(oldCards, `${'a'.repeat(64)}.${'b'.repeat(64)}.png`), Buffer.alloc(1234));
    await utimes(oldCards, aged, aged);
    const pruned = await build();
    expect(pruned.summary.cards?.pruned).toEqual({ files: 1, bytes: 1234 });
    expect(existsSync(oldCards)).toBe(false);
    expect(formatSummary(pruned.summary)).toContain('card cache: 1 card (1.2 KB) no build had used for 30 days deleted from .site/cache/cards/');
    expect(pruned.summary.images.pruned).toEqual({ files: first.length, bytes });
    expect(formatSummary(pruned.summary)).toContain(`image cache: ${first.length} variant${first.length === 1 ? '' : 's'} (`);
    expect(formatSummary(pruned.summary)).toMatch(/no build had used for 30 days deleted from \.site\/cache\/images\//);
    expect(await variants()).toEqual(now.sort());
  }, 300_000);
});
