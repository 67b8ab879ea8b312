import type { BundleResult } from '../bundle/bundle.ts';
import { pageScripts } from '../bundle/page-scripts.ts';
import type { PageIslands } from '../page-api/island.tsx';
import type { ImageUse } from '../images/picture.ts';
import { markupFigures } from './markup.ts';
import type { BuildSummary, ImageStats, SizeFigure } from './summary.ts';
import type { ArticleFigures } from '../content/published.ts';
import type { SiteImage } from '../images/site-image.ts';
import { pageImageFigures } from '../images/figures.ts';

/** What the write stage measured of each page's document as it wrote it (the documents are not kept). */
export type DocumentFigures = Map<string, ReturnType<typeof markupFigures>>;
/** What the summary reads of a written page. */
interface WrittenPage { route: { url: string; file: string; template: string }; islands: PageIslands; images: ImageUse[] }

/**
 * The build's figures, from what was written: raw and gzip sizes of the HTML, CSS and JS, the
 * JavaScript each page loads before interaction and in all (per page and per template), what the
 * budgets read from each page's markup and what its images weigh; beside them, the article counts
 * the publish stage made.
 * Pure: it reads no file, and gzips nothing: `sizes` (public path → raw and gzip bytes) come from the
 * write stage, which measured them off the main thread.
 */
export function measureBuild(pages: WrittenPage[], markup: DocumentFigures, assets: BundleResult, stages: Record<string, number>, sizes: Map<string, SizeFigure>, articles: ArticleFigures, images: { site: Record<string, SiteImage>; built: { bytes: Map<string, number>; stats: ImageStats } }): BuildSummary {
  const sizeOf = (file: string) => {
    const size = sizes.get(file);
    if (!size) throw new Error(`no size was measured for ${file}`);
    return size;
  };
  const summary: BuildSummary = { pages: pages.length, perPage: [], html: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 }, js: { raw: 0, gzip: 0 }, jsByTemplate: {}, images: images.built.stats, stages, articles };
  const jsSize = new Map<string, number>();
  let cssGzip = 0;
  for (const file of Object.keys(assets.files)) {
    const size = sizeOf(file);
    const bucket = file.endsWith('.css') ? summary.css : summary.js;
    bucket.raw += size.raw; bucket.gzip += size.gzip;
    if (file.endsWith('.js')) jsSize.set(file, size.gzip);
    if (file === assets.css) cssGzip = size.gzip;
  }
  const sum = (set: Set<string>) => [...set].reduce((n, f) => n + (jsSize.get(f) ?? 0), 0);
  // Pages alike share their islands and images (see render/stored-page.ts): each worked out once.
  const scripts = new Map<WrittenPage['islands'], { jsInitial: number; jsAll: number }>();
  const figures = new Map<WrittenPage['images'], ReturnType<typeof pageImageFigures>>();
  for (const page of pages) {
    let js = scripts.get(page.islands);
    if (!js) {
      const { eager, every } = pageScripts(page, assets);
      scripts.set(page.islands, (js = { jsInitial: sum(eager), jsAll: sum(every) }));
    }
    let imageFigures = figures.get(page.images);
    if (!imageFigures) figures.set(page.images, (imageFigures = pageImageFigures(page.images, images.site, images.built.bytes)));
    const size = sizeOf(page.route.file);
    summary.html.raw += size.raw; summary.html.gzip += size.gzip;
    const row = (summary.jsByTemplate[page.route.template] ??= { initial: 0, all: 0, pages: 0 });
    row.initial = Math.max(row.initial, js.jsInitial); row.all = Math.max(row.all, js.jsAll); row.pages++;
    summary.perPage.push({ url: page.route.url, html: size.gzip, css: cssGzip, ...js, ...markup.get(page.route.file)!, ...imageFigures });
  }
  return summary;
}
