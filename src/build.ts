import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadSite, type ParseMarkdown, type Site, type KnownSources } from './content/load.ts';
import { publishedSite, type Published } from './content/published.ts';
import { ContentErrors, type ContentError } from './content/errors.ts';
import { routes as routeTable, type Route } from './routes/table.ts';
import { routingTable } from './routes/routing-table.ts';
import { siteInputsHash } from './routes/route-inputs.ts';
import { generatorCode } from './generator-code.ts';
import type { RenderedPage } from './render/page.tsx';
import { PageUsesTable, type SharedUses, type StoredPage } from './render/stored-page.ts';
import { DOCUMENT_CODE } from './render/document.ts';
import type { DocumentShell } from './render/page-output.ts';
import { inlineScripts } from './render/inline-scripts.ts';
import { bundle, type BundleResult } from './bundle/bundle.ts';
import { DistWriter, metaDirFor } from './write.ts';
import { closeStaging, openStaging, swapIn, type Staging } from './output/swap.ts';
import { treeParts } from './output/layout.ts';
import { writeSeal } from './output/seal.ts';
import { pathIn } from './output/tree-file.ts';
import { pageScripts } from './bundle/page-scripts.ts';
import { measureBuild, type DocumentFigures } from './measure/measure.ts';
import type { MarkupFigures } from './measure/markup.ts';
import type { BuildSummary, SizeFigure } from './measure/summary.ts';
import type { RoutingTable } from './url-resolution/resolve.ts';
import { checkedStore } from './url-resolution/store-data.ts';
import { applyOverrides, type SettingsOverrides } from './config.ts';
import { BudgetError, checkBudgets, loadBudgets, withExactHtml, type Budgets } from './measure/budgets.ts';
import { bundleBuildCode, type BuildCode } from './pool/code.ts';
import type { BuildWorkers } from './pool/build-workers.ts';
import { BuildCache, LostBodiesError, type RouteInputs } from './cache/build-cache.ts';
import { CACHE_DIR } from './cache/store.ts';
import { hashOf } from './hash.ts';
import { buildImages, type BuiltImages } from './image-stage.ts';
import { planCards, type CardJob } from './cards/plan.ts';
import { sideFiles, writeFiles, writeStage } from './write-stage.ts';
import { sideBySide } from './concurrency.ts';
import { cardFontsHash } from './cards/fonts.ts';
import { engineVersions } from './cards/engine.ts';
import { drawMissingCards, lookUpCards, type BuiltCards } from './cards/card-cache.ts';
import type { BuildSession } from './build-session.ts';
import { startThreads } from './build-threads.ts';
import { pruneStage } from './prune-stage.ts';
import { plannedDocuments } from './search/documents.ts';
import { buildSearch, type BuiltSearch } from './search/search-index.ts';

export interface BuildOptions {
  /** The project folder holding content/, templates/ and islands/. */
  root: string;
  /** The content folder, if not root/content (a test's copy, say). */
  contentDir?: string;
  /** Where image variants (images/) and share cards (cards/) are cached; by default the build cache, root/.site-cache, git-ignored. */
  cacheDir?: string;
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
  /** What a long-running `site serve` keeps between its builds. */
  session?: BuildSession;
  /** Below this many markdown files or pages to redo, work stays on the main thread (see pool/build-workers.ts). */
  poolThreshold?: number;
  /** Where a one-line warning goes (a discarded cache); standard error by default. */
  warn?: (line: string) => void;
}

export type { BuildSession } from './build-session.ts';

/** Entries serve keeps in memory before starting afresh: far more than a site's pages and files, far less than a gigabyte. */
const SESSION_MEMORY_MAX = 20_000;

export interface BuildResult {
  site: Site; routes: Route[]; table: RoutingTable; summary: BuildSummary; metaDir: string;
  /** Markdown files parsed and pages rendered by this build; the rest came from the cache. */
  redone: { parsed: number; rendered: number; pool: boolean; documents: number;
    /** Routes whose key was worked out from their props, not found by their inputs (see RouteInputsLookup). */
    keyed: number };
  /** Problems a preview lets through that a production build refuses (links to unpublished articles). */
  warnings: ContentError[];
  /** What `site serve` keeps to answer an article's save without building again (serve/live-site.ts). */
  live: LiveBuild;
}

/** The build's inputs as it held them: the content as loaded (before publishing), its code, the documents' shell. */
export interface LiveBuild { loaded: Site; code: BuildCode; shell: DocumentShell; cardsCode: string; contentDir: string; cacheDir: string; now: Date; preview: boolean }

async function timed<T>(stages: Record<string, number>, name: string, fn: () => Promise<T> | T): Promise<T> {
  const start = performance.now();
  try { return await fn(); } finally { stages[name] = (stages[name] ?? 0) + performance.now() - start; }
}

/** `load`: the content, validated, with the flags' and environment's settings applied. */
async function loadStage(contentDir: string, overrides: SettingsOverrides | undefined, parse: ParseMarkdown, sources: KnownSources): Promise<Site> {
  const loaded = await loadSite(contentDir, parse, sources);
  return overrides ? { ...loaded, settings: applyOverrides(loaded.settings, overrides) } : loaded;
}

/**
 * After `load` (untimed): the site as published at the build's clock, the one place articles are left out (drafts,
 * scheduled, expired), so no later stage can forget to; a preview keeps drafts and scheduled ones, marked.
 * A link from live content to an article left out stops a production build.
 */
function publishStage(site: Site, now: Date, preview: boolean): Published {
  const published = publishedSite(site, now, preview ? 'preview' : 'production');
  if (published.unpublishedLinks.length && !preview) throw new ContentErrors(published.unpublishedLinks);
  return published;
}

/** A page once written to dist/: what the images stage and the summary still read; its markup is let go. */
export type WrittenPage = Omit<RenderedPage, 'head' | 'body'>;
/** What every document is made of besides its page, and that as text for the pages' keys. */
interface DocumentMaker { shell: DocumentShell; inputs: string }

/**
 * `render`: every route through the templates (bundled fresh; unchanged pages from the cache), each
 * page made into its document, written into the staging tree and measured by the thread that
 * rendered it (a worker, on a large build), which hands back only its figures: the main thread never
 * holds a page's markup. Returns the pages, without their markup, in the routes' order.
 */
async function renderStage(input: {
  site: Site; routes: Route[]; siteInputs: string; now: Date; code: BuildCode; cache: BuildCache; workers: BuildWorkers;
  writer: DistWriter; documents: DocumentMaker; sizes: Map<string, SizeFigure>; markup: DocumentFigures;
}): Promise<{ written: WrittenPage[]; documents: number }> {
  const { site, routes, siteInputs, now, code, cache, workers, writer, documents: maker, sizes, markup } = input;
  const ctx = { settings: site.settings, images: site.images, year: now.getUTCFullYear() };
  const order = new Map(routes.map((route, i) => [route, i]));
  const written = new Array<WrittenPage>(routes.length);
  // What a document is made of besides its page: a change here remakes every document.
  const shell = hashOf(maker.inputs);
  const keep = (page: WrittenPage, size: SizeFigure, figures: MarkupFigures) => {
    sizes.set(page.route.file, size);
    markup.set(page.route.file, figures);
    written[order.get(page.route)!] = page;
  };
  let documents = 0;
  const table = new PageUsesTable(writer);
  const lastAbout = (route: Route) => writer.lastAbout(route.file) as StoredPage | undefined;
  // The site and shell each kept once in the file list, every page naming them by their index there.
  const shellIndex = writer.share(shell);
  const refs = (inputs: RouteInputs) => ({ site: writer.share(inputs.site), ...(inputs.body === undefined ? {} : { body: inputs.body }), shell: shellIndex });
  const last = (route: Route, inputs: RouteInputs) => {
    const about = lastAbout(route);
    return about && about.body === inputs.body && writer.lastShared(about.site) === inputs.site ? writer.lastKey(route.file) : undefined;
  };
  const keepPage = (route: Route, shared: SharedUses, size: SizeFigure) =>
    keep({ route, islands: shared.islands, images: shared.uses.images, preload: shared.uses.preload }, size, shared.uses.markup);
  await cache.render(routes, ctx, code.renderHash, { site: siteInputs, last }, async (route, key, source) => {
    // The document on disk was made from this very page and shell, and nobody has touched it: it stands.
    const about = lastAbout(route);
    if (!about || writer.lastShared(about.shell) !== shell) return false;
    const kept = await writer.keep(route.file, key);
    const shared = kept && table.last(about);
    if (!kept || !shared) return false;
    // Listed again: its uses, site and shell at their places in this build's file list (its key may have been worked out from its props this time).
    writer.add(route.file, { ...kept, about: table.stored(shared, { cut: about.cut, ...refs(source) }) });
    keepPage(route, shared, { raw: kept.size, gzip: kept.gzip! });
    return true;
  }, (jobs, read, settle) => workers.pages(jobs.map((job) => ({ ...job, before: writer.before(job.route.file), ...table.previousPage(lastAbout(job.route), writer.lastKey(job.route.file), job.key) })), { ctx, shell: maker.shell, trees: writer.siteTrees }, read, async (job, out) => {
    await settle(job, out);
    // Not made (its article's body was lost from the cache): the cache has thrown it out, and the build runs again.
    if ('lostBody' in out) return;
    documents++;
    const shared = table.made({ islands: out.islands, images: out.images, ...(out.preload ? { preload: out.preload } : {}), markup: out.markup });
    writer.add(job.route.file, { ...out.entry, key: job.key(), about: table.stored(shared, { cut: out.cut, ...refs(job.inputs) }) });
    keepPage(job.route, shared, { raw: out.entry.size, gzip: out.entry.gzip });
  }));
  return { written, documents };
}

/** `images`: the variants of every image the pages use. Pages alike share their images' list (see render/stored-page.ts): each list is read once. */
function imagesStage(site: Site, pages: WrittenPage[], contentDir: string, cacheDir: string): Promise<BuiltImages> {
  return buildImages({ images: site.images, uses: [...new Set(pages.map((p) => p.images))].flat(), contentDir, cacheDir });
}

/** Part of `render`: what every page's document is made of besides the page (made in the thread that renders it, see render/page-output.ts). */
function documentMaker(site: Site, assets: BundleResult, scripts: string[], extraHead: string | undefined): DocumentMaker {
  const feed = site.posts.length ? { href: '/blog/feed.xml', title: `${site.settings.name} Insights` } : undefined;
  const favicon = site.images['/images/favicon.svg'];
  const shell: DocumentShell = { css: assets.css, runtime: assets.runtime, islands: assets.islands, closure: assets.closure, favicon, inlineScripts: scripts, extraHead, feed };
  return {
    shell,
    // The functions' own text too: a generator that makes documents differently remakes them all.
    inputs: JSON.stringify([DOCUMENT_CODE, String(pageScripts), assets.css, assets.runtime, assets.islands, assets.closure, favicon, scripts, extraHead, feed]),
  };
}

/**
 * After `measure` (untimed): the page budgets; checked after writing, so that an over-budget build leaves its pages to
 * inspect, in the staging tree: dist/ keeps the last build that passed.
 */
async function budgetStage(root: string, option: Budgets | false | undefined, summary: BuildSummary, read: (url: string) => Promise<Uint8Array>): Promise<void> {
  const budgets = option === false ? undefined : option ?? await loadBudgets(root);
  if (!budgets) return;
  summary.perPage = await withExactHtml(summary.perPage, budgets, read);
  const over = checkBudgets(summary.perPage, budgets);
  if (over.length) throw new BudgetError(over, summary.perPage);
  summary.budgetsChecked = true;
}

/**
 * `swap`: the completion manifest, written last into the staging tree, then the swap that makes
 * it dist/ (and its routing table, headers and CDN functions those of build/) in one step.
 */
async function swapStage(staging: Staging, writer: DistWriter, about: { preview: boolean; clock?: Date }): Promise<void> {
  await writeSeal(writer.outDir, writer.files(), about);
  await swapIn(staging);
}

/**
 * The build, as the summary times it (docs/architecture.md#the-build-stage-by-stage):
 *
 *     code ─┐                                 (esbuild: the build's own code)
 *     bundle ─┐                               (esbuild: islands and stylesheet; needs no content)
 *     load ───┴─┴→ publish, routes, cards planned (untimed)
 *                  ├─ cards ───────────┐      (drawn on the workers, or by a process at nice 19)
 *                  ├─ search ──────────┤      (pagefind, a process of its own)
 *                  └─ render → images ─┴→ write → measure → budgets → swap → prune
 *
 * A 2-core machine is CPU-bound from start to end, so whatever needs nothing from another stage
 * runs beside it: bundling beside loading, cards and the search index beside rendering. Every file
 * goes into a staging tree beside dist/, swapped in only once every stage has passed.
 */
export async function buildSite(opts: BuildOptions): Promise<BuildResult> {
  const staging = await openStaging(opts.outDir, path.resolve(opts.root));
  try {
    // Once more if an article's body was lost from the cache: its entries are gone, and it is parsed again.
    return await buildStages(opts, staging).catch((error: unknown) => {
      if (error instanceof LostBodiesError) return buildStages(opts, staging);
      throw error;
    });
  } finally {
    await closeStaging(staging);
  }
}

/** What one run of the stages works with: its settings, resolved once, and the time each stage took. */
interface Run {
  opts: BuildOptions; stages: Record<string, number>; startedAt: number; now: Date;
  root: string; outDir: string; contentDir: string; cacheDir: string;
  session?: BuildSession; fresh: boolean; warn: (line: string) => void;
}

function startRun(opts: BuildOptions): Run {
  const root = path.resolve(opts.root);
  const session = opts.session;
  // Read and reset at the start: a template saved while this build runs makes the next one bundle again.
  const fresh = !session || session.codeChanged;
  if (session) session.codeChanged = false;
  if (session && (session.memory?.size ?? 0) > SESSION_MEMORY_MAX) session.memory = undefined;
  if (session) session.memory ??= new Map();
  return {
    opts, stages: {}, startedAt: performance.now(), now: opts.now ?? new Date(), root, outDir: path.resolve(opts.outDir),
    contentDir: path.resolve(opts.contentDir ?? path.join(root, 'content')), cacheDir: path.resolve(opts.cacheDir ?? path.join(root, CACHE_DIR)),
    session, fresh, warn: opts.warn ?? ((line: string) => process.stderr.write(line + '\n')),
  };
}

async function buildStages(opts: BuildOptions, staging: Staging): Promise<BuildResult> {
  const run = startRun(opts);
  const { stages, session, now, root, cacheDir, warn } = run;
  const time = <T>(name: string, fn: () => Promise<T> | T) => timed(stages, name, fn);

  // code, bundle: started at once, needing no content (esbuild twice: the build's own code, then the
  // site's islands and stylesheet), and the workers with them on a large first build.
  const codeReady = time('code', async () => !run.fresh && session?.code ? session.code : bundleBuildCode(root)).catch((error: unknown) => error as Error);
  const assetsReady = !run.fresh && session?.assets ? Promise.resolve(session.assets) : time('bundle', () => bundle({ root, outDir: run.outDir, cacheDir: path.join(root, CACHE_DIR) }));
  assetsReady.catch(() => { /* awaited, and reported, before rendering */ });
  const writer = new DistWriter(treeParts(staging.next), staging.live === undefined ? undefined : treeParts(staging.live));
  // The last build's file list read, and the staging tree listed (in a thread of its own on a large site) while the content loads.
  writer.begin();
  const cache = await BuildCache.open(root, session?.memory);
  const threads = startThreads({ root, contentDir: run.contentDir, cacheDir, poolThreshold: opts.poolThreshold, session }, cache, codeReady);
  const sizes = new Map<string, SizeFigure>();
  const markup: DocumentFigures = new Map();

  let search: ReturnType<typeof buildSearch> | undefined;
  let made;
  let threadsGone: Promise<void> | undefined;
  try {
    // load: the content, validated, each markdown file parsed on the workers once the code is there.
    const loaded = await time('load', () => loadStage(run.contentDir, opts.overrides, threads.parse, cache.sources));
    const code = await codeReady;
    // Until the templates bundle again, every build must try again.
    if (code instanceof Error) { if (session) session.codeChanged = true; throw code; }
    const workers = await threads.forCode(code);
    // Untimed: the site as published at the build's clock, its routes, each page's share card named
    // (before any page renders, since the head links to it), and the routing table.
    const { site, articles, unpublishedLinks } = publishStage(loaded, now, opts.preview ?? false);
    const cardsCode = hashOf(code.cardsHash, cardFontsHash(), engineVersions());
    const { routes, jobs: cardJobs } = planCards(site, routeTable(site), run.contentDir, cardsCode);
    const table = routingTable(routes);
    // Before any page renders: a table the CloudFront KeyValueStore would refuse stops the build (StoreLimitError).
    const store = checkedStore(table);
    const assets = await assetsReady;
    const scripts = inlineScripts(site.settings);
    const documents = documentMaker(site, assets, scripts, opts.extraHead);
    // The cards the cache holds, looked up before the pages render: then the side-by-side below writes
    // them beside the pages, not after.
    const lookup = await time('cards', () => lookUpCards(cardJobs, cacheDir, cardsGeneration(cardsCode)));

    // cards, search, render: side by side, since a 2-core machine is CPU-bound throughout. The cards
    // are drawn on the workers on a large site, else by the card process at the lowest priority (on
    // the CPU that rendering and search leave), and written with the assets; the search
    // index is made by pagefind, a process of its own, and reused whole when its documents are
    // unchanged; the pages are rendered, written and measured by the workers.
    search = site.settings.search ? buildSearch(root, plannedDocuments(site), cacheDir, (key) => cache.body(key)) : undefined;
    const indexed = search && time('search', () => search!.built);
    indexed?.catch(() => { /* awaited below, or by serve */ });
    // serve serves the index from the cache itself, as soon as it is ready; a build writes it into the output.
    if (session) session.search = indexed;
    const [rendered, cards, searched] = await sideBySide<[Awaited<ReturnType<typeof renderStage>> & { images: BuiltImages }, BuiltCards, BuiltSearch | undefined]>([
      time('render', () => renderStage({ site, routes, siteInputs: siteInputsHash(site, generatorCode(), cardsCode), now, code, cache, workers, writer, documents, sizes, markup }))
        // images: as soon as the pages say which they use, beside the cards and the index still being made.
        .then(async (out) => ({ ...out, images: await time('images', () => imagesStage(site, out.written, run.contentDir, cacheDir)) })),
      time('cards', () => drawMissingCards(lookup, (missing, each) => workers.cards(missing, each)))
        .then(async (built) => { await time('write', () => writeFiles(writer, sizes, sideFiles(assets, built))); return built; }),
      session || !indexed ? Promise.resolve(undefined)
        : indexed.then(async (built) => { await time('write', () => writeFiles(writer, sizes, [...built.files].map(([file, from]) => ({ file, from })))); return built; }),
    ], threads.stop);
    made = { loaded, shell: documents.shell, code, site, articles, unpublishedLinks, routes, table, store, assets, scripts, pages: rendered.written, documents: rendered.documents, images: rendered.images, cards, searched, cardsCode };
  } finally {
    // Every body the index needs is read before the cache is saved (a save may rewrite the pack), and
    // a failed build's indexer is let finish: pagefind's service is one per process, and serve builds again.
    await search?.bodiesRead;
    if (!session) await search?.built.catch(() => undefined);
    // Nor does a build that failed early leave esbuild writing its bundles into the cache after it reports.
    await Promise.allSettled([codeReady, assetsReady]);
    // A cache that cannot be written costs the next build time, not this one its pages.
    await cache.save().catch((error: unknown) => warn(`warning: ${CACHE_DIR}/ not saved: ${error instanceof Error ? error.message : String(error)}`));
    if (cache.discarded) warn(`warning: ${cache.discarded} unreadable entr${cache.discarded === 1 ? 'y' : 'ies'} in ${CACHE_DIR}/ discarded and rebuilt`);
    threadsGone = threads.stop();
  }
  const { site, routes, table, pages, images, cards, searched } = made;

  // Then one after another: write → measure → budgets → swap → prune.
  await time('write', () => writeStage(root, treeParts(staging.next).meta, { writer, sizes, site, routes, table, images, scripts: made.scripts, now, session, fresh: run.fresh, store: made.store.entries }));
  if (session) Object.assign(session, { code: made.code, assets: made.assets });
  const summary = await time('measure', () => measureBuild(pages, markup, made.assets, stages, sizes, made.articles, { site: site.images, built: images }));
  summary.cards = { drawn: cards.drawn, reused: cards.reused, bytes: cards.bytes };
  summary.store = made.store.figures;
  if (searched) summary.search = { pages: searched.pages, bytes: searched.bytes, ms: searched.ms, indexed: searched.indexed };
  // A page's document, as written into the staging tree: what the budgets gzip again at level 9 near a limit.
  const fileOf = new Map(pages.map((p) => [p.route.url, p.route.file]));
  await budgetStage(root, opts.budgets, summary, (url) => readFile(pathIn(writer.outDir, fileOf.get(url)!))).catch((error: unknown) => {
    if (error instanceof BudgetError) error.keptAt = { pages: writer.outDir, outDir: run.outDir };
    throw error;
  });
  await time('swap', () => swapStage(staging, writer, { preview: opts.preview ?? false, clock: opts.now }));
  await time('prune', () => pruneStage(run, images.files, cardsGeneration(made.cardsCode), summary));
  summary.wallMs = performance.now() - run.startedAt;
  await threadsGone;
  return { site, routes, table, summary, metaDir: metaDirFor(run.outDir), redone: { ...cache.counts, pool: threads.startedOnce, documents: made.documents }, warnings: opts.preview ? made.unpublishedLinks : [],
    live: { loaded: made.loaded, code: made.code, shell: made.shell, cardsCode: made.cardsCode, contentDir: run.contentDir, cacheDir, now, preview: opts.preview ?? false } };
}

/** The cache folder of the cards drawn by one version of the card code (see cards/card-cache.ts). */
export const cardsGeneration = (cardsCode: string) => cardsCode.slice(0, 16);
