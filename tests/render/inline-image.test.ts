// A page's LCP image, when it is a small SVG, and the logo and favicon travel in the document as data:
// URLs (render/inline-image.ts): nothing but the stylesheet and the islands' runtime is fetched before
// the first paint, and the largest element paints in it.
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { scratchProject } from '../scratch-project.ts';

let dir: string;
const page = (file: string) => readFile(path.join(dir, 'out', 'dist', file), 'utf8');
/** The SVG a data: URL holds. */
const svgOf = (url: string) => decodeURIComponent(url.slice('data:image/svg+xml,'.length));
/** The `src` of the <img> whose other attributes match `attrs`, and that tag. */
const img = (html: string, attrs: RegExp) => {
  const tag = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]).find((t) => attrs.test(t));
  return { tag, src: tag && /src="([^"]*)"/.exec(tag)?.[1] };
};
/** An SVG's text as the data: URL shows it: its runs of white space one space. */
const squeezed = (svg: string) => svg.replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  dir = await scratchProject('site-inline-image-', { seeded: true });
  await buildSite({ root: dir, outDir: path.join(dir, 'out', 'dist'), overrides: { search: false }, warn: () => undefined });
}, 300_000);
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('small SVGs in the document', () => {
  it("the home page's hero is in the page, painted with the first frame: no preload, no request, not decoded later", async () => {
    const html = await page('index.html');
    const hero = img(html, /class="hero__bg"/);
    expect(hero.src).toMatch(/^data:image\/svg\+xml,%3Csvg/);
    expect(squeezed(svgOf(hero.src!))).toBe(squeezed(await readFile(path.join(dir, 'content/images/hero-analytics.svg'), 'utf8')));
    expect(hero.tag).toMatch(/fetchPriority="high"/);
    expect(hero.tag).not.toMatch(/decoding=|loading=/);
    expect(html).not.toContain('rel="preload" as="image"');
    // A URL the HTML and URL parsers both take as it is: no space, quote, angle bracket or hash.
    expect(hero.src).not.toMatch(/[\s"<>#&]/);
  });

  it("an article's image and a list's first card are in the page; the list's other cards load lazily from their files", async () => {
    const article = await page('blog/what-is-data.html');
    expect(img(article, /fetchPriority="high"/).src).toMatch(/^data:image\/svg\+xml,/);
    const list = await page('blog.html');
    const cards = [...list.matchAll(/<div class="card__media"><picture><img src="([^"]*)"[^>]*>/g)].map((m) => m[0]);
    expect(cards.length).toBeGreaterThan(1);
    expect(cards[0]).toMatch(/src="data:image\/svg\+xml,[^"]*"[^>]*fetchPriority="high"/);
    for (const card of cards.slice(1)) expect(card).toMatch(/src="\/assets\/images\/[^"]+\.svg"[^>]*loading="lazy"/);
  });

  it('the logo and the favicon are in every page, the files still built for whatever links to them', async () => {
    for (const file of ['index.html', 'contact.html', 'blog/what-is-data.html', '404.html']) {
      const html = await page(file);
      expect(img(html, /width="40"/).src, file).toMatch(/^data:image\/svg\+xml,/);
      expect(/<link rel="icon" href="([^"]*)"/.exec(html)?.[1], file).toMatch(/^data:image\/svg\+xml,/);
      expect(html, file).not.toMatch(/src="\/assets\/images\/logo-/);
    }
    const built = await readdir(path.join(dir, 'out', 'dist', 'assets', 'images'));
    for (const name of ['logo', 'favicon', 'hero-analytics']) expect(built.some((f) => f.startsWith(`${name}-`) && f.endsWith('.svg')), name).toBe(true);
  });
});
