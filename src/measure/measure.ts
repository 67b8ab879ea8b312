import type { BundleResult } from '../bundle/bundle.ts';
import { pageScripts } from '../bundle/page-scripts.ts';
import type { RenderedPage } from '../render/page.tsx';
import { markupFigures } from './budgets.ts';
import { sizeOf, type BuildSummary } from './summary.ts';
import type { ArticleFigures } from '../content/published.ts';

/** A page and the HTML document written for it. */
export interface PageDocument { page: RenderedPage; html: string }

/**
 * The build's figures, from what was written: raw and gzip sizes of the HTML, CSS and JS, the
 * JavaScript each page loads before interaction and in all (per page and per template), and what
 * the budgets read from each page's markup; beside them, the article counts the publish stage made.
 * Pure: it reads no file.
 */
export function measureBuild(documents: PageDocument[], assets: BundleResult, stages: Record<string, number>, articles: ArticleFigures): BuildSummary {
  const summary: BuildSummary = { pages: documents.length, perPage: [], html: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 }, js: { raw: 0, gzip: 0 }, jsByTemplate: {}, stages, articles };
  const jsSize = new Map<string, number>();
  let cssGzip = 0;
  for (const [file, contents] of Object.entries(assets.files)) {
    const size = sizeOf(contents);
    const bucket = file.endsWith('.css') ? summary.css : summary.js;
    bucket.raw += size.raw; bucket.gzip += size.gzip;
    if (file.endsWith('.js')) jsSize.set(file, size.gzip);
    if (file === assets.css) cssGzip = size.gzip;
  }
  const sum = (set: Set<string>) => [...set].reduce((n, f) => n + (jsSize.get(f) ?? 0), 0);
  for (const { page, html } of documents) {
    const { eager, every } = pageScripts(page, assets);
    const size = sizeOf(html);
    summary.html.raw += size.raw; summary.html.gzip += size.gzip;
    const row = (summary.jsByTemplate[page.route.template] ??= { initial: 0, all: 0, pages: 0 });
    row.initial = Math.max(row.initial, sum(eager)); row.all = Math.max(row.all, sum(every)); row.pages++;
    summary.perPage.push({ url: page.route.url, html: size.gzip, css: cssGzip, jsInitial: sum(eager), jsAll: sum(every), ...markupFigures(html) });
  }
  return summary;
}
