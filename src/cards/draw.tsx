/**
 * Draws share cards: the template in templates/share-card through satori (React → SVG, text as
 * paths from the fonts of @fontsource/inter), then sharp (SVG → PNG). Bundled fresh for every
 * build with the template (see pool/code.ts), and run on the main thread or a pool worker.
 */
import { readFile } from 'node:fs/promises';
import satori from 'satori';
import { ShareCard, cardTitleBox, CARD_HEIGHT, CARD_WIDTH, type ShareCardArt, type ShareCardProps } from '../../templates/share-card/ShareCard.tsx';
import { cardFonts } from './fonts.ts';
import { drawableText, fitText } from './fit.ts';
import type { CardJob } from './plan.ts';

/** The most a card may weigh; the encoder goes to a palette when full colour would be heavier than PALETTE_FROM. */
export const CARD_MAX_BYTES = 100 * 1024;
const PALETTE_FROM = 60 * 1024;

const dataUri = (type: string, data: Buffer) => `data:${type};base64,${data.toString('base64')}`;

/** The art as satori can embed it: an SVG as it is; a raster scaled to its panel, as JPEG (or PNG with transparency). */
async function artOf(art: NonNullable<CardJob['art']>): Promise<ShareCardArt> {
  const data = await readFile(art.file);
  if (art.format === 'svg') return { src: dataUri('image/svg+xml', data), width: art.width, height: art.height };
  const { default: sharp } = await import('sharp');
  const { data: out, info } = await sharp(data).rotate().resize({ width: 760, height: 684, fit: 'inside', withoutEnlargement: true })
    .toFormat(art.format === 'png' || art.format === 'webp' || art.format === 'avif' ? 'png' : 'jpeg', { quality: 80 }).toBuffer({ resolveWithObject: true });
  return { src: dataUri(`image/${info.format}`, out), width: info.width, height: info.height };
}

/** The props the template is drawn with: the title laid out for its box, characters no font has left out. */
export async function cardProps(job: CardJob): Promise<ShareCardProps> {
  const { metrics } = cardFonts();
  const art = job.art ? await artOf(job.art) : undefined;
  const box = cardTitleBox(!!art);
  const title = fitText(metrics[700], drawableText(metrics[700], job.title), box);
  return {
    title,
    label: drawableText(metrics[700], job.label),
    siteName: drawableText(metrics[700], job.siteName),
    siteHost: drawableText(metrics[400], job.siteHost),
    ...(job.logo ? { logo: dataUri('image/svg+xml', await readFile(job.logo.file)) } : {}),
    ...(art ? { art } : {}),
  };
}

/** The card as SVG, its text as paths. */
export async function cardSvg(props: ShareCardProps, embedFont = true): Promise<string> {
  return satori(<ShareCard {...props} />, { width: CARD_WIDTH, height: CARD_HEIGHT, fonts: cardFonts().fonts, embedFont });
}

/** PNG bytes: full colour where that is light enough, else quantised to a palette; undefined if nothing is within the limit. */
async function encode(svg: string): Promise<Buffer | undefined> {
  const { default: sharp } = await import('sharp');
  const raster = sharp(Buffer.from(svg)).removeAlpha();
  const full = await raster.clone().png({ compressionLevel: 9 }).toBuffer();
  if (full.byteLength <= PALETTE_FROM) return full;
  // Flat colours and anti-aliased text keep clean in a palette; art-heavy cards come down a long way.
  for (const colours of [256, 128, 64]) {
    const quantised = await raster.clone().png({ palette: true, colours, effort: 4, compressionLevel: 9 }).toBuffer();
    if (quantised.byteLength <= CARD_MAX_BYTES) return quantised;
  }
  return undefined;
}

/**
 * One card as PNG bytes, within CARD_MAX_BYTES. Art too busy to fit (a photograph that is mostly
 * grain) is left off rather than the card made blotchy: the words are what the card is for.
 */
export async function drawCard(job: CardJob): Promise<Uint8Array> {
  const props = await cardProps(job);
  const png = await encode(await cardSvg(props)) ?? (job.art ? await encode(await cardSvg(await cardProps({ ...job, art: undefined }))) : undefined);
  if (!png) throw new Error(`share card ${job.url} for "${job.title}" is over ${CARD_MAX_BYTES / 1024} KB even at 64 colours`);
  return png;
}
