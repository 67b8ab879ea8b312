import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fixturePhoto } from '../../quality/photo-fixture.ts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cardProps, cardSvg, drawCard, withoutUnusedMasks, CARD_MAX_BYTES } from '../../src/cards/draw.tsx';
import type { CardJob } from '../../src/cards/plan.ts';
import { CARD_HEIGHT, CARD_MARGIN, CARD_WIDTH, cardTitleBox } from '../../templates/share-card/ShareCard.tsx';
import { boxOf, glyphPathsOf } from './svg-bounds.ts';

const images = path.resolve('content/images');
// 140 characters, the longest title the tests hold a card to.
const TITLE_140 = 'Why Data Transformation Must Come Before AI Adoption: Five Warning Signs That Your Organisation in Scotland Is Not Yet Ready for It, and Why';
const job = (title: string, more: Partial<CardJob> = {}): CardJob => ({
  key: 'test', url: '/og/test.png', title, label: 'Article · Data governance', siteName: 'Northlight Data', siteHost: 'www.example.com',
  logo: { file: path.join(images, 'logo.svg'), hash: 'logo' }, ...more,
});
const art = { file: path.join(images, 'blog-what-is-data.svg'), hash: 'what-is-data', format: 'svg', width: 800, height: 600 };

/** The title's own glyph paths: those drawn with the title and not without it (everything else stays put). */
async function titleShapes(j: CardJob) {
  const props = await cardProps(j);
  const withTitle = glyphPathsOf(await cardSvg(props));
  const without = new Set(glyphPathsOf(await cardSvg({ ...props, title: { ...props.title, lines: [] } })).map((s) => s.d));
  return { props, all: withTitle, title: withTitle.filter((s) => !without.has(s.d)) };
}

describe('a drawn share card', () => {
  it('draws a 140-character title inside its box, beside the art, and every piece of text inside the safe area', async () => {
    const j = job(TITLE_140, { art });
    expect(j.title).toHaveLength(140);
    const { props, all, title } = await titleShapes(j);
    expect(props.title.lines.length).toBeGreaterThan(2);
    expect(title).toHaveLength(props.title.lines.length);
    const drawn = boxOf(title);
    const box = cardTitleBox(true);
    expect(drawn.left).toBeGreaterThanOrEqual(box.left);
    expect(drawn.right).toBeLessThanOrEqual(box.left + box.width);
    expect(drawn.top).toBeGreaterThanOrEqual(box.top);
    expect(drawn.bottom).toBeLessThanOrEqual(box.top + box.height);
    const text = boxOf(all);
    expect(text.left).toBeGreaterThanOrEqual(CARD_MARGIN);
    expect(text.right).toBeLessThanOrEqual(CARD_WIDTH - CARD_MARGIN);
    expect(text.top).toBeGreaterThanOrEqual(CARD_MARGIN);
    expect(text.bottom).toBeLessThanOrEqual(CARD_HEIGHT - CARD_MARGIN);
  });

  it('draws a title with accents, dashes and curly quotes glyph for glyph', async () => {
    const { props, title } = await titleShapes(job('Café culture – the board’s view'));
    expect(props.title.lines.join(' ')).toBe('Café culture – the board’s view');
    // One path for the line, with a contour (M) for every glyph that has ink: 25 letters, é's accent, the dash, the ’.
    const contours = title.flatMap((s) => s.d.match(/M/g) ?? []).length;
    expect(contours).toBeGreaterThanOrEqual([...'Caféculture–theboard’sview'].length);
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

  it('leaves out the masks nothing uses and keeps the ones that clip, so the card looks exactly the same', async () => {
    const svg = '<svg width="60" height="40" viewBox="0 0 60 40" xmlns="http://www.w3.org/2000/svg">'
      + '<mask id="satori_om-id"><rect x="0" y="0" width="60" height="40" fill="#fff"/></mask><rect width="60" height="40" fill="#0b2545"/>'
      + '<mask id="satori_om-id-0"><rect x="10" y="10" width="20" height="20" fill="#fff"/></mask>'
      + '<g mask="url(#satori_om-id-0)"><rect x="0" y="0" width="60" height="40" fill="#14b8a6"/></g></svg>';
    const lean = withoutUnusedMasks(svg);
    expect(lean).not.toContain('id="satori_om-id"');
    expect(lean).toContain('id="satori_om-id-0"');
    const pixels = (text: string) => sharp(Buffer.from(text)).raw().toBuffer();
    expect((await pixels(lean)).equals(await pixels(svg))).toBe(true);
    // A real card's SVG keeps no mask it does not use.
    const card = await cardSvg(await cardProps(job('Data Governance Consultancy')));
    for (const [, id] of card.matchAll(/<mask id="([^"]+)"/g)) expect(card).toContain(`url(#${id})`);
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
