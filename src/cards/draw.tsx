/**
 * Draws share cards: the template in templates/share-card through satori (React → SVG, text as
 * paths from the fonts of @fontsource/inter), then sharp (SVG → pixels, the logo and art laid on,
 * PNG). Bundled fresh for every build with the template (see pool/code.ts), and run on the main
 * thread or a pool worker.
 */
import { readFile } from 'node:fs/promises';
import type { Sharp } from 'sharp';
import { ShareCard, cardImageSlots, cardTitleBox, CARD_HEIGHT, CARD_WIDTH, type CardSlot, type ShareCardProps } from '../../templates/share-card/ShareCard.tsx';
import { cardFonts } from './fonts.ts';
import { drawableText, fitText } from './fit.ts';
import { covered } from './font-metrics.ts';
import type { CardJob } from './plan.ts';

/** The most a card may weigh; past it, the encoder goes to a palette. */
export const CARD_MAX_BYTES = 100 * 1024;

// Both loaded on first use only: a build whose cards are all in the cache never pays for them.
const sharpModule = () => import('sharp').then((m) => m.default);
const satoriModule = () => import('satori').then((m) => m.default);

/** The props the template is drawn with: the title laid out for its box, characters no font has left out. */
export async function cardProps(job: CardJob): Promise<ShareCardProps> {
  const { metrics } = cardFonts();
  const art = job.art ? { width: job.art.width, height: job.art.height } : undefined;
  const box = cardTitleBox(!!art);
  const title = fitText(metrics[700], drawableText(metrics[700], job.title), box);
  return {
    title,
    label: drawableText(metrics[700], job.label),
    siteName: drawableText(metrics[700], job.siteName),
    siteHost: drawableText(metrics[400], job.siteHost),
    ...(job.logo ? { logo: true } : {}),
    ...(art ? { art } : {}),
  };
}

/** The card as SVG, its text as paths; the logo and art are not in it (see `drawCard`). */
export async function cardSvg(props: ShareCardProps, embedFont = true): Promise<string> {
  const satori = await satoriModule();
  const fonts = cardFonts();
  const text = [...props.title.lines, props.label, props.siteName, props.siteHost].join('');
  const latin = [...text].every((ch) => covered(fonts.latinMetrics[700], ch) && covered(fonts.latinMetrics[400], ch));
  return withoutUnusedMasks(await satori(<ShareCard {...props} />, { width: CARD_WIDTH, height: CARD_HEIGHT, fonts: latin ? fonts.latin : fonts.all, embedFont }));
}

/**
 * The SVG without the masks nothing refers to: satori defines one per box for clipping its overflow
 * and uses few of them, and the rasteriser builds each regardless (a seventh of a card's raster time).
 */
export function withoutUnusedMasks(svg: string): string {
  return svg.replace(/<mask id="([^"]+)">(?:(?!<\/mask>)[\s\S])*<\/mask>/g, (mask, id: string) => (svg.includes(`url(#${id})`) ? mask : ''));
}

/** An image file as RGBA pixels filling `slot`: an SVG drawn at that size, a raster scaled (EXIF orientation applied). */
async function pixels(file: string, format: string, natural: { width: number }, slot: CardSlot) {
  const sharp = await sharpModule();
  const data = await readFile(file);
  const source = format === 'svg' ? sharp(data, { density: Math.max(1, (72 * slot.width) / natural.width) }) : sharp(data).rotate();
  const out = await source.resize(slot.width, slot.height, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
  return { input: out, raw: { width: slot.width, height: slot.height, channels: 4 as const }, left: slot.left, top: slot.top };
}

/**
 * Pixels drawn lately, by the image's bytes and size: the logo is on every card, and articles often
 * share their art (a category's placeholder, say). A few are kept per thread, not a large site's all.
 */
const recent = new Map<string, ReturnType<typeof pixels>>();
const RECENT_MAX = 16;

function pixelsOf(image: { file: string; hash: string }, format: string, natural: { width: number }, slot: CardSlot): ReturnType<typeof pixels> {
  const key = `${image.hash} ${slot.width}x${slot.height} ${slot.left},${slot.top}`;
  let drawn = recent.get(key);
  if (!drawn) {
    drawn = pixels(image.file, format, natural, slot);
    drawn.catch(() => recent.delete(key));
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
  } else recent.delete(key);
  // Last in the map's order: the oldest go first.
  recent.set(key, drawn);
  return drawn;
}

/** The card with its logo and art laid on, before encoding. */
async function compose(job: CardJob, withArt: boolean): Promise<Sharp> {
  const sharp = await sharpModule();
  const props = await cardProps(withArt ? job : { ...job, art: undefined });
  const slots = cardImageSlots(props.art);
  const layers = [];
  if (job.logo) layers.push(await pixelsOf(job.logo, 'svg', { width: 40 }, slots.logo));
  if (withArt && job.art && slots.art) layers.push(await pixelsOf(job.art, job.art.format, job.art, slots.art));
  return sharp(Buffer.from(await cardSvg(props))).composite(layers).removeAlpha();
}

/**
 * PNG bytes: full colour at zlib level 6, which keeps flat colour and text well under the limit
 * (the real site's 28 cards: 28–92 KB, median 50 KB); level 9, then a palette (photographic art can need one), only past it;
 * undefined when nothing is within it. Level 9 takes six times as long for a fifth fewer bytes: kept
 * for every card past 64 KB, it cost a third of a cold build's card time for nothing a visitor sees.
 * Level 6 is encoded straight from the drawing pipeline; the rarer encodings start from that PNG,
 * which decodes in a fraction of the time the card takes to draw.
 */
async function encode(card: Sharp): Promise<Buffer | undefined> {
  const quick = await card.png({ compressionLevel: 6 }).toBuffer();
  if (quick.byteLength <= CARD_MAX_BYTES) return quick;
  const sharp = await sharpModule();
  const full = await sharp(quick).png({ compressionLevel: 9 }).toBuffer();
  if (full.byteLength <= CARD_MAX_BYTES) return full;
  for (const colours of [256, 128, 64]) {
    const quantised = await sharp(quick).png({ palette: true, colours, effort: 4, compressionLevel: 9 }).toBuffer();
    if (quantised.byteLength <= CARD_MAX_BYTES) return quantised;
  }
  return undefined;
}

/**
 * One card as PNG bytes, within CARD_MAX_BYTES. Art too busy to fit (a photograph that is mostly
 * grain) is left off rather than the card made blotchy: the words are what the card is for.
 */
export async function drawCard(job: CardJob): Promise<Uint8Array> {
  const png = await encode(await compose(job, true)) ?? (job.art ? await encode(await compose(job, false)) : undefined);
  if (!png) throw new Error(`share card ${job.url} for "${job.title}" is over ${CARD_MAX_BYTES / 1024} KB even at 64 colours`);
  return png;
}

