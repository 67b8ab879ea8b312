import path from 'node:path';
import type { Site } from '../content/load.ts';
import type { Route } from '../routes/table.ts';
import type { CardContent, ShareImage } from '../routes/meta.ts';
import { hashOf } from '../hash.ts';

export const CARD_SIZE = { width: 1200, height: 630 } as const;
/** Where cards are served: a folder of their own, so that deploy can leave old ones in place (see README). */
export const CARD_DIR = '/og/';
/** The file the build writes beside the routing table (.site/deploy/): each page's URL → its share card's URL. */
export const CARDS_FILE = 'cards.json';

/** One card to draw: what is on it, and the file it goes to. Plain data, so a worker can draw it. */
export interface CardJob {
  /** Hash of everything drawn: words, art, logo, site name, the drawing code and the fonts. */
  key: string;
  url: string;
  title: string;
  label: string;
  siteName: string;
  siteHost: string;
  /** Files on disk, read by whoever draws, with the hash of their bytes. */
  logo?: { file: string; hash: string };
  art?: { file: string; hash: string; format: string; width: number; height: number };
}

/** The site's own card, for every page that has none of its own. */
export function siteCard(site: Site): CardContent {
  return { title: site.settings.description, label: site.settings.location };
}

const host = (url: string) => new URL(url).host;

/** A card's file name: the page it was first made for, readable, then the hash of what it shows. */
function fileName(url: string, key: string): string {
  const base = url === '/' ? 'home' : url.replace(/^\/|\/$/g, '').replace(/[^\w-]+/g, '-');
  return `${CARD_DIR}${base.slice(0, 80)}-${key.slice(0, 12)}.png`;
}

/**
 * Every route with its share image, and the cards to draw, one per distinct content (the pages of
 * one category share theirs; every page without a card of its own shares the site's). `code`: the
 * hash of the bundled drawing code and the fonts, so a change of either names every card anew.
 */
export function planCards(site: Site, routes: Route[], contentDir: string, code: string): { routes: Route[]; jobs: CardJob[] } {
  const { settings, images } = site;
  const jobs = new Map<string, CardJob>();
  const imageFile = (key: string) => path.join(contentDir, 'images', path.basename(key));
  const logoImage = settings.logo ? images[settings.logo] : undefined;
  const logo = logoImage ? { file: imageFile(settings.logo!), hash: logoImage.source.hash } : undefined;
  const common = { siteName: settings.name, siteHost: host(settings.url) };
  const fallback = siteCard(site);
  const planned = routes.map((route) => {
    const content = route.meta.card ?? fallback;
    const artImage = content.art ? images[content.art] : undefined;
    const art = artImage ? { file: imageFile(content.art!), hash: artImage.source.hash, format: artImage.source.format, width: artImage.source.width, height: artImage.source.height } : undefined;
    const key = hashOf(code, content.title, content.label, common.siteName, common.siteHost, logoImage?.source.hash ?? '', artImage?.source.hash ?? '');
    const job = jobs.get(key) ?? { key, url: fileName(route.meta.card ? route.url : '/site', key), title: content.title, label: content.label, ...common, ...(logo ? { logo } : {}), ...(art ? { art } : {}) };
    jobs.set(key, job);
    // Also the image of the page's Article structured data, which Google asks to be a raster: the card is one (see render/structured-data.ts).
    const shareImage: ShareImage = { src: job.url, ...CARD_SIZE, alt: `${content.title} (${content.label}), ${settings.name}`, type: 'image/png' };
    return { ...route, meta: { ...route.meta, shareImage } } as Route;
  });
  return { routes: planned, jobs: [...jobs.values()] };
}
