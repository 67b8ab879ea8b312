import { createContext } from 'react';
import type { ImagePreload, ImageUse } from '../images/picture.ts';

export { pictureMarkup, type ImageUse } from '../images/picture.ts';
export type { SlotName } from '../images/slots.ts';

/** Records, per page render, the images a page shows and how, so the build makes just those files and holds them to the budgets. */
export class ImageCollector {
  readonly uses: ImageUse[] = [];
  preload?: ImagePreload;

  constructor(readonly url: string) {}

  add(use: ImageUse, preload?: ImagePreload) {
    if (use.priority) {
      const first = this.uses.find((u) => u.priority);
      // One LCP candidate per page: two would split the bandwidth the first screen needs.
      if (first) throw new Error(`${this.url}: both ${first.src} and ${use.src} are marked as the page's LCP image (priority); mark one`);
      this.preload = preload;
    }
    this.uses.push(use);
  }
}

export const ImageCollectorContext = createContext<ImageCollector | null>(null);
