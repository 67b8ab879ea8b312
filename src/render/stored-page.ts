import type { MarkupFigures } from '../measure/markup.ts';
import type { DocumentCut } from './document.ts';
import { islandMap, type IslandList } from './island-list.ts';
import type { PreviousPage } from './page-output.ts';
import type { RenderedPage } from './page.tsx';

/**
 * What many of a build's pages hold alike (the pages of one template, mostly): the islands they
 * load, the images they show, the image they preload and their markup figures. Kept once in the
 * file list (DistWriter.share), where fifteen thousand pages held 3,500 distinct ones; read once
 * per build, so that the pages alike share one object (and the summary works each out once).
 */
export interface PageUses { islands: IslandList; images: RenderedPage['images']; preload?: RenderedPage['preload']; markup: MarkupFigures }

/**
 * What the entry of a written page keeps besides its key (the route's: see cache/build-cache.ts), so
 * that a later build can leave it standing without reading it; or, when only the shell changed, cut
 * its head and body out of it (`cut`, valid while the route's key is the entry's) rather than render
 * it again. `site` and `body` name what the route was made from (RouteInputs): while they are the
 * same, the entry's key is the route's. `shell` names what the document was made of besides the
 * page. `uses`, `site` and `shell` are indexes among the file list's shared texts: every page of a
 * build has the same site and shell.
 */
export interface StoredPage { uses: number; cut?: DocumentCut; site?: number; body?: string; shell?: number }

/** One PageUses as read or made by this build, with its islands as the Map the summary reads. */
export interface SharedUses { text: string; uses: PageUses; islands: RenderedPage['islands'] }

/** The texts a build's file list keeps once for many entries (pipeline/dist-writer.ts's DistWriter). */
export interface SharedTexts {
  /** `text` kept in this build's list: its index there. */
  share(text: string): number;
  /** The text the last complete build kept at `index`, if it kept one there. */
  lastShared(index: unknown): string | undefined;
}

/** The PageUses of a build's pages: those the last build listed, and those its pages make. */
export class PageUsesTable {
  private readonly byText = new Map<string, SharedUses>();
  constructor(private readonly writer: SharedTexts) {}

  private read(text: string, uses?: PageUses): SharedUses {
    let found = this.byText.get(text);
    if (!found) {
      const value = uses ?? JSON.parse(text) as PageUses;
      found = { text, uses: value, islands: islandMap(value.islands) };
      this.byText.set(text, found);
    }
    return found;
  }

  /** What the last build listed of the page at `about`, if its entry names uses it kept. */
  last(about: StoredPage | undefined): SharedUses | undefined {
    const text = this.writer.lastShared(about?.uses);
    if (text === undefined) return undefined;
    try { return this.read(text); } catch { return undefined; }
  }

  /** What a page made by this build uses, as the object every page alike shares. */
  made(uses: PageUses): SharedUses {
    return this.read(JSON.stringify(uses), uses);
  }

  /** The entry's `about` for this build: its uses kept in this build's file list. */
  stored(shared: SharedUses, page: Omit<StoredPage, 'uses'>): StoredPage {
    return { uses: this.writer.share(shared.text), ...page };
  }

  /** The last build's page at this file, if it was made from this very route (its entry's key, `lastKey`): its document can be cut up again. */
  previousPage(about: StoredPage | undefined, lastKey: string | undefined, key: () => string): { previous?: PreviousPage } {
    if (!about?.cut || lastKey === undefined || lastKey !== key()) return {};
    const last = this.last(about);
    if (!last) return {};
    const { islands, images, preload } = last.uses;
    return { previous: { cut: about.cut, islands, images, ...(preload ? { preload } : {}) } };
  }
}
