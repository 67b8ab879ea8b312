import type { SiteImage } from './site-image.ts';
import { MIME } from './formats.ts';
import { slotVariants, type Variant } from './plan.ts';
import { sizesAttribute, type SlotName } from './slots.ts';

/** An image as a page uses it: which file, shown how, and whether it is the page's LCP candidate. */
export interface ImageUse { src: string; slot: SlotName; priority: boolean }

/** `<link rel="preload" as="image">` for the LCP image: one format only, so no browser fetches two. */
export interface ImagePreload { type: string; href?: string; imageSrcSet?: string; imageSizes?: string }

/**
 * The elements of one <picture>, as plain data that both the React component and the markdown
 * renderer turn into markup, so an image looks the same wherever an author puts it.
 */
export interface PictureMarkup {
  sources: Array<{ type: string; srcSet: string; sizes: string }>;
  img: {
    src: string; srcSet?: string; sizes?: string; width: number; height: number; alt: string; className?: string;
    decoding: 'async'; loading?: 'lazy'; fetchPriority?: 'high';
  };
  preload?: ImagePreload;
}

const srcset = (variants: Variant[]) => variants.map((v) => `${v.url} ${v.width}w`).join(', ');

/**
 * A raster image: a <source> per modern format (AVIF, then WebP) and the fallback format's
 * srcset on the <img>, all with the slot's `sizes`. An SVG draws sharp at any size: one file.
 * Only the LCP candidate loads eagerly, at high priority, preloaded as AVIF with `type`, which
 * a browser without AVIF skips (it then fetches the WebP the <picture> picks, once).
 */
export function pictureMarkup(image: SiteImage, slot: SlotName, opts: { alt: string; className?: string; priority?: boolean }): PictureMarkup {
  const loading = opts.priority ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const };
  const common = { alt: opts.alt, ...(opts.className ? { className: opts.className } : {}), decoding: 'async' as const, ...loading };
  if (image.source.format === 'svg') {
    return {
      sources: [],
      img: { src: image.src, width: image.width, height: image.height, ...common },
      ...(opts.priority ? { preload: { type: MIME.svg, href: image.src } } : {}),
    };
  }
  const sizes = sizesAttribute(slot);
  const sets = slotVariants(image, slot);
  const fallback = sets.at(-1)!.variants;
  const largest = fallback.at(-1)!;
  const best = sets[0]!;
  return {
    sources: sets.slice(0, -1).map((s) => ({ type: MIME[s.format], srcSet: srcset(s.variants), sizes })),
    img: { src: largest.url, srcSet: srcset(fallback), sizes, width: largest.width, height: largest.height, ...common },
    ...(opts.priority ? { preload: { type: MIME[best.format], imageSrcSet: srcset(best.variants), imageSizes: sizes } } : {}),
  };
}

/** Every file a use needs built (none for an SVG, which is copied as it is). */
export function variantsOf(image: SiteImage, slot: SlotName): Variant[] {
  return image.source.format === 'svg' ? [] : slotVariants(image, slot).flatMap((s) => s.variants);
}

