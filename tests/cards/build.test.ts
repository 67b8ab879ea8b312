/**
 * Share cards through a whole build of the site, in a temp project root: every page's og:image, the
 * files it names, the cache (a warm build draws none), check-links and serve's preview.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildResult } from '../../src/pipeline/build.ts';
import { checkLinksCommand } from '../../src/links/command.ts';
import { startServer } from '../../src/serve/server.ts';
import { CARD_MAX_BYTES } from '../../src/cards/draw.tsx';
import { SEAL_FILE } from '../../src/output/seal.ts';
import { fixtureProject, type FixtureProject } from '../support/fixture-project.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';

// 140 characters of UK English with an en dash, curly apostrophe, accents and an emoji the fonts lack.
const LONG_TITLE = 'Naïve Dashboards – Why Your Board’s Café-Table Metrics Mislead 🚀 and What a Data Strategy Built Upon Trustworthy, Governed Data Does Instead';

let project: FixtureProject;
let out: string;
let cold: BuildResult;
let warm: BuildResult;
let pages: Array<{ file: string; html: string }>;

const metaAll = (html: string, name: string) => [...html.matchAll(new RegExp(`<meta (?:property|name)="${name}" content="([^"]*)"`, 'g'))].map((m) => m[1]!.replaceAll('&amp;', '&'));
const localFile = (url: string) => path.join(out, new URL(url).pathname);

beforeAll(async () => {
  project = await fixtureProject('site-cards-');
  expect([...LONG_TITLE].length).toBe(140);
  await project.article('long-title', { title: LONG_TITLE, date: '2025-10-01', front: ['categories:', '  - Data Strategy'] });
  out = path.join(project.root, 'dist');
  const build = () => buildSite({ root: project.root, outDir: out, budgets: false, now: new Date('2026-06-01T12:00:00Z') });
  cold = await build();
  warm = await build();
  const files = (await readdir(out, { recursive: true })).filter((f) => f.endsWith('.html'));
  pages = await Promise.all(files.map(async (file) => ({ file, html: await readFile(path.join(out, file), 'utf8') })));
}, 240_000);
afterAll(() => project?.remove());

describe('share cards in a built site', () => {
  it('gives every page exactly one og:image: an absolute https URL of a 1200 × 630 PNG under 100 KB, described and sized in the head', async () => {
    expect(pages.length).toBe(cold.routes.length);
    const checked = new Set<string>();
    for (const { file, html } of pages) {
      const [image, ...more] = metaAll(html, 'og:image');
      expect(more, file).toEqual([]);
      expect(image, file).toMatch(/^https:\/\/www\.example\.com\/og\/[\w-]+-[0-9a-f]{12}\.png$/);
      expect(metaAll(html, 'twitter:image'), file).toEqual([image]);
      expect(metaAll(html, 'twitter:card'), file).toEqual(['summary_large_image']);
      expect(metaAll(html, 'og:image:type'), file).toEqual(['image/png']);
      expect([metaAll(html, 'og:image:width'), metaAll(html, 'og:image:height')], file).toEqual([['1200'], ['630']]);
      const [alt] = metaAll(html, 'og:image:alt');
      expect(alt, file).toMatch(/Northlight Data$/);
      expect(metaAll(html, 'twitter:image:alt'), file).toEqual([alt]);
      if (checked.has(image!)) continue;
      checked.add(image!);
      const png = await readFile(localFile(image!));
      const meta = await sharp(png).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }, image).toEqual({ format: 'png', width: 1200, height: 630 });
      expect(png.byteLength, image).toBeLessThanOrEqual(CARD_MAX_BYTES);
    }
  });

  it('gives each article, case study, service, category and the home page a card of its own, and the rest the site card', () => {
    const imageOf = (url: string) => metaAll(pages.find((p) => p.file === (url === '/' ? 'index.html' : `${url.slice(1)}.html`))!.html, 'og:image')[0]!;
    const own = cold.routes.filter((r) => /^\/(blog\/(?!category\/[^/]+\/page\/)(?!page\/).+|case-studies\/(?!404).+|services\/.+|)$/.test(r.url));
    const articles = cold.routes.filter((r) => r.template === 'blogPost');
    expect(articles.length).toBeGreaterThan(8);
    const images = own.map((r) => imageOf(r.url));
    expect(new Set(images).size).toBe(images.length);
    const site = imageOf('/about');
    expect(site).toMatch(/\/og\/site-/);
    for (const url of ['/contact', '/blog', '/testimonials', '/privacy-policy']) expect(imageOf(url), url).toBe(site);
    expect(images).not.toContain(site);
    // A category's later pages share its first page's card.
    const category = cold.routes.find((r) => /^\/blog\/category\/[^/]+\/page\/2$/.test(r.url));
    if (category) expect(imageOf(category.url)).toBe(imageOf(category.url.replace(/\/page\/2$/, '')));
  });

  it('uses the card as the Article structured data image', () => {
    const html = pages.find((p) => p.file === 'blog/long-title.html')!.html;
    const data = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
    expect(data.find((d) => d['@type'] === 'Article')!.image).toEqual(metaAll(html, 'og:image'));
  });

  it('draws every card once: a warm build draws none and reports it', () => {
    expect(cold.summary.cards!.drawn).toBeGreaterThan(20);
    expect(cold.summary.cards!.reused).toBe(0);
    expect(warm.summary.cards).toMatchObject({ drawn: 0, reused: cold.summary.cards!.drawn });
  });

  it("keeps each card in the cache under its key and its bytes' SHA-256, which the completion manifest lists without reading it again", async () => {
    // One folder, for the one version of the card code these builds drew with.
    const folders = await readdir(path.join(project.root, CACHE_DIR, 'cards'));
    expect(folders).toHaveLength(1);
    const cache = path.join(project.root, CACHE_DIR, 'cards', folders[0]!);
    const names = (await readdir(cache)).filter((n) => n.endsWith('.png'));
    expect(names.length).toBe(cold.summary.cards!.drawn);
    for (const name of names) {
      const [, digest] = /^[0-9a-f]{64}\.([0-9a-f]{64})\.png$/.exec(name) ?? [];
      expect(digest, name).toBeDefined();
      expect(createHash('sha256').update(await readFile(path.join(cache, name))).digest('hex')).toBe(digest);
    }
    const seal = JSON.parse(await readFile(path.join(out, SEAL_FILE), 'utf8')) as { list: Array<[string, number, string]> };
    const cards = seal.list.filter(([file]) => file.startsWith('og/'));
    expect(cards.length).toBeGreaterThan(5);
    for (const [file, size, digest] of cards) {
      const bytes = await readFile(path.join(out, file));
      expect(bytes.length).toBe(size);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(digest);
    }
  });

  it('passes check-links, which checks each og:image as a file of the build', async () => {
    const lines: string[] = [];
    expect(await checkLinksCommand({ dir: out, external: false, json: true, out: (l) => lines.push(l) })).toBe(0);
    const card = metaAll(pages.find((p) => p.file === 'index.html')!.html, 'og:image')[0]!;
    await rm(localFile(card));
    expect(await checkLinksCommand({ dir: out, external: false, json: true, out: (l) => lines.push(l), err: () => {} })).toBe(1);
    expect(lines.at(-1)).toContain(new URL(card).pathname);
  });

  it('shows a page\'s card in site serve at /__site/card/<page>', async () => {
    const server = await startServer({ root: project.root, outDir: out, prebuilt: true, port: 0, host: '127.0.0.1', watch: false });
    try {
      const html = pages.find((p) => p.file === 'blog/long-title.html')!.html;
      for (const [preview, page] of [['/__site/card/blog/long-title', html], ['/__site/card/', pages.find((p) => p.file === 'index.html')!.html]] as const) {
        const res = await fetch(server.url + preview, { redirect: 'manual' });
        expect(res.status).toBe(302);
        expect(res.headers.get('location')).toBe(new URL(metaAll(page, 'og:image')[0]!).pathname);
      }
      expect((await fetch(`${server.url}/__site/card/no-such-page`, { redirect: 'manual' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
