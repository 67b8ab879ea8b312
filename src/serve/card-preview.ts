import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CARDS_FILE } from '../cards/plan.ts';

/** Where `site serve` shows a page's card: /__site/card/blog/what-is-data, /__site/card/ for the home page. */
export const CARD_PREVIEW_PREFIX = '/__site/card';

/**
 * The card of the page a preview path names, or undefined when the path is not a preview or names
 * no page. Read afresh each time: a rebuild may have renamed the card; `since`, the cards saves have
 * changed since (serve/live-site.ts).
 */
export async function cardPreviewLocation(pathname: string, deployDir: string, since?: ReadonlyMap<string, string>): Promise<string | undefined> {
  if (pathname !== CARD_PREVIEW_PREFIX && !pathname.startsWith(`${CARD_PREVIEW_PREFIX}/`)) return undefined;
  const page = pathname.slice(CARD_PREVIEW_PREFIX.length).replace(/\/+$/, '') || '/';
  // A card a save has changed since the build wrote the file.
  const changed = since?.get(decodeURIComponent(page));
  if (changed) return changed;
  const cards = JSON.parse(await readFile(path.join(deployDir, CARDS_FILE), 'utf8').catch(() => '{}')) as Record<string, string>;
  return cards[decodeURIComponent(page)];
}
