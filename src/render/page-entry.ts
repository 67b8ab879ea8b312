import type { RenderedPage } from './page.tsx';
import { islandList, islandMap, type IslandList } from './island-list.ts';
import type { Route } from '../routes/table.ts';
import type { ImagePreload, ImageUse } from '../images/picture.ts';
import { packValue } from '../pack-value.ts';

/**
 * A rendered page as the build cache keeps it (.site-cache/pages.pack): its markup, islands and
 * images; its route is the build's own. Encoded and decoded by the thread that renders the page and
 * makes its document, so that the main thread only moves the bytes between the pack and the workers.
 */
export type CachedPage = { head: string; body: string; islands: IslandList; images: ImageUse[]; preload?: ImagePreload };

export const isCachedPage = (v: unknown): v is CachedPage => {
  const p = v as CachedPage;
  return !!p && typeof p.head === 'string' && typeof p.body === 'string' && Array.isArray(p.images) && Array.isArray(p.islands) && p.islands.every((i) => Array.isArray(i) && typeof i[0] === 'string' && Array.isArray(i[1]));
};

/** The entry's bytes (one line of the pack: JSON has no raw newline), in a buffer of their own, which can be handed to another thread. */
export function encodePage(page: Omit<RenderedPage, 'route'>): Uint8Array {
  const entry: CachedPage = { head: page.head, body: page.body, islands: islandList(page.islands), images: page.images, ...(page.preload ? { preload: page.preload } : {}) };
  return packValue(entry);
}

/** The page an entry holds, or undefined if the bytes are not one (a damaged pack): the page is then rendered afresh. */
export function decodePage(route: Route, bytes: Uint8Array): RenderedPage | undefined {
  let value: unknown;
  try { value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')); } catch { return undefined; }
  if (!isCachedPage(value)) return undefined;
  return { route, head: value.head, body: value.body, islands: islandMap(value.islands), images: value.images, preload: value.preload };
}
