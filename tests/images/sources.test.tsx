import { cp, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadImages } from '../../src/content/images.ts';
import { loadSite } from '../../src/content/load.ts';
import { ContentErrors, formatContentError, type ContentError } from '../../src/content/errors.ts';
import { renderMarkdown } from '../../src/content/markdown.ts';
import { buildImages } from '../../src/pipeline/image-stage.ts';
import { sniff } from '../../src/images/formats.ts';
import { SiteContext, type RenderContext } from '../../src/page-api/site-context.tsx';
import { Img } from '../../templates/components/Img.tsx';
import { ImageCollector, ImageCollectorContext } from '../../src/page-api/images.ts';
import { elements, orientedJpeg } from './fixtures.ts';

let dir: string;
const images = () => path.join(dir, 'content/images');
const put = (name: string, data: Buffer | string) => writeFile(path.join(images(), name), data);
const jpeg = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#0b2545' } }).jpeg().toBuffer();

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'site-image-sources-'));
  await mkdir(images(), { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function loadErrors(): Promise<ContentError[]> {
  return (await loadImages(path.join(dir, 'content'))).errors;
}

describe('sources in content/images', () => {
  it('takes JPEG, PNG, WebP, AVIF and SVG, told apart by content, and measures them upright', async () => {
    const base = sharp({ create: { width: 64, height: 48, channels: 4, background: { r: 20, g: 184, b: 166, alpha: 0.5 } } });
    await put('a.jpg', await jpeg(64, 48));
    await put('b.png', await base.clone().png().toBuffer());
    await put('c.webp', await base.clone().webp().toBuffer());
    await put('d.avif', await base.clone().avif().toBuffer());
    await put('e.svg', '<?xml version="1.0"?>\n<!-- ours -->\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 48"></svg>');
    await put('portrait.jpg', await orientedJpeg(60, 40));
    const { images: loaded, errors } = await loadImages(path.join(dir, 'content'));
    expect(errors).toEqual([]);
    expect(Object.fromEntries(Object.entries(loaded).map(([k, v]) => [k, `${v.source.format} ${v.source.width}×${v.source.height}${v.source.alpha ? ' alpha' : ''}`]))).toEqual({
      '/images/a.jpg': 'jpeg 64×48', '/images/b.png': 'png 64×48 alpha', '/images/c.webp': 'webp 64×48 alpha',
      '/images/d.avif': 'avif 64×48 alpha', '/images/e.svg': 'svg 64×48 alpha', '/images/portrait.jpg': 'jpeg 40×60',
    });
  });

  it('refuses a file whose content is not what its name says, naming what it is', async () => {
    await put('photo.jpg', await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer());
    await put('notes.png', 'just some text');
    await put('anim.gif', Buffer.from('GIF89a....'));
    expect((await loadErrors()).map(formatContentError)).toEqual([
      'content/images/anim.gif has a type the site does not take (.gif) (hint: use JPEG, PNG, WebP, AVIF or SVG)',
      'content/images/notes.png is not a PNG image: its content is not any image format the site takes (hint: the file may be damaged or mis-named; export it again)',
      'content/images/photo.jpg is a PNG image, but its name ends in .jpg (hint: rename it photo.png)',
    ]);
  });

  it('refuses a file over 20 MB and one over 8,000 px a side', async () => {
    await put('huge.jpg', await jpeg(16, 16));
    await truncate(path.join(images(), 'huge.jpg'), 21 * 1024 * 1024);
    await put('wide.png', await sharp({ create: { width: 8001, height: 4, channels: 3, background: '#000' } }).png().toBuffer());
    await put('fine.png', await sharp({ create: { width: 8000, height: 4, channels: 3, background: '#000' } }).png().toBuffer());
    expect((await loadErrors()).map(formatContentError)).toEqual([
      'content/images/huge.jpg is 21.0 MB, over the 20 MB limit for images (hint: export it smaller; 8,000 px a side is the most the site takes)',
      'content/images/wide.png is 8,001 × 4 px, over the limit of 8,000 px a side (hint: scale it down; the widest file the site serves is 1,920 px)',
    ]);
  });

  it('stops on a file that cannot be decoded: a damaged header when loading, pixels cut short when the variants are made', async () => {
    const good = await jpeg(640, 480);
    await put('damaged.jpg', Buffer.concat([good.subarray(0, 4), Buffer.alloc(200, 0x41)]));
    expect((await loadErrors()).map((e) => `${e.file} ${e.message}`)).toEqual([expect.stringMatching(/^content\/images\/damaged\.jpg cannot be decoded \(.+\)$/)]);

    await rm(path.join(images(), 'damaged.jpg'));
    await put('cut.jpg', good.subarray(0, Math.floor(good.length * 0.6)));
    const { images: loaded, errors } = await loadImages(path.join(dir, 'content'));
    expect(errors).toEqual([]);
    const error = await buildImages({ images: loaded, uses: [], contentDir: path.join(dir, 'content'), cacheDir: path.join(dir, 'cache') }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ContentErrors);
    expect((error as ContentErrors).errors.map(formatContentError)).toEqual([expect.stringMatching(/^content\/images\/cut\.jpg cannot be decoded \(.+\) \(hint: the file may be damaged or cut short; export it again\)$/)]);
  });

  it('tells formats by their first bytes', () => {
    expect(sniff(Buffer.from('\uFEFF<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('svg');
    expect(sniff(Buffer.from('<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg>'))).toBe('svg');
    expect(sniff(Buffer.from('<html><svg></svg></html>'))).toBeUndefined();
    expect(sniff(Buffer.from([0, 0, 0, 24, ...Buffer.from('ftypheic'), 0, 0, 0, 0, ...Buffer.from('mif1heic')]))).toBe('heic');
  });
});

describe('images in markdown bodies', () => {
  let content: string;
  beforeEach(async () => {
    content = path.join(dir, 'site');
    await cp(path.resolve('content'), content, { recursive: true });
    await writeFile(path.join(content, 'images/team.jpg'), await jpeg(1600, 1000));
  });
  const article = 'blog/what-is-data.md';
  const append = async (text: string) => {
    const file = path.join(content, article);
    const before = await readFile(file, 'utf8');
    await writeFile(file, `${before}\n${text}\n`);
    return before.split('\n').length + 1;
  };

  it('need alt text: a missing one is a content error with file and line', async () => {
    const line = await append('![](/images/team.jpg)');
    const error = await loadSite(content).then(() => undefined, (e: unknown) => e);
    expect((error as ContentErrors).errors.map(formatContentError)).toEqual([
      `content/${article}:${line} body: has an image without alt text: ![](/images/team.jpg) (hint: describe what the picture shows between the brackets, as in ![The team at a workshop](/images/team.jpg))`,
    ]);
  });

  it('must be files in content/images', async () => {
    const line = await append('![Our office](/images/office.jpg)');
    const error = await loadSite(content).then(() => undefined, (e: unknown) => e);
    expect((error as ContentErrors).errors).toEqual([expect.objectContaining({ file: `content/${article}`, line, path: 'body', message: 'names the image /images/office.jpg, which is not in content/images' })]);
  });

  it('get exactly the markup a template image gets in the same slot', async () => {
    const site = await loadSite(content);
    const body = await renderMarkdown('![The team at a workshop](/images/team.jpg)', 'content/x.md', 0, undefined, site.images);
    const ctx: RenderContext = { settings: site.settings, images: site.images, url: '/x', year: 2025 };
    const component = renderToStaticMarkup(<SiteContext.Provider value={ctx}><Img src="/images/team.jpg" alt="The team at a workshop" slot="body" /></SiteContext.Provider>);
    const fromMarkdown = elements(body.html).filter((e) => e.tag !== 'p');
    expect(fromMarkdown.map((e) => e.tag)).toEqual(['picture', 'source', 'source', 'img']);
    expect(fromMarkdown).toEqual(elements(component));
    expect(body.images).toEqual([{ src: '/images/team.jpg', slot: 'body', priority: false }]);
  });
});

describe('the LCP image', () => {
  it('is one per page: a second image marked priority stops the render naming both', async () => {
    const site = await loadSite(path.resolve('content'));
    const ctx: RenderContext = { settings: site.settings, images: site.images, url: '/twice', year: 2025 };
    const collector = new ImageCollector('/twice');
    const page = (
      <SiteContext.Provider value={ctx}>
        <ImageCollectorContext.Provider value={collector}>
          <Img src="/images/hero-analytics.svg" alt="" slot="hero" priority />
          <Img src="/images/about-team.svg" alt="" slot="figure" priority />
        </ImageCollectorContext.Provider>
      </SiteContext.Provider>
    );
    expect(() => renderToStaticMarkup(page)).toThrow("/twice: both /images/hero-analytics.svg and /images/about-team.svg are marked as the page's LCP image (priority); mark one");
  });
});
