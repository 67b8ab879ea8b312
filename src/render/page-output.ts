import type { RenderedPage } from './page.tsx';
import type { RenderContext } from '../page-api/site-context.tsx';
import type { Route } from '../routes/table.ts';
import type { SiteImage } from '../images/site-image.ts';
import type { ImagePreload, ImageUse } from '../images/picture.ts';
import type { BundleResult } from '../bundle/bundle.ts';
import { documentHtml, type DocumentCut } from './document.ts';
import { withInlineImages, type InlineImages } from './inline-image.ts';
import { pageScripts } from '../bundle/page-scripts.ts';
import { markupFigures, type MarkupFigures } from '../measure/markup.ts';
import { PAGE_GZIP_LEVEL, pageGzipSize } from '../measure/gzip.ts';
import { islandList, islandMap, type IslandList } from './island-list.ts';
import { keptContents, lastWritten, sha256, writeContents, type FileEntry, type SiteTrees } from '../output/tree-file.ts';
import { withBody } from './article-body.ts';
import { ownUtf8 } from '../pack-value.ts';

/** What every document is made of besides its page: plain data, the same for every page of a build. */
export interface DocumentShell extends Pick<BundleResult, 'css' | 'runtime' | 'islands' | 'closure'> {
  favicon?: SiteImage;
  /** Inline scripts, identical on every page so that one CSP hash list covers the site. */
  inlineScripts: string[];
  extraHead?: string;
  feed?: { href: string; title: string };
  /** The site's small SVGs as data: URLs, and those every page carries (inline-image.ts): a page's LCP image among them goes into its document too. */
  inlineImages?: InlineImages;
}

/**
 * What the last build kept of a page whose route is unchanged (its document made with another
 * shell): where its head and body lie in the document it wrote, and what it read from the page. The
 * document on disk is the cache: no second copy of every page is kept anywhere.
 */
export interface PreviousPage { cut: DocumentCut; islands: IslandList; images: ImageUse[]; preload?: ImagePreload }

/**
 * One page to make: rendered afresh, or cut out of the document the last build wrote (`previous`);
 * `before` is what the last build wrote at its file; `body`, the cached body of the article whose
 * route holds its marker (see article-body.ts).
 */
export interface PageJob { route: Route; before?: FileEntry; previous?: PreviousPage; body?: Uint8Array }

export interface PagesTask {
  jobs: PageJob[]; ctx: Omit<RenderContext, 'url'>; shell: DocumentShell; trees: SiteTrees;
  /**
   * Each document to write afresh handed back (`UnwrittenPage`) instead of written: a worker's, which
   * the main thread writes one file at a time (pool/build-workers.ts). Two threads creating files in
   * one folder take turns at its lock, and after a clean the kernel makes each file slowly; a worker
   * waiting there is a worker not rendering.
   */
  handBack?: boolean;
}

/**
 * What the main thread needs of a page once it is written: the file's entry (hash, sizes, time),
 * the figures the budgets read from its markup, its islands and images, where its head and body lie
 * in the document (`cut`), and whether it was rendered afresh.
 */
export interface PageOutput {
  entry: FileEntry & { gzip: number; gzipLevel: number };
  markup: MarkupFigures;
  islands: IslandList;
  images: ImageUse[];
  preload?: ImagePreload;
  cut: DocumentCut;
  rendered: boolean;
}

/**
 * A page that could not be made: it had to be rendered, and its article's body was missing from the
 * cache or unreadable. Nothing is written; the main thread discards the entries and builds again.
 */
export interface LostBody { lostBody: true }

/** A page made but not written (`PagesTask.handBack`): its document, and the figures of its entry that do not come from the file. */
export interface UnwrittenPage extends Omit<PageOutput, 'entry'> {
  entry: Pick<PageOutput['entry'], 'hash' | 'gzip' | 'gzipLevel'>;
  document: Uint8Array;
}

/** What the thread that made a page hands back. */
export type PageResult = PageOutput | LostBody;

/** A rendered page as its whole HTML document, pointing at the bundled assets, and where its head and body lie in it. */
export function documentOf(page: RenderedPage, shell: DocumentShell): { html: string; cut: DocumentCut } {
  const { css, runtime, favicon, inlineScripts, extraHead, feed, inlineImages } = shell;
  const icon = favicon && inlineImages?.urls[favicon.src];
  return documentHtml(withInlineImages(page, inlineImages), { css, runtime, preload: pageScripts(page, shell).preload, favicon: icon ? { ...favicon, src: icon } : favicon, inlineScripts, extraHead, feed });
}

const isCut = (cut: DocumentCut, length: number) => cut.length === 4 && cut.every(Number.isInteger) && cut[0] >= 0 && cut[0] <= cut[1] && cut[1] <= cut[2] && cut[2] <= cut[3] && cut[3] <= length;

/** The page the last build wrote at `before`, cut out of its document, if the file still holds exactly that document. */
function pageWritten(trees: SiteTrees, route: Route, before: FileEntry, previous: PreviousPage): RenderedPage | undefined {
  const html = lastWritten(trees, route.file, before);
  const { cut } = previous;
  if (html === undefined || !isCut(cut, html.length)) return undefined;
  return { route, head: html.slice(cut[0], cut[1]), body: html.slice(cut[2], cut[3]), islands: islandMap(previous.islands), images: previous.images, preload: previous.preload };
}

/**
 * Each job's page rendered (or cut out of the last build's document), made into its document and
 * measured (raw and gzip at level 1, see measure/gzip.ts) by the thread that rendered it: a worker, or
 * the main thread on a small build. A page whose last document still stands is linked in here; one to
 * write afresh is written here too, or handed back (`handBack`, a worker's). Only the figures go back,
 * and a handed-back document; the markup is let go here.
 */
export function outputPages(task: PagesTask, render: (route: Route, ctx: RenderContext) => RenderedPage): Array<PageResult | UnwrittenPage> {
  const made = new Set<string>();
  return task.jobs.map(({ route, before, previous, body }): PageResult | UnwrittenPage => {
    const written = previous && before ? pageWritten(task.trees, route, before, previous) : undefined;
    const whole = written ? route : withBody(route, body);
    if (!whole) return { lostBody: true };
    const page = written ?? render(whole, { ...task.ctx, url: route.url });
    const { html, cut } = documentOf(page, task.shell);
    // A buffer of its own, so that a worker hands the document over rather than copying it.
    const bytes = ownUtf8(html);
    const hash = sha256(bytes);
    const kept = keptContents(task.trees, route.file, hash, before, made);
    // The last build's figure while the bytes are the same (a kept file carries it too) and it was taken at this level.
    const gzip = before?.hash === hash && before.gzip !== undefined && before.gzipLevel === PAGE_GZIP_LEVEL ? before.gzip : pageGzipSize(bytes);
    const figures = { markup: markupFigures(html), islands: islandList(page.islands), images: page.images, ...(page.preload ? { preload: page.preload } : {}), cut, rendered: !written };
    if (!kept && task.handBack) return { entry: { hash, gzip, gzipLevel: PAGE_GZIP_LEVEL }, document: bytes, ...figures };
    const entry = kept ?? writeContents(task.trees, route.file, bytes, hash, before, made);
    return { entry: { ...entry, gzip, gzipLevel: PAGE_GZIP_LEVEL }, ...figures };
  });
}
