// The build's entry: `buildSite` runs the stages below, in the order they start; each stage is a
// module of this folder (docs/architecture.md#the-build-stage-by-stage).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { siteInputsHash } from '../routes/route-inputs.ts';
import { generatorCode } from '../generator-code.ts';
import { inlineScripts } from '../render/inline-scripts.ts';
import { bundle } from '../bundle/bundle.ts';
import { closeStaging, openStaging, type Staging } from '../output/swap.ts';
import { pathIn } from '../output/tree-file.ts';
import { measureBuild, type DocumentFigures } from '../measure/measure.ts';
import type { SizeFigure } from '../measure/summary.ts';
import { bundleBuildCode } from '../pool/code.ts';
import { BuildCache, LostBodiesError } from '../cache/build-cache.ts';
import { CACHE_DIR, deployFilesOf, TREES, treeParts } from '../output/layout.ts';
import { parseStoreDataFile, STORE_DATA_FILE } from '../url-resolution/store-data.ts';
import { sideBySide } from '../concurrency.ts';
import { cardsGeneration, drawMissingCards, lookUpCards, type BuiltCards } from '../cards/card-cache.ts';
import { plannedDocuments } from '../search/documents.ts';
import { buildSearch, type BuiltSearch } from '../search/search-index.ts';
import { DistWriter } from './dist-writer.ts';
import type { ListPlaces } from './file-list.ts';
import { startRun, timed, type BuildOptions, type BuildResult } from './run.ts';
import { startThreads } from './threads.ts';
import { loadStage } from './load-stage.ts';
import { planStage } from './plan-stage.ts';
import { documentMaker, renderStage, type WrittenPage } from './render-stage.ts';
import { imagesStage, type BuiltImages } from './image-stage.ts';
import { FEED_FILE, sideFiles, writeFiles, writeStage } from './write-stage.ts';
import { budgetStage } from './budget-stage.ts';
import { cmsStage } from './cms-stage.ts';
import { swapStage } from './swap-stage.ts';
import { pruneStage } from './prune-stage.ts';
import { twinStage } from './twin-stage.ts';
import { listContent, newRecordId, quickOptions, readRecord, sameInputs, signatureOf, writeRecord, type QuickInputs } from './build-record.ts';
import { notedFrontDigest } from '../content/front-digest.ts';
import { notedFrontHash } from '../content/front-hash.ts';

export type { BuildOptions, BuildResult, LiveBuild, PlannedBuild } from './run.ts';
export type { BuildSession } from './session.ts';

/**
 * The build, as the summary times it (docs/architecture.md#the-build-stage-by-stage):
 *
 *     code ─┐                                 (esbuild: the build's own code)
 *     bundle ─┐                               (esbuild: islands and stylesheet; needs no content)
 *     load ───┴─┴→ publish, routes, cards planned (untimed)
 *                  ├─ cards ───────────┐      (drawn on the workers, or by a process at nice 19)
 *                  ├─ search ──────────┤      (pagefind, a process of its own)
 *                  └─ render → images ─┴→ write → measure → budgets → swap → twin → prune
 *
 * A 2-core machine is CPU-bound from start to end, so whatever needs nothing from another stage
 * runs beside it: bundling beside loading, cards and the search index beside rendering. Every file
 * goes into a staging tree in .site/builds/, swapped in only once every stage has passed.
 */
export async function buildSite(opts: BuildOptions): Promise<BuildResult> {
  const staging = await openStaging(opts.outDir, path.resolve(opts.root), { family: opts.family, warn: opts.warn });
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

async function buildStages(opts: BuildOptions, staging: Staging): Promise<BuildResult> {
  const run = startRun(opts);
  const { stages, session, now, root, contentDir, cacheDir, warn } = run;
  const preview = opts.preview ?? false;
  const time = <T>(name: string, fn: () => Promise<T> | T) => timed(stages, name, fn);

  // code, bundle: started at once, needing no content (esbuild twice: the build's own code, then the
  // site's islands and stylesheet), and the workers with them on a large first build.
  const codeReady = time('code', async () => (!run.fresh && session?.code ? session.code : bundleBuildCode(root)))
    .catch((error: unknown) => error as Error);
  const assetsReady = !run.fresh && session?.assets
    ? Promise.resolve(session.assets)
    : time('bundle', () => bundle({ root, cacheDir: path.join(root, CACHE_DIR) }));
  assetsReady.catch(() => { /* awaited, and reported, before rendering */ });
  // The content's stats before the load reads it (a file written meanwhile is read again next time), for the build's record.
  const listed = session || preview ? undefined : listContent(contentDir);
  const writer = new DistWriter(treeParts(staging.next), staging.live === undefined ? undefined : treeParts(staging.live));
  // The last build's file list read, and the staging tree listed (in a thread of its own on a large site) while the content loads.
  writer.begin();
  const cache = await BuildCache.open(root, session?.memory);
  const threads = startThreads({ root, contentDir, cacheDir, poolThreshold: opts.poolThreshold, session }, cache, codeReady);
  const sizes = new Map<string, SizeFigure>();
  const markup: DocumentFigures = new Map();

  let search: ReturnType<typeof buildSearch> | undefined;
  let made;
  let threadsGone: Promise<void> | undefined;
  try {
    // load: the content, validated, each markdown file parsed on the workers once the code is there.
    const loaded = await time('load', () => loadStage(contentDir, opts.overrides, threads.parse, cache.sources));
    const code = await codeReady;
    // Until the templates bundle again, every build must try again.
    if (code instanceof Error) { if (session) session.codeChanged = true; throw code; }
    const workers = await threads.forCode(code);
    // Untimed: published, routes, cards named, routing table.
    // The entries of the build this one replaces: its deploy holds them and this one's together for a while.
    const previousStore = await readFile(path.join(deployFilesOf(run.outDir), STORE_DATA_FILE), 'utf8').then(parseStoreDataFile, () => undefined);
    const plan = await planStage(loaded, code, { now, preview, contentDir, ...(previousStore ? { previousStore } : {}) });
    const { site, routes, cardsCode } = plan;
    const assets = await assetsReady;
    const scripts = inlineScripts(site.settings);
    const documents = documentMaker(site, assets, scripts, opts.extraHead, contentDir);
    await opts.planned?.({ site, routes, table: plan.table, live: { loaded, code, shell: documents.shell, cardsCode, contentDir, cacheDir, now, preview } });
    // The cards the cache holds, looked up before the pages render: then the side-by-side below writes
    // them beside the pages, not after.
    const lookup = await time('cards', () => lookUpCards(plan.cardJobs, cacheDir, cardsGeneration(cardsCode)));

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
    const siteInputs = siteInputsHash(site, generatorCode(), cardsCode);
    const renderInput = { site, routes, siteInputs, now, code, cache, workers, writer, documents, sizes, markup };
    const rendering = time('render', () => renderStage(renderInput))
      // images: as soon as the pages say which they use, beside the cards and the index still being made.
      .then(async (out) => ({ ...out, images: await time('images', () => imagesStage(site, out.written, contentDir, cacheDir)) }));
    const drawing = time('cards', () => drawMissingCards(lookup, (missing, each) => workers.cards(missing, each)))
      .then(async (built) => { await time('write', () => writeFiles(writer, sizes, sideFiles(assets, built))); return built; });
    const indexing = session || !indexed ? Promise.resolve(undefined) : indexed.then(async (built) => {
      await time('write', () => writeFiles(writer, sizes, [...built.files].map(([file, from]) => ({ file, from }))));
      return built;
    });
    // Once the pages and the index are done, the cards the card process has not drawn yet are drawn at the build's own priority.
    void Promise.allSettled([rendering, indexing]).then(() => workers.hurry());
    // The content manager (/admin) beside them: its bundle from the cache, or made by esbuild; serve answers /admin itself.
    const managing = session ? Promise.resolve(undefined) : time('cms', () => cmsStage(root, site, routes, assets, now)).then(async (built) => {
      if (built) await time('write', () => writeFiles(writer, sizes, built.files));
      return built;
    });
    managing.catch(() => { /* awaited below */ });
    type Rendered = { written: WrittenPage[]; documents: number; images: BuiltImages };
    const [rendered, cards, searched] = await sideBySide<[Rendered, BuiltCards, BuiltSearch | undefined]>(
      [rendering, drawing, indexing], threads.stop);
    const cms = await managing;
    made = { ...plan, loaded, shell: documents.shell, shellInputs: documents.inputs, siteInputs, code, assets, scripts, rendered, cards, searched, cms };
  } finally {
    // Every body the index needs is read before the cache is saved (a save may rewrite the pack), and
    // a failed build's indexer is let finish: pagefind's service is one per process, and serve builds again.
    await search?.bodiesRead;
    if (!session) await search?.built.catch(() => undefined);
    // Nor does a build that failed early leave esbuild writing its bundles into the cache after it reports.
    await Promise.allSettled([codeReady, assetsReady]);
    // A cache that cannot be written costs the next build time, not this one its pages.
    await cache.save().catch((error: unknown) => {
      warn(`warning: ${CACHE_DIR}/ not saved: ${error instanceof Error ? error.message : String(error)}`);
    });
    const { discarded } = cache;
    if (discarded) warn(`warning: ${discarded} unreadable entr${discarded === 1 ? 'y' : 'ies'} in ${CACHE_DIR}/ discarded and rebuilt`);
    threadsGone = threads.stop();
  }
  const { site, routes, table, rendered: { written: pages, images }, cards, searched } = made;

  // Then one after another: write → measure → budgets → swap → prune.
  await time('write', () => writeStage(root, treeParts(staging.next).deploy, {
    writer, sizes, site, routes, table, images, scripts: made.scripts, now, session, fresh: run.fresh, store: made.store.entries, warn,
  }));
  if (session) Object.assign(session, { code: made.code, assets: made.assets });
  const imageFigures = { site: site.images, built: images };
  const summary = await time('measure', () => measureBuild(pages, markup, made.assets, stages, sizes, made.articles, imageFigures));
  summary.cards = { drawn: cards.drawn, reused: cards.reused, bytes: cards.bytes };
  summary.store = made.store.figures;
  if (made.cms) summary.cms = { bytes: made.cms.bytes, gzip: made.cms.gzip };
  if (searched) summary.search = { pages: searched.pages, bytes: searched.bytes, ms: searched.ms, indexed: searched.indexed };
  // A page's document, as written into the staging tree: what the budgets gzip again at level 9 near a limit.
  const fileOf = new Map(pages.map((p) => [p.route.url, p.route.file]));
  const readPage = (url: string) => readFile(pathIn(writer.outDir, fileOf.get(url)!));
  const budgets = await budgetStage(root, opts.budgets, summary, readPage, { pages: writer.outDir, outDir: run.outDir });
  // What this build was made from, beside its file list, so that the next may be a quick one (quick-build.ts).
  const last = staging.live === undefined ? undefined : readRecord(treeParts(staging.live).record);
  const quick = listed && writer.listPlaces && !site.settings.search && !made.unpublishedLinks.length && made.articles.draft + made.articles.scheduled + made.articles.expired === 0
    ? await quickInputs(opts, run, writer.listPlaces, {
      site, routes, code: made.code, cardsCode: made.cardsCode, shell: made.shell, shellInputs: made.shellInputs, siteInputs: made.siteInputs, articles: made.articles,
      htmlKb: budgets?.page.htmlKb ?? null,
    }, listed) : undefined;
  // A clean build that a quick one may follow leaves the other tree its twin (twin-stage.ts): the tree before it, the same files.
  const twin = staging.live === undefined && quick ? { id: newRecordId(), tree: otherTree(staging) } : undefined;
  const changes = twin ? { fresh: [], gone: [] } : writer.changes;
  await writeRecord(treeParts(staging.next).record, { format: 1, id: newRecordId(), previous: twin?.id ?? last?.id ?? null, ...changes, ...(quick ? { quick } : {}) });
  await time('swap', () => swapStage(staging, writer, { preview, clock: opts.now }));
  const live = { loaded: made.loaded, code: made.code, shell: made.shell, cardsCode: made.cardsCode, contentDir, cacheDir, now, preview };
  await opts.swapped?.({ site, routes, table, live });
  // Without it the output stands, and the next build is a full one.
  if (twin) await time('twin', () => twinStage(staging.next, twin.tree, twin.id, writer.fileNames())).catch((error: unknown) => warn(`warning: the tree beside the build not made (the next build is a full one): ${error instanceof Error ? error.message : String(error)}`));
  await time('prune', () => pruneStage(run, images.files, cardsGeneration(made.cardsCode), summary));
  summary.wallMs = performance.now() - run.startedAt;
  await threadsGone;

  return {
    site, routes, table, summary, deployDir: staging.layout.deployDir,
    redone: { ...cache.counts, pool: threads.startedOnce, documents: made.rendered.documents },
    warnings: preview ? made.unpublishedLinks : [],
    live,
  };
}


/** The tree this build did not write into: the one its swap made the next build's staging tree. */
const otherTree = (staging: Staging) => path.join(staging.layout.buildsDir, TREES.find((t) => t !== path.basename(staging.next))!);

/** What the record keeps for a quick rebuild after this build. */
async function quickInputs(opts: BuildOptions, run: { root: string; contentDir: string; cacheDir: string; now: Date }, places: ListPlaces,
  made: { site: BuildResult['site']; routes: BuildResult['routes']; code: { renderHash: string; markdownHash: string }; cardsCode: string; shell: QuickInputs['shell'];
    shellInputs: string; siteInputs: string; articles: { nextChange: { at: string } | null }; htmlKb: number | null },
  listed: ReturnType<typeof listContent>): Promise<QuickInputs> {
  const { site, routes, now } = { ...made, now: run.now };
  const yearEnd = Date.UTC(now.getUTCFullYear() + 1, 0, 1);
  const next = made.articles.nextChange ? Date.parse(made.articles.nextChange.at) : Infinity;
  const bySlug = new Map(site.posts.map((p) => [p.slug, p]));
  const articles: QuickInputs['articles'] = {};
  for (const route of routes) {
    if (route.template !== 'blogPost') continue;
    const post = bySlug.get(route.url.slice('/blog/'.length));
    const digest = post && notedFrontDigest(post);
    const front = post && notedFrontHash(post);
    if (digest) articles[`blog/${post.slug}.md`] = { file: route.file, digest, place: places.files.get(route.file) ?? null, ...(front ? { front } : {}) };
  }
  return {
    same: await sameInputs(run.root, quickOptions(opts, run)),
    code: { render: made.code.renderHash, markdown: made.code.markdownHash, cards: made.cardsCode },
    shell: made.shell, shellInputs: made.shellInputs,
    ctx: { settings: site.settings, images: site.images, year: now.getUTCFullYear() },
    siteInputs: made.siteInputs,
    until: Math.min(yearEnd, next),
    content: Object.fromEntries([...listed.files].map(([file, s]) => [file, signatureOf(s, listed.at)])),
    articles,
    fileList: { size: places.size, mtimeMs: places.mtimeMs, feed: places.files.get(FEED_FILE) ?? null, shared: places.shared },
    pages: routes.length,
    htmlKb: made.htmlKb,
  };
}
