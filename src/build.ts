import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadSite, type Site } from './content/load.ts';
import { publishedSite, type Published } from './content/published.ts';
import { ContentErrors, type ContentError } from './content/errors.ts';
import { routes as routeTable, routingTable, type Route } from './routes/table.ts';
import { loadRenderer, type Renderer } from './render/load-renderer.ts';
import type { RenderedPage } from './render/page.tsx';
import { documentHtml } from './render/document.ts';
import { atomFeed, robotsTxt, sitemapXml } from './render/feeds.ts';
import { inlineScripts } from './render/inline-scripts.ts';
import { bundle, type BundleResult } from './bundle/bundle.ts';
import { DistWriter, metaDirFor, writeMeta } from './write.ts';
import { pageScripts } from './bundle/page-scripts.ts';
import { measureBuild, type PageDocument } from './measure/measure.ts';
import { viewerRequestFunction, viewerResponseFunction } from './routing/cloudfront-functions.ts';
import type { BuildSummary } from './measure/summary.ts';
import type { RoutingTable } from './routing/resolve.ts';
import { HEADERS_FILE, securityHeaders } from './headers.ts';
import { applyOverrides, type SettingsOverrides } from './config.ts';
import { BudgetError, checkBudgets, loadBudgets, type Budgets } from './measure/budgets.ts';

export interface BuildOptions {
  /** The project folder holding content/, templates/ and islands/. */
  root: string;
  outDir: string;
  /** Settings that win over content/site.yaml (from flags and the environment). */
  overrides?: SettingsOverrides;
  /** The build's clock, passed in so every stage below is repeatable; it decides which articles are published. */
  now?: Date;
  /** `site serve`'s preview: drafts and scheduled articles are built too, each marked with a banner. */
  preview?: boolean;
  /** Tags `site serve` adds to every page's head. */
  extraHead?: string;
  /** The page budgets to hold the build to; by default the project's budgets.json (none if it has none). */
  budgets?: Budgets | false;
}

export interface BuildResult {
  site: Site; routes: Route[]; table: RoutingTable; summary: BuildSummary; metaDir: string;
  /** Problems a preview lets through that a production build refuses (links to unpublished articles). */
  warnings: ContentError[];
}

async function timed<T>(stages: Record<string, number>, name: string, fn: () => Promise<T> | T): Promise<T> {
  const start = performance.now();
  try { return await fn(); } finally { stages[name] = (stages[name] ?? 0) + performance.now() - start; }
}

/** Stage 1: the content, validated, with the flags' and environment's settings applied. */
async function loadStage(root: string, overrides: SettingsOverrides | undefined): Promise<Site> {
  const loaded = await loadSite(path.join(root, 'content'));
  return overrides ? { ...loaded, settings: applyOverrides(loaded.settings, overrides) } : loaded;
}

/**
 * Stage 2: the site as published at the build's clock, the one place articles are left out (drafts,
 * scheduled, expired), so no later stage can forget to; a preview keeps drafts and scheduled ones, marked.
 * A link from live content to an article left out stops a production build.
 */
function publishStage(site: Site, now: Date, preview: boolean): Published {
  const published = publishedSite(site, now, preview ? 'preview' : 'production');
  if (published.unpublishedLinks.length && !preview) throw new ContentErrors(published.unpublishedLinks);
  return published;
}

/** Stage 4: every route through the templates (bundled fresh, see buildSite), into head and body markup and the islands it uses. */
async function renderStage(renderer: Promise<Renderer>, site: Site, routes: Route[], now: Date): Promise<RenderedPage[]> {
  const render = await renderer;
  return routes.map((route) => render(route, { settings: site.settings, images: site.images, url: route.url, year: now.getUTCFullYear() }));
}

/** Stage 6: each rendered page as its whole HTML document, pointing at the bundled assets. */
function documentStage(site: Site, pages: RenderedPage[], assets: BundleResult, scripts: string[], extraHead: string | undefined): PageDocument[] {
  return pages.map((page) => ({
    page,
    html: documentHtml(page, {
      css: assets.css, runtime: assets.runtime, preload: pageScripts(page, assets).preload, favicon: site.images['/images/favicon.svg'],
      inlineScripts: scripts, extraHead,
      feed: site.posts.length ? { href: '/blog/feed.xml', title: `${site.settings.name} Insights` } : undefined,
    }),
  }));
}

/** Stage 7: dist/ emptied and filled (assets, images, pages, sitemap, robots, feed), then build/ (routing table, CDN functions, headers). */
async function writeStage(root: string, outDir: string, metaDir: string, input: {
  site: Site; routes: Route[]; table: RoutingTable; assets: BundleResult; documents: PageDocument[]; scripts: string[]; now: Date;
}): Promise<void> {
  const { site, routes, table, assets, documents, scripts, now } = input;
  const writer = new DistWriter(outDir);
  await writer.clean();
  for (const [file, contents] of Object.entries(assets.files)) await writer.write(file, contents);
  for (const image of Object.values(site.images)) await writer.copy(path.join(root, image.file), image.src);
  for (const { page, html } of documents) await writer.write(page.route.file, html);
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
}

/** Stage 9: the page budgets; checked after writing, so that an over-budget build leaves its pages to inspect. */
async function budgetStage(root: string, option: Budgets | false | undefined, summary: BuildSummary): Promise<void> {
  const budgets = option === false ? undefined : option ?? await loadBudgets(root);
  if (!budgets) return;
  const over = checkBudgets(summary.perPage, budgets);
  if (over.length) throw new BudgetError(over, summary.perPage);
  summary.budgetsChecked = true;
}

/**
 * The build as a list of stages, each taking what the ones before it made:
 * load → publish → routes → render → bundle → documents → write → measure → budgets.
 */
export async function buildSite(opts: BuildOptions): Promise<BuildResult> {
  const stages: Record<string, number> = {};
  const now = opts.now ?? new Date();
  const root = path.resolve(opts.root);
  const outDir = path.resolve(opts.outDir);
  const metaDir = metaDirFor(outDir);

  // The templates are bundled by esbuild, in its own process, while the content loads. If the build
  // stops before rendering, the bundle is let finish first, so that nothing writes after it.
  const renderer = loadRenderer(root);
  let published: Published;
  try {
    const loaded = await timed(stages, 'load', () => loadStage(root, opts.overrides));
    published = publishStage(loaded, now, opts.preview ?? false);
  } catch (error) {
    await renderer.catch(() => {});
    throw error;
  }
  const { site, articles, unpublishedLinks } = published;
  const routes = routeTable(site);
  const table = routingTable(routes);
  const pages = await timed(stages, 'render', () => renderStage(renderer, site, routes, now));
  const islands = [...new Set(pages.flatMap((p) => [...p.islands.keys()]))].sort();
  const assets = await timed(stages, 'bundle', () => bundle({ root, outDir, islands }));
  const scripts = inlineScripts(site.settings);
  const documents = await timed(stages, 'write', async () => {
    const documents = documentStage(site, pages, assets, scripts, opts.extraHead);
    await writeStage(root, outDir, metaDir, { site, routes, table, assets, documents, scripts, now });
    return documents;
  });
  const summary = await timed(stages, 'measure', () => measureBuild(documents, assets, stages, articles));
  await budgetStage(root, opts.budgets, summary);
  return { site, routes, table, summary, metaDir, warnings: opts.preview ? unpublishedLinks : [] };
}
