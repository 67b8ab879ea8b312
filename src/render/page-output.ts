import { gzipSync } from 'node:zlib';
import type { RenderedPage } from './page.tsx';
import type { RenderContext } from '../page-api/site-context.tsx';
import type { Route } from '../routes/table.ts';
import type { SiteImage } from '../content/images.ts';
import type { ImagePreload, ImageUse } from '../images/picture.ts';
import type { BundleResult } from '../bundle/bundle.ts';
import { documentHtml } from './document.ts';
import { pageScripts } from '../bundle/page-scripts.ts';
import { markupFigures, type MarkupFigures } from '../measure/markup.ts';
import { islandList, type IslandList } from './island-list.ts';
import { decodePage, encodePage } from './page-entry.ts';
import { putContents, type FileRecord, type SiteTrees } from '../output/tree-file.ts';
import { withBody } from './article-body.ts';

/** What every document is made of besides its page: plain data, the same for every page of a build. */
export interface DocumentShell extends Pick<BundleResult, 'css' | 'runtime' | 'islands' | 'closure'> {
  favicon?: SiteImage;
  /** Inline scripts, identical on every page so that one CSP hash list covers the site. */
  inlineScripts: string[];
  extraHead?: string;
  feed?: { href: string; title: string };
}

/**
 * One page to make: rendered afresh, or from its cached entry (`cached`); `before` is what the last
 * build wrote at its file; `body`, the cached body of the article whose route holds its marker (see article-body.ts).
 */
export interface PageJob { route: Route; before?: FileRecord; cached?: Uint8Array; body?: Uint8Array }

export interface PagesTask { jobs: PageJob[]; ctx: Omit<RenderContext, 'url'>; shell: DocumentShell; trees: SiteTrees }

/**
 * What the main thread needs of a page once it is written: the file's record (hash, sizes, time),
 * the figures the budgets read from its markup, its islands and images; and the cache entry of a
 * page rendered afresh (`entry`), or `discarded` when its cached entry could not be read.
 */
export interface PageOutput {
  record: FileRecord & { gzip: number };
  markup: MarkupFigures;
  islands: IslandList;
  images: ImageUse[];
  preload?: ImagePreload;
  entry?: Uint8Array;
  discarded?: boolean;
}

/**
 * A page that could not be made: it had to be rendered, and its article's body was missing from the
 * cache or unreadable. Nothing is written; the main thread discards the entries and builds again.
 */
export interface LostBody { lostBody: true; discarded?: boolean }

/** What the thread that made a page hands back. */
export type PageResult = PageOutput | LostBody;

/** A rendered page as its whole HTML document, pointing at the bundled assets. */
export function documentOf(page: RenderedPage, shell: DocumentShell): string {
  const { css, runtime, favicon, inlineScripts, extraHead, feed } = shell;
  return documentHtml(page, { css, runtime, preload: pageScripts(page, shell).preload, favicon, inlineScripts, extraHead, feed });
}

/**
 * Each job's page rendered (or taken from its entry), made into its document, written into the
 * staging tree and measured (raw and gzip at level 9), by the thread that rendered it: a worker, or
 * the main thread on a small build. Only the figures go back; the markup is let go here.
 */
export function outputPages(task: PagesTask, render: (route: Route, ctx: RenderContext) => RenderedPage): PageResult[] {
  const made = new Set<string>();
  return task.jobs.map(({ route, before, cached, body }): PageResult => {
    const fromCache = cached && decodePage(route, cached);
    const whole = fromCache ? route : withBody(route, body);
    if (!whole) return { lostBody: true, ...(cached ? { discarded: true } : {}) };
    const page = fromCache || render(whole, { ...task.ctx, url: route.url });
    const html = documentOf(page, task.shell);
    const bytes = Buffer.from(html);
    const record = putContents(task.trees, route.file, bytes, before, made);
    const gzip = record.gzip ?? gzipSync(bytes, { level: 9 }).byteLength;
    return {
      record: { ...record, gzip }, markup: markupFigures(html), islands: islandList(page.islands), images: page.images,
      ...(page.preload ? { preload: page.preload } : {}),
      ...(fromCache ? {} : { entry: encodePage(page) }),
      ...(cached && !fromCache ? { discarded: true } : {}),
    };
  });
}
