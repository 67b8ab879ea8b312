import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildResult } from '../../src/pipeline/build.ts';
import { formatSummary } from '../../src/measure/summary.ts';
import { BudgetError, parseBudgets } from '../../src/measure/budgets.ts';
import { photoHeroContent } from '../../quality/photo-fixture.ts';
import { candidates, orientedJpeg, pictures } from './fixtures.ts';
import { ENCODER_SETTINGS } from '../../src/images/encoder-settings.ts';
import { SLOTS } from '../../src/images/slots.ts';

const root = process.cwd();
let work: string;
let contentDir: string;
let photoBytes: number;
const outDir = () => path.join(work, 'dist');
const cacheDir = () => path.join(work, 'cache');
const build = (extra: Partial<Parameters<typeof buildSite>[0]> = {}) => buildSite({ root, contentDir, outDir: outDir(), cacheDir: cacheDir(), budgets: false, ...extra });
const page = (url: string) => readFile(path.join(outDir(), url === '/' ? 'index.html' : `${url.slice(1)}.html`), 'utf8');
const file = (url: string) => readFile(path.join(outDir(), url));

let first: BuildResult;
let firstFiles: Map<string, number>;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'site-images-'));
  ({ contentDir, photoBytes } = await photoHeroContent(root, work));
  // A portrait phone shot in an article body: stored sideways, with its orientation, camera and position in EXIF.
  await writeFile(path.join(contentDir, 'images/portrait.jpg'), await orientedJpeg());
  const article = path.join(contentDir, 'blog/what-is-data.md');
  await writeFile(article, `${await readFile(article, 'utf8')}\n![A sideways phone photo, turned upright](/images/portrait.jpg)\n`);
  first = await build();
  firstFiles = new Map(await Promise.all((await listImages()).map(async (f) => [f, (await file(f)).length] as const)));
}, 240_000);

afterAll(() => rm(work, { recursive: true, force: true }));

async function listImages(): Promise<string[]> {
  return (await readdir(path.join(outDir(), 'assets/images'))).map((f) => `/assets/images/${f}`).sort();
}

describe('a phone photo as the home hero', () => {
  it('becomes AVIF, WebP and JPEG at the hero widths, never wider than the source, each file what it says', async () => {
    expect(photoBytes).toBeGreaterThan(3 * 1024 * 1024);
    const hero = pictures(await page('/')).find((p) => p.img.class === 'hero__bg');
    expect(hero!.sources.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
    const sets = [...hero!.sources.map((s) => s.srcset!), hero!.img.srcset!];
    for (const set of sets) expect(candidates(set).map(([, w]) => w)).toEqual([480, 750, 1080, 1440, 1920]);
    for (const s of [...hero!.sources, hero!.img]) expect(s.sizes).toBe('100vw');
    expect(hero!.img).toMatchObject({ width: '1920', height: '1440', alt: 'Data analytics chart being analysed', decoding: 'async' });
    for (const [set, format] of [[sets[0]!, 'heif'], [sets[1]!, 'webp'], [sets[2]!, 'jpeg']] as const) {
      for (const [url, width] of candidates(set)) {
        const meta = await sharp(await file(url)).metadata();
        expect({ url, format: meta.format, width: meta.width, height: meta.height }).toEqual({ url, format, width, height: Math.round(width * 3 / 4) });
        if (format === 'heif') expect(meta.compression).toBe('av1');
      }
    }
  });

  it("is AVIF at the hero's own quality (it lies under the navy overlay): the phone's file about half what the default quality makes", async () => {
    const hero = pictures(await page('/')).find((p) => p.img.class === 'hero__bg')!;
    const [url] = candidates(hero.sources[0]!.srcset!).find(([, w]) => w === 750)!;
    const built = await file(url);
    const source = await readFile(path.join(contentDir, 'images/hero-photo.jpg'));
    const atDefault = await sharp(source).resize({ width: 750 }).avif(ENCODER_SETTINGS.avif).toBuffer();
    expect(SLOTS.hero.avifQuality).toBeLessThan(ENCODER_SETTINGS.avif.quality);
    expect(built.length).toBeLessThan(atDefault.length * 0.7);
    expect(built.length).toBeLessThanOrEqual(30 * 1024);
  });

  it('is preloaded as AVIF with the same srcset and sizes, eager at high priority; no other image is fetched', async () => {
    const html = await page('/');
    const preloads = [...html.matchAll(/<link rel="preload" as="image"[^>]*>/g)].map((m) => m[0]);
    expect(preloads).toHaveLength(1);
    const all = pictures(html);
    const hero = all.find((p) => p.img.class === 'hero__bg');
    const others = all.filter((p) => p !== hero);
    const avif = hero!.sources[0]!;
    expect(preloads[0]).toContain(`type="image/avif"`);
    expect(preloads[0]).toContain(`imagesrcset="${avif.srcset}"`);
    expect(preloads[0]).toContain(`imagesizes="${avif.sizes}"`);
    expect(preloads[0]).toContain('fetchpriority="high"');
    expect(preloads[0]).not.toContain('href=');
    // In <head>, before the stylesheet, so the image is asked for as early as the CSS.
    expect(html.indexOf(preloads[0]!)).toBeLessThan(html.indexOf('<link rel="stylesheet"'));
    expect(hero!.img.fetchpriority).toBe('high');
    expect(hero!.img.loading).toBeUndefined();
    // The page's other images are the logo (header and footer), which travels in the page (a data: URL): nothing else is fetched beside the hero.
    expect(others.map((p) => [p.img.width, p.img.src?.startsWith('data:image/svg+xml,'), p.img.loading])).toEqual([['40', true, undefined], ['40', true, undefined]]);
  });

  it('shares a 1200 × 630 card drawn with the photo on social sites, under 100 KB, not the 4 MB source', async () => {
    const html = await page('/');
    const ogImage = /property="og:image" content="https:\/\/[^/]+(\/og\/[^"]+)"/.exec(html)?.[1];
    const card = await file(ogImage!);
    const shared = await sharp(card).metadata();
    expect({ format: shared.format, width: shared.width, height: shared.height }).toEqual({ format: 'png', width: 1200, height: 630 });
    expect(card.byteLength).toBeLessThanOrEqual(100 * 1024);
    expect(html).toContain('property="og:image:width" content="1200"');
  });
});

describe('an image in a markdown body', () => {
  it('gets the same responsive <picture>, lazy, at the body widths the source allows', async () => {
    const body = pictures(await page('/blog/what-is-data')).find((p) => p.img.alt === 'A sideways phone photo, turned upright')!;
    expect(body.sources.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
    expect(body.img).toMatchObject({ width: '400', height: '600', loading: 'lazy', decoding: 'async', sizes: '(min-width: 794px) 754px, calc(100vw - 40px)' });
    // The source is 400 px wide once upright: no file is wider.
    for (const set of [...body.sources.map((s) => s.srcset!), body.img.srcset!]) expect(candidates(set).map(([, w]) => w)).toEqual([400]);
  });

  it('is turned upright by its EXIF orientation and keeps no metadata (no camera, no GPS position)', async () => {
    const source = await readFile(path.join(contentDir, 'images/portrait.jpg'));
    const before = await sharp(source).metadata();
    expect({ orientation: before.orientation, exif: Boolean(before.exif), camera: source.includes('FixtureCam') }).toEqual({ orientation: 6, exif: true, camera: true });
    const body = pictures(await page('/blog/what-is-data')).find((p) => p.img.alt?.startsWith('A sideways'))!;
    for (const url of [body.sources[0]!.srcset!, body.sources[1]!.srcset!, body.img.src!].map((s) => s.split(' ')[0]!)) {
      const bytes = await file(url);
      const meta = await sharp(bytes).metadata();
      expect({ url, width: meta.width, height: meta.height, orientation: meta.orientation, exif: meta.exif, xmp: meta.xmp, iptc: meta.iptc }).toEqual({ url, width: 400, height: 600, orientation: undefined, exif: undefined, xmp: undefined, iptc: undefined });
      expect(bytes.includes('FixtureCam')).toBe(false);
      expect(bytes.includes('Exif\0\0')).toBe(false);
      // Stored sideways with red on the left; upright, red is on top and blue below.
      const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
      const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
      expect(at(200, 100)[0]).toBeGreaterThan(150);
      expect(at(200, 100)[2]).toBeLessThan(70);
      expect(at(200, 500)[2]).toBeGreaterThan(150);
      expect(at(200, 500)[0]).toBeLessThan(70);
    }
  });
});

describe('the cache', () => {
  it('lets a rebuild with unchanged images do no image work and write the same files', async () => {
    // 15 hero files, the hero's and og-default's share files, 3 body files (the body JPEG doubles as the share file).
    expect(first.summary.images.processed).toBe(20);
    expect(first.summary.images.reused).toBe(0);
    const second = await build();
    expect(second.summary.images).toMatchObject({ processed: 0, reused: first.summary.images.processed });
    const again = new Map(await Promise.all((await listImages()).map(async (f) => [f, (await file(f)).length] as const)));
    expect(again).toEqual(firstFiles);
    const line = formatSummary(second.summary).split('\n').find((l) => l.startsWith('  images:'));
    expect(line).toMatch(/^  images: 3 raster sources \([\d.]+ MB\) → \d+ files \([\d.]+ [KM]B\): 0 processed, \d+ reused from the cache; [\d.]+ MB saved/);
  });

  it('makes again only what a changed source needs', async () => {
    await writeFile(path.join(contentDir, 'images/portrait.jpg'), await orientedJpeg(602, 400));
    const third = await build();
    // Three formats of its one body width; the JPEG is its share file too.
    expect(third.summary.images.processed).toBe(3);
    expect(third.summary.images.reused).toBe(first.summary.images.processed - 3);
  });
});

describe('budgets.json', () => {
  it('fails the build naming the page and the image when an image is over its slot limit or the page over its first-screen bytes', async () => {
    const budgets = parseBudgets(await readFile(path.join(root, 'budgets.json'), 'utf8'));
    budgets.images.largestFileKb.hero = 20;
    budgets.images.beforeInteractionKb = 5;
    const error = await build({ budgets }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetError);
    const lines = (error as BudgetError).lines.join('\n');
    expect(lines).toMatch(/^\/: image \/images\/hero-photo\.jpg \(hero slot\), largest file is [\d.]+ KB \(hero-photo-1920-\w+\.(avif|webp|jpg)\), over the budget of 20 KB$/m);
    expect(lines).toMatch(/^\/: images before interaction is [\d.]+ KB \(\/images\/hero-photo\.jpg as hero-photo-\d+-\w+\.avif, [\d.]+ KB\), over the budget of 5 KB$/m);
  });
});
