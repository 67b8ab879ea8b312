import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadSite, type Site } from './content/load.ts';
import { routes as routeTable, routingTable, type Route } from './routes.ts';
import { loadRenderer } from './render/load-renderer.ts';
import type { RenderedPage } from './render/page.tsx';
import { documentHtml } from './render/document.ts';
import { atomFeed, robotsTxt, sitemapXml } from './render/feeds.ts';
import { inlineScripts } from './render/inline-scripts.ts';
import { bundle, type BundleResult } from './bundle/bundle.ts';
import { DistWriter, metaDirFor, writeMeta } from './write.ts';
import { viewerRequestFunction, viewerResponseFunction } from './routing-function.ts';
import { sizeOf, type BuildSummary } from './summary.ts';
import type { RoutingTable } from './routing.ts';
import { HEADERS_FILE, securityHeaders } from './headers.ts';
import { applyOverrides, type SettingsOverrides } from './config.ts';
import { BudgetError, checkBudgets, loadBudgets, markupFigures, type Budgets } from '../quality/budgets.ts';

export interface BuildOptions {
  /** The project folder holding content/, templates/ and islands/. */
  root: string;
  outDir: string;
  /** Settings that win over content/site.yaml (from flags and the environment). */
  overrides?: SettingsOverrides;
  /** The build's clock, passed in so every stage below is repeatable. */
  now?: Date;
  /** Tags `site serve` adds to every page's head. */
  extraHead?: string;
  /** The page budgets to hold the build to; by default the project's budgets.json (none if it has none). */
  budgets?: Budgets | false;
}

export interface BuildResult { site: Site; routes: Route[]; table: RoutingTable; summary: BuildSummary; metaDir: string }

async function timed<T>(stages: Record<string, number>, name: string, fn: () => Promise<T> | T): Promise<T> {
  const start = performance.now();
  try { return await fn(); } finally { stages[name] = (stages[name] ?? 0) + performance.now() - start; }
}

function pageScripts(page: RenderedPage, assets: BundleResult) {
  const eager = new Set<string>();
  const every = new Set<string>();
  if (assets.runtime && page.islands.size) { eager.add(assets.runtime); every.add(assets.runtime); }
  for (const [name, strategies] of page.islands) {
    const url = assets.islands[name];
    if (!url) continue;
    for (const f of assets.closure[url] ?? [url]) {
      every.add(f);
      if (strategies.has('load') || strategies.has('idle')) eager.add(f);
    }
  }
  return { eager, every, preload: [...eager].filter((u) => u !== assets.runtime && [...page.islands].some(([, s]) => s.has('load'))) };
}

/** The build, stage by stage: load → routes → render → bundle → write. */
export async function buildSite(opts: BuildOptions): Promise<BuildResult> {
  const stages: Record<string, number> = {};
  const now = opts.now ?? new Date();
  const root = path.resolve(opts.root);
  const outDir = path.resolve(opts.outDir);

  // The templates are bundled by esbuild, in its own process, while the content loads. If the
  // content is refused, the bundle is let finish before the error goes up, so nothing writes after.
  const renderer = loadRenderer(root);
  const loaded = await timed(stages, 'load', () => loadSite(path.join(root, 'content')))
    .catch(async (error: unknown) => { await renderer.catch(() => {}); throw error; });
  const site: Site = opts.overrides ? { ...loaded, settings: applyOverrides(loaded.settings, opts.overrides) } : loaded;
  const routes = routeTable(site);
  const table = routingTable(routes);

  const pages = await timed(stages, 'render', async () => {
    const render = await renderer;
    return routes.map((route) => render(route, { settings: site.settings, images: site.images, url: route.url, year: now.getUTCFullYear() }));
  });

  const used = [...new Set(pages.flatMap((p) => [...p.islands.keys()]))].sort();
  const assets = await timed(stages, 'bundle', () => bundle({ root, outDir, islands: used }));

  const writer = new DistWriter(outDir);
  const summary: BuildSummary = { pages: pages.length, perPage: [], html: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 }, js: { raw: 0, gzip: 0 }, jsByTemplate: {}, stages };
  const metaDir = metaDirFor(outDir);
  const scripts = inlineScripts(site.settings);
  await timed(stages, 'write', async () => {
    await writer.clean();
    const jsSize = new Map<string, number>();
    let cssGzip = 0;
    for (const [file, contents] of Object.entries(assets.files)) {
      await writer.write(file, contents);
      const size = sizeOf(contents);
      const bucket = file.endsWith('.css') ? summary.css : summary.js;
      bucket.raw += size.raw; bucket.gzip += size.gzip;
      if (file.endsWith('.js')) jsSize.set(file, size.gzip);
      if (file === assets.css) cssGzip = size.gzip;
    }
    for (const image of Object.values(site.images)) await writer.copy(path.join(root, image.file), image.src);
    for (const page of pages) {
      const { eager, every, preload } = pageScripts(page, assets);
      const html = documentHtml(page, {
        css: assets.css, runtime: assets.runtime, preload, favicon: site.images['/images/favicon.svg'],
        inlineScripts: scripts, extraHead: opts.extraHead,
        feed: site.posts.length ? { href: '/blog/feed.xml', title: `${site.settings.name} Insights` } : undefined,
      });
      await writer.write(page.route.file, html);
      const size = sizeOf(html);
      summary.html.raw += size.raw; summary.html.gzip += size.gzip;
      const sum = (set: Set<string>) => [...set].reduce((n, f) => n + (jsSize.get(f) ?? 0), 0);
      const row = (summary.jsByTemplate[page.route.template] ??= { initial: 0, all: 0, pages: 0 });
      row.initial = Math.max(row.initial, sum(eager)); row.all = Math.max(row.all, sum(every)); row.pages++;
      summary.perPage.push({ url: page.route.url, html: size.gzip, css: cssGzip, jsInitial: sum(eager), jsAll: sum(every), ...markupFigures(html) });
    }
    await writer.write('/sitemap.xml', sitemapXml(site, routes));
    await writer.write('/robots.txt', robotsTxt(site));
    const feed = atomFeed(site, now);
    if (feed) await writer.write('/blog/feed.xml', feed);
    await writeMeta(metaDir, {
      'routing.json': JSON.stringify(table, null, 2) + '\n',
      'cloudfront/viewer-request.js': await viewerRequestFunction(root, table),
      'cloudfront/viewer-response.js': await viewerResponseFunction(root, table),
      [HEADERS_FILE]: JSON.stringify(securityHeaders(site.settings, scripts), null, 2) + '\n',
    });
  });
  // Checked after the write stage, so that an over-budget build leaves its pages to inspect.
  const budgets = opts.budgets === false ? undefined : opts.budgets ?? await loadBudgets(root);
  if (budgets) {
    const over = checkBudgets(summary.perPage, budgets);
    if (over.length) throw new BudgetError(over, summary.perPage);
    summary.budgetsChecked = true;
  }
  return { site, routes, table, summary, metaDir };
}
