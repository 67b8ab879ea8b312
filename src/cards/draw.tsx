/**
 * Draws share cards: the template in templates/share-card, turned into takumi's node tree and drawn
 * by it (layout, text in the fonts of @fontsource/inter, the logo and art, PNG) in one call. Bundled
 * fresh for every build with the template (see pool/code.ts), and run on the main thread or a pool worker.
 */
import { readFile } from 'node:fs/promises';
import { fromJsx } from '@takumi-rs/helpers/jsx';
import { ShareCard, cardImageSlots, cardTitleBox, CARD_HEIGHT, CARD_WIDTH, type CardSlot, type ShareCardProps } from '../../templates/share-card/ShareCard.tsx';
import { cardFonts } from './fonts.ts';
import { drawableText, fitText } from './fit.ts';
import { cardEngine, type CardEngine } from './engine.ts';
import type { CardJob } from './plan.ts';

/** The most a card may weigh; past it, the card goes to fewer colours. */
export const CARD_MAX_BYTES = 100 * 1024;

type Image = NonNullable<CardJob['logo']>;
/** An image's key on the card: its bytes' hash and the slot's size, so the renderer's cache of decoded images never mixes two. */
const srcOf = (kind: string, image: Image, slot: CardSlot) => `${kind}:${image.hash}:${slot.width}x${slot.height}`;

/** The props the template is drawn with: the title laid out for its box, characters no font has left out. */
export async function cardProps(job: CardJob): Promise<ShareCardProps> {
  const { metrics } = cardFonts();
  const natural = job.art ? { width: job.art.width, height: job.art.height } : undefined;
  const box = cardTitleBox(!!natural);
  const title = fitText(metrics[700], drawableText(metrics[700], job.title), box);
  const slots = cardImageSlots(natural);
  return {
    title,
    label: drawableText(metrics[700], job.label),
    siteName: drawableText(metrics[700], job.siteName),
    siteHost: drawableText(metrics[400], job.siteHost),
    ...(job.logo ? { logo: { src: srcOf('logo', job.logo, slots.logo) } } : {}),
    ...(job.art && natural && slots.art ? { art: { ...natural, src: srcOf('art', job.art, slots.art) } } : {}),
  };
}

/** The card as takumi's node tree, with the CSS the conversion gathered. */
export function cardNode(props: ShareCardProps) {
  return fromJsx(<ShareCard {...props} />);
}

/**
 * The bytes an image is drawn from: an SVG as it is (drawn at its slot's size by the renderer), a
 * raster scaled to its slot by sharp first (EXIF orientation applied, an AVIF made a PNG): a
 * photograph is decoded once, small, not at its full size for every card.
 */
async function imageBytes(file: string, format: string, slot: CardSlot): Promise<Uint8Array> {
  const data = await readFile(file);
  if (format === 'svg') return data;
  const sharp = (await import('sharp')).default;
  return sharp(data).rotate().resize(slot.width, slot.height, { fit: 'fill' }).png({ compressionLevel: 1 }).toBuffer();
}

/**
 * Images read lately, by key: the logo is on every card, and articles often share their art (a
 * category's placeholder, say). A few are kept per thread, not a large site's all.
 */
const recent = new Map<string, Promise<Uint8Array>>();
const RECENT_MAX = 16;

function bytesOf(src: string, image: Image, format: string, slot: CardSlot): Promise<Uint8Array> {
  let bytes = recent.get(src);
  if (!bytes) {
    bytes = imageBytes(image.file, format, slot);
    bytes.catch(() => recent.delete(src));
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
  } else recent.delete(src);
  // Last in the map's order: the oldest go first.
  recent.set(src, bytes);
  return bytes;
}

/**
 * The card as the renderer draws `props` (made by `cardProps` from `job`, whose images it reads): a
 * PNG, palette-indexed when it has 256 colours or fewer (flat colour and text nearly always do).
 */
export async function renderCard(engine: CardEngine, job: CardJob, props: ShareCardProps): Promise<Uint8Array> {
  const slots = cardImageSlots(props.art);
  const images = [];
  if (job.logo && props.logo) images.push({ src: props.logo.src, data: await bytesOf(props.logo.src, job.logo, 'svg', slots.logo) });
  if (job.art && props.art && slots.art) images.push({ src: props.art.src, data: await bytesOf(props.art.src, job.art, job.art.format, slots.art) });
  const { node, css } = await cardNode(props);
  return engine.renderer.render(node, { width: CARD_WIDTH, height: CARD_HEIGHT, format: 'png', css, images });
}

const render = async (job: CardJob, withArt: boolean, engine: CardEngine) => {
  const drawn = withArt ? job : { ...job, art: undefined };
  return renderCard(engine, drawn, await cardProps(drawn));
};

/** The PNG within CARD_MAX_BYTES: as drawn, else quantised to fewer colours (photographic art can need it); undefined when nothing is within it. */
async function withinLimit(png: Uint8Array): Promise<Uint8Array | undefined> {
  if (png.byteLength <= CARD_MAX_BYTES) return png;
  const sharp = (await import('sharp')).default;
  for (const colours of [256, 128, 64]) {
    const quantised = await sharp(png).png({ palette: true, colours, effort: 4, compressionLevel: 9 }).toBuffer();
    if (quantised.byteLength <= CARD_MAX_BYTES) return quantised;
  }
  return undefined;
}

/**
 * One card as PNG bytes, within CARD_MAX_BYTES. Art too busy to fit (a photograph that is mostly
 * grain) is left off rather than the card made blotchy: the words are what the card is for.
 */
export async function drawCard(job: CardJob): Promise<Uint8Array> {
  return drawCardWith(await cardEngine(), job);
}

/** This thread's engine made ready (takumi loaded, its fonts registered) before the first card is asked for. */
export async function warmDrawing(): Promise<void> {
  await cardEngine();
}

/** `drawCard` with a given engine rather than this thread's (see engine.ts). */
export async function drawCardWith(e: CardEngine, job: CardJob): Promise<Uint8Array> {
  const png = await withinLimit(await render(job, true, e)) ?? (job.art ? await withinLimit(await render(job, false, e)) : undefined);
  if (!png) throw new Error(`share card ${job.url} for "${job.title}" is over ${CARD_MAX_BYTES / 1024} KB even at 64 colours`);
  return png;
}
