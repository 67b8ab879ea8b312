import { createHash } from 'node:crypto';
import path from 'node:path';
import { EXTENSION_OF, type OutputFormat, type SourceFormat } from './formats.ts';
import { SLOTS, type SlotName } from './slots.ts';
import { ENCODER_SETTINGS } from './encoder-settings.ts';

/** What planning needs to know of a source: its key (/images/x.jpg) and what load measured. */
export interface PlannedSource {
  file: string;
  source: { format: SourceFormat; width: number; height: number; alpha: boolean; hash: string };
}

/** One file the build makes from a source. Its name and cache key come from the source's content and the settings. */
export interface Variant { url: string; key: string; format: OutputFormat; width: number; height: number; settings: EncoderSettings }

/** How a variant is encoded: the format's ENCODER_SETTINGS, with the slot's own AVIF quality if it has one. */
export type EncoderSettings = (typeof ENCODER_SETTINGS)[OutputFormat] | { quality: number };

function settingsFor(format: OutputFormat, slot?: SlotName): EncoderSettings {
  const quality = slot && format === 'avif' ? SLOTS[slot].avifQuality : undefined;
  return quality === undefined ? ENCODER_SETTINGS[format] : { ...ENCODER_SETTINGS.avif, quality };
}

/** Widest variant for og:image and structured data: the size social sites ask for. */
export const SHARE_WIDTH = 1200;

/** JPEG for photographs; PNG where the source has transparency, which JPEG cannot keep. */
export function fallbackFormat(image: PlannedSource): OutputFormat {
  return image.source.alpha ? 'png' : 'jpeg';
}

/** The formats of a raster image's <picture>, best first: the browser takes the first it can decode. */
export function formatsFor(image: PlannedSource): OutputFormat[] {
  return ['avif', 'webp', fallbackFormat(image)];
}

function baseName(image: PlannedSource): string {
  return path.basename(image.file, path.extname(image.file)).replace(/[^\w-]+/g, '-');
}

/** A variant of `image` at `width` (for `slot`): named name-width-hash.ext, the hash covering source, format, width and settings. */
export function variant(image: PlannedSource, format: OutputFormat, width: number, slot?: SlotName): Variant {
  const height = Math.max(1, Math.round((width * image.source.height) / image.source.width));
  const settings = settingsFor(format, slot);
  const key = createHash('sha256').update(JSON.stringify([image.source.hash, format, width, height, settings, ENCODER_SETTINGS.version])).digest('hex');
  return { url: `/assets/images/${baseName(image)}-${width}-${key.slice(0, 10)}${EXTENSION_OF[format]}`, key, format, width, height, settings };
}

/** The widths built for a slot: its ladder up to the source's width, and the source's own width where the ladder goes past it. */
export function widthsFor(image: PlannedSource, slot: SlotName): number[] {
  const ladder = SLOTS[slot].widths;
  const within = ladder.filter((w) => w <= image.source.width);
  return within.length < ladder.length ? [...within, image.source.width] : within;
}

/** Every variant of a raster image in a slot, per format, narrowest first. */
export function slotVariants(image: PlannedSource, slot: SlotName): Array<{ format: OutputFormat; variants: Variant[] }> {
  const widths = widthsFor(image, slot);
  return formatsFor(image).map((format) => ({ format, variants: widths.map((w) => variant(image, format, w, slot)) }));
}

/** A raster's single file for uses outside a <picture> (og:image, structured data): its fallback format, at most SHARE_WIDTH wide. */
export function shareFile(image: PlannedSource): Variant {
  return variant(image, fallbackFormat(image), Math.min(SHARE_WIDTH, image.source.width));
}

/** The single file served outside a <picture>: an SVG as it is (hashed name), a raster its share file. */
export function shareVariant(key: string, image: PlannedSource): { src: string; width: number; height: number } {
  if (image.source.format === 'svg') {
    const ext = path.extname(key);
    return { src: `/assets/images/${path.basename(key, ext)}-${image.source.hash.slice(0, 10)}${ext}`, width: image.source.width, height: image.source.height };
  }
  const v = shareFile(image);
  return { src: v.url, width: v.width, height: v.height };
}
