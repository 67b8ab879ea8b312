import type { SiteImage } from './site-image.ts';
import { slotVariants, type Variant } from './plan.ts';
import type { ImageUse } from './picture.ts';
import { slotWidth, type SlotName } from './slots.ts';

/** The first screens the site is designed for (docs/product-rules.md#screens-designed-for), with a phone's usual pixel density. */
export const REFERENCE_SCREENS = [{ width: 375, dpr: 2 }, { width: 1366, dpr: 1 }] as const;

/** What a page's images weigh, for budgets.json. Bytes as served: images are not gzipped. */
export interface PageImageFigures {
  /** Eager images (the LCP image) at the file a reference screen's browser picks, the heavier screen. */
  imagesBeforeInteraction: number;
  /** The files counted in `imagesBeforeInteraction`. */
  eagerImages: Array<{ src: string; url: string; bytes: number }>;
  /** Per image and slot the page uses: the largest file a browser may fetch for it. */
  largest: Array<{ src: string; slot: SlotName; url: string; bytes: number }>;
}

/** The candidate a browser takes from a `w` srcset: the narrowest that covers slot × density, else the widest. */
export function pick(variants: Variant[], slotPx: number, dpr: number): Variant {
  return variants.find((v) => v.width >= slotPx * dpr) ?? variants.at(-1)!;
}

export function pageImageFigures(uses: ImageUse[], images: Record<string, SiteImage>, bytes: Map<string, number>): PageImageFigures {
  const size = (url: string) => bytes.get(url) ?? 0;
  const largest: PageImageFigures['largest'] = [];
  for (const use of new Map(uses.map((u) => [`${u.src} ${u.slot}`, u])).values()) {
    const image = images[use.src];
    if (!image) continue;
    const files = image.source.format === 'svg' ? [image.src] : slotVariants(image, use.slot).flatMap((s) => s.variants.map((v) => v.url));
    const url = files.reduce((a, b) => (size(b) > size(a) ? b : a));
    largest.push({ src: use.src, slot: use.slot, url, bytes: size(url) });
  }
  const perScreen = REFERENCE_SCREENS.map((screen) => uses.filter((u) => u.priority && images[u.src]).map((u) => {
    const image = images[u.src]!;
    // Browsers that decode AVIF take its <source>, the first; the preload asks for the same file.
    const url = image.source.format === 'svg' ? image.src : pick(slotVariants(image, u.slot)[0]!.variants, slotWidth(u.slot, screen.width), screen.dpr).url;
    return { src: u.src, url, bytes: size(url) };
  }));
  const total = (list: PageImageFigures['eagerImages']) => list.reduce((n, i) => n + i.bytes, 0);
  const eagerImages = perScreen.reduce((a, b) => (total(b) > total(a) ? b : a));
  return { imagesBeforeInteraction: total(eagerImages), eagerImages, largest };
}
