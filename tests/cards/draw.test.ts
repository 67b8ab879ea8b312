import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fixturePhoto } from '../../quality/photo-fixture.ts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { MeasuredNode } from '@takumi-rs/core';
import { cardNode, cardProps, drawCard, CARD_MAX_BYTES } from '../../src/cards/draw.tsx';
import { cardEngine } from '../../src/cards/engine.ts';
import { cardFonts } from '../../src/cards/fonts.ts';
import { textWidth } from '../../src/cards/font-metrics.ts';
import type { CardJob } from '../../src/cards/plan.ts';
import { CARD_HEIGHT, CARD_MARGIN, CARD_WIDTH, cardTitleBox, type ShareCardProps } from '../../templates/share-card/ShareCard.tsx';

const images = path.resolve('content/images');
// 140 characters, the longest title the tests hold a card to.
const TITLE_140 = 'Why Data Transformation Must Come Before AI Adoption: Five Warning Signs That Your Organisation in Scotland Is Not Yet Ready for It, and Why';
const job = (title: string, more: Partial<CardJob> = {}): CardJob => ({
  key: 'test', url: '/og/test.png', title, label: 'Article · Data governance', siteName: 'Northlight Data', siteHost: 'www.example.com',
  logo: { file: path.join(images, 'logo.svg'), hash: 'logo' }, ...more,
});
const art = { file: path.join(images, 'blog-what-is-data.svg'), hash: 'what-is-data', format: 'svg', width: 800, height: 600 };

interface Run { text: string; left: number; top: number; right: number; bottom: number }

/** Every piece of text as takumi lays the card out, in the card's pixels: a node's runs (one per font it falls back to) as one. */
async function textRuns(props: ShareCardProps): Promise<Run[]> {
  const { node, css } = await cardNode(props);
  const root = await (await cardEngine()).renderer.measure(node, { width: CARD_WIDTH, height: CARD_HEIGHT, css });
  const runs: Run[] = [];
  const walk = (n: MeasuredNode) => {
    const [, , , , x, y] = n.transform;
    if (n.runs.length) {
      runs.push({
        text: n.runs.map((r) => r.text).join(''),
        left: x + Math.min(...n.runs.map((r) => r.x)), right: x + Math.max(...n.runs.map((r) => r.x + r.width)),
        top: y + Math.min(...n.runs.map((r) => r.y)), bottom: y + Math.max(...n.runs.map((r) => r.y + r.height)),
      });
    }
    n.children.forEach(walk);
  };
  walk(root);
  return runs;
}

const span = (runs: Run[]) => ({
  left: Math.min(...runs.map((r) => r.left)), right: Math.max(...runs.map((r) => r.right)),
  top: Math.min(...runs.map((r) => r.top)), bottom: Math.max(...runs.map((r) => r.bottom)),
});

describe('a drawn share card', () => {
  it('draws a 140-character title inside its box, beside the art, and every piece of text inside the safe area', async () => {
    const j = job(TITLE_140, { art });
    expect(j.title).toHaveLength(140);
    const props = await cardProps(j);
    expect(props.title.lines.length).toBeGreaterThan(2);
    const runs = await textRuns(props);
    const title = runs.filter((r) => props.title.lines.includes(r.text));
    expect(title.map((r) => r.text)).toEqual(props.title.lines);
    const drawn = span(title);
    const box = cardTitleBox(true);
    expect(drawn.left).toBeGreaterThanOrEqual(box.left);
    expect(drawn.right).toBeLessThanOrEqual(box.left + box.width);
    expect(drawn.top).toBeGreaterThanOrEqual(box.top);
    expect(drawn.bottom).toBeLessThanOrEqual(box.top + box.height);
    const text = span(runs);
    expect(text.left).toBeGreaterThanOrEqual(CARD_MARGIN);
    expect(text.right).toBeLessThanOrEqual(CARD_WIDTH - CARD_MARGIN);
    expect(text.top).toBeGreaterThanOrEqual(CARD_MARGIN);
    expect(text.bottom).toBeLessThanOrEqual(CARD_HEIGHT - CARD_MARGIN);
  });

  it('draws accents, dashes, curly quotes and letters beyond Latin-1 (from the latin-ext font) as written', async () => {
    const words = 'Café culture – the board’s view from Łódź';
    const props = await cardProps(job(words));
    expect(props.title.lines.join(' ')).toBe(words);
    expect((await textRuns(props)).filter((r) => props.title.lines.includes(r.text)).map((r) => r.text).join(' ')).toBe(words);
    // The Ł is drawn from latin-ext, whose glyph is as wide as its metrics say (a missing glyph's box is not).
    const polish = await cardProps(job('ŁŁŁŁŁŁ'));
    const [run] = (await textRuns(polish)).filter((r) => r.text === 'ŁŁŁŁŁŁ');
    const expected = textWidth(cardFonts().metrics[700], 'ŁŁŁŁŁŁ', polish.title.fontSize);
    expect(cardFonts().metrics[700][0]!.glyphOf('Ł'.codePointAt(0)!)).toBe(0);
    expect(Math.abs(run!.right - run!.left - expected)).toBeLessThan(1);
  });

  it('is a 1200 × 630 PNG under the size limit, with SVG art, a photograph, or even pure noise', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'site-card-'));
    const photo = path.join(dir, 'photo.jpg');
    const noise = path.join(dir, 'noise.jpg');
    await writeFile(photo, await fixturePhoto(process.cwd(), { width: 1600, height: 1200 }));
    await writeFile(noise, await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).jpeg().toBuffer());
    const raster = (file: string) => ({ file, hash: file, format: 'jpeg', width: 1600, height: 1200 });
    for (const j of [job(TITLE_140, { art }), job('A photograph', { art: raster(photo) }), job('Nothing but grain', { art: raster(noise) })]) {
      const png = await drawCard(j);
      const meta = await sharp(png).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'png', width: 1200, height: 630 });
      expect(png.byteLength, j.title).toBeLessThanOrEqual(CARD_MAX_BYTES);
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('draws the art as it is now: an image saved again under the same name shows anew (serve keeps drawing in one thread)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'site-card-'));
    const file = path.join(dir, 'art.svg');
    const square = (fill: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="${fill}"/></svg>`;
    const artPixel = async (png: Uint8Array) => [...(await sharp(png).extract({ left: 1000, top: 300, width: 1, height: 1 }).raw().toBuffer())];
    await writeFile(file, square('#ff0000'));
    const red = await artPixel(await drawCard(job('Same name, new art', { art: { file, hash: 'red', format: 'svg', width: 800, height: 600 } })));
    await writeFile(file, square('#0000ff'));
    const blue = await artPixel(await drawCard(job('Same name, new art', { art: { file, hash: 'blue', format: 'svg', width: 800, height: 600 } })));
    expect(red).toEqual([255, 0, 0]);
    expect(blue).toEqual([0, 0, 255]);
    await rm(dir, { recursive: true, force: true });
  });
});
