// A quick rebuild: when the last complete build's record (build-record.ts) shows that nothing but
// article bodies changed since, only those articles are read and only their pages made; the staging
// tree is brought up to date from the last build's record (the files it wrote afresh) rather than
// checked file by file; the file list and completion manifest are the last build's with those pages'
// entries replaced. Anything it cannot prove small gives undefined, and the caller runs the full build.
import { linkSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BuildCache, pageKey, pageKeyBase } from '../cache/build-cache.ts';
import { CACHE_DIR } from '../output/layout.ts';
import type { ParseMarkdown, Post, Site } from '../content/load.ts';
import { isArticleFile, jobOfBytes } from '../content/markdown-job.ts';
import { bundle } from '../bundle/bundle.ts';
import { bundleBuildCode } from '../pool/code.ts';
import { BuildWorkers } from '../pool/build-workers.ts';
import { cardFontsHash } from '../cards/fonts.ts';
import { engineVersions } from '../cards/engine.ts';
import { hashOf } from '../hash.ts';
import { inlineScripts } from '../render/inline-scripts.ts';
import { routeBodyKey } from '../render/article-body.ts';
import { PageUsesTable, type StoredPage } from '../render/stored-page.ts';
import type { Route } from '../routes/table.ts';
import type { PageResult } from '../render/page-output.ts';
import { needsExactGzip } from '../measure/gzip.ts';
import type { treeParts } from '../output/layout.ts';
import { readSeal, resealed } from '../output/seal.ts';
import { closeStaging, openStaging, swapIn } from '../output/swap.ts';
import { pathIn } from '../output/tree-file.ts';
import { DistWriter } from './dist-writer.ts';
import { readFileListAt } from './file-list.ts';
import { FEED_FILE } from './write-stage.ts';
import { documentMaker } from './render-stage.ts';
import { newRecordId, quickOptions, sameInputs, writeQuickRecord, type BuildRecord, type QuickInputs, type RecordRead } from './build-record.ts';
import { NotSmall } from './content-changes.ts';
import { notQuick, NotQuick, startQuick, type QuickStart } from './quick-start.ts';
import type { BuildOptions } from './run.ts';

/** What a quick rebuild did: the site's pages, the articles read again, the pages made, each stage's time. */
export interface QuickResult {
  pages: number; articles: string[]; made: number; stages: Record<string, number>; deployDir: string;
  /** Of `articles`, those whose front matter was read and checked again (its bytes are not the last full build's). */
  checked: number;
}

/**
 * The quick rebuild, or undefined when the full build must run (nothing of the output has changed then
 * but the staging tree, which the full build checks file by file). `started`: its first steps, taken
 * by the caller before it loaded this module (see quick-start.ts).
 */
export async function quickBuild(opts: BuildOptions, why: (reason: string) => void = () => undefined, started: Promise<QuickStart> = startQuick(opts)): Promise<QuickResult | undefined> {
  try {
    return await quickly(opts, await started);
  } catch (error) {
    why(error instanceof NotQuick ? error.message : `failed: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

async function quickly(opts: BuildOptions, start: QuickStart): Promise<QuickResult> {
  const startedAt = performance.now();
  const stages: Record<string, number> = {};
  let at = startedAt;
  const lap = (name: string) => { const t = performance.now(); stages[name] = (stages[name] ?? 0) + t - at; at = t; };
  const { root, contentDir, cacheDir, layout, liveTree, nextTree, last, since, asked } = start;
  const now = opts.now ?? new Date();

  const [same, code, assets] = await Promise.all([sameInputs(root, quickOptions(opts, { contentDir, cacheDir })), bundleBuildCode(root), bundle({ root, cacheDir: path.join(root, CACHE_DIR) })]);
  // What any change needs, made ready meanwhile: the modules that parse an article and render a page, the cache.
  const modules = Promise.all([import(code.markdownUrl), import(code.renderUrl)]);
  modules.catch(() => undefined);
  const cache = await BuildCache.open(root);
  // What hangs on no answer, made ready while the thread compares the content: the staging tree
  // claimed, and the last build's manifest read and checked.
  const staged = openStaging(opts.outDir, root, { family: opts.family, warn: opts.warn });
  staged.catch(() => undefined); // awaited below, or closed in the end
  const lastSeal = readSeal(liveTree.site);
  lap('code');
  let saved = false;
  try {
    const { inputs: q, articles, changed } = await asked.catch((error: Error) => notQuick(error instanceof NotSmall ? error.message : `the content check failed: ${error.message}`));
    if (now.getTime() >= q.until) notQuick('an article is published or expires, or the year changes, since the last build');
    if (same !== q.same) notQuick('the generator, the lockfile, budgets.json or the options changed');
    lap('check');

    // The code: the templates, markdown and card code, the islands and stylesheet, as the last build had them (each checked by its files' stats).
    const cardsCode = hashOf(code.cardsHash, cardFontsHash(), engineVersions());
    if (code.renderHash !== q.code.render || code.markdownHash !== q.code.markdown || cardsCode !== q.code.cards) notQuick('the templates or the card code changed');
    const { settings, images } = q.ctx;
    const shell = documentMaker({ settings, images, posts: { length: articles } } as unknown as Site, assets, inlineScripts(settings), undefined, contentDir);
    if (shell.inputs !== q.shellInputs) notQuick('the islands or the stylesheet changed');
    await modules;
    lap('code');

    // The last build's file list, read where each changed article's page entry lies; its route by the entry's key.
    const wanted = [...changed.map((c) => ({ file: c.article.file, place: c.article.place })), { file: FEED_FILE, place: q.fileList.feed }];
    const read = readFileListAt(liveTree.fileList, q.fileList, wanted) ?? notQuick('the last file list is not the one its record describes');
    const list = read.list;
    const workers = new BuildWorkers(code, Infinity);
    const parse: ParseMarkdown = (jobs) => cache.parse(jobs, code.markdownHash, (missing) => workers.parse(missing), (job) => isArticleFile(job.rel));
    const jobs: Array<{ route: Route; about: StoredPage }> = [];
    let checked = 0;
    for (const { file: rel, article } of changed) {
      const { file } = article;
      const loaded = await articleBody(contentDir, rel, article, { settings, images }, parse);
      if (loaded.checked) checked++;
      const entry = list.files[file];
      const found = entry?.key === undefined ? undefined : await cache.route(entry.key);
      if (!found || found.template !== 'blogPost' || found.file !== file) return notQuick(`${file}'s route is not in the cache`);
      const route = found;
      const post = route.props.post;
      const alike = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
      if (!alike(post.toc, loaded.toc) || !alike(post.bodyImages, loaded.bodyImages)) notQuick(`${rel}'s body shows other images`);
      post.html = loaded.html;
      jobs.push({ route, about: entry!.about as StoredPage });
    }
    lap('load');

    // The staging tree made the live one: the files the last build wrote afresh linked in, those it dropped deleted, deploy/ likewise.
    const staging = await staged;
    if (staging.live !== path.dirname(liveTree.fileList)) notQuick('another build swapped meanwhile');
    catchUp(last, liveTree, nextTree);
    const writer = new DistWriter(nextTree, liveTree);
    writer.beginFrom(read);
    lap('write');

    // The changed pages, made (on this thread: a handful) and checked against the budgets.
    const table = new PageUsesTable(writer);
    const base = pageKeyBase(cache.lockHash, code.renderHash, q.ctx);
    let made = 0;
    const outputs = new Map<Route, PageResult>();
    await workers.pages(jobs.map((j) => ({ route: j.route, before: writer.before(j.route.file) })), { ctx: q.ctx, shell: q.shell, trees: writer.siteTrees },
      async (job) => { const key = routeBodyKey(job.route); const body = key === undefined ? undefined : await cache.bodyBytes(key); return body ? { body } : {}; },
      async (job, out) => { outputs.set(job.route, out); });
    for (const { route, about } of jobs) {
      const out = outputs.get(route);
      if (!out || 'lostBody' in out) return notQuick(`${route.url}'s body is not in the cache`);
      const last = table.last(about);
      const uses = { islands: out.islands, images: out.images, ...(out.preload ? { preload: out.preload } : {}), markup: out.markup };
      if (!last || table.made(uses) !== last) notQuick(`${route.url} uses other islands or images, or other markup figures`);
      // The last build's budget: budgets.json and the options are the same (`same`).
      const limit = q.htmlKb === null ? undefined : q.htmlKb * 1024;
      if (limit !== undefined && (out.entry.gzip > limit || needsExactGzip(out.entry.gzip, limit))) notQuick(`${route.url} is near its HTML budget`);
      const key = pageKey(base, route);
      writer.add(route.file, { ...out.entry, key, about: table.stored(last!, { cut: out.cut, site: about.site, body: routeBodyKey(route), shell: about.shell }) });
      await cache.keepRoute(key, JSON.stringify(route));
      if (out.rendered) made++;
    }
    lap('render');

    // The feed says when it was built: the one file that changes with every build.
    if (list.files[FEED_FILE]) {
      const feed = readFileSync(pathIn(liveTree.site, FEED_FILE), 'utf8');
      const updated = feed.replace(/^ {2}<updated>[^<]*<\/updated>$/m, `  <updated>${now.toISOString()}</updated>`);
      await writer.write({ file: FEED_FILE, contents: updated });
    }
    await writer.finish();
    const about = { preview: false, clock: opts.now };
    const patch = { ...since, ...Object.fromEntries(changed.map((c) => [c.file, c.signature])) };
    const record: Omit<BuildRecord, 'quick'> = { format: 1, id: newRecordId(), previous: last.id, ...writer.changes };
    // The last build's manifest with these files in place (the quick rebuild gives way if it cannot be read), hashed while the cache saves.
    const [sealing, saving] = await Promise.allSettled([resealed(await lastSeal, writer.outDir, writer.touchedFiles(), about), cache.save(true)]);
    if (saving.status === 'rejected') throw saving.reason;
    saved = true;
    if (sealing.status === 'rejected') throw sealing.reason;
    if (!sealing.value) notQuick('the last completion manifest cannot be read');
    await writeQuickRecord(nextTree.record, record, liveTree.record, patch);
    lap('write');
    await swapIn(staging);
    lap('swap');
    return { pages: q.pages, articles: changed.map((c) => c.file), made, checked, stages: { ...stages, total: performance.now() - startedAt }, deployDir: layout.deployDir };
  } finally {
    if (!saved) await cache.save(true).catch(() => undefined);
    await staged.then(closeStaging, () => undefined);
  }
}

/**
 * A changed article's body as its page shows it, read as a load reads it. When the file's front hash
 * is the one the last build recorded, its front matter is the same bytes, which that build checked:
 * the file is parsed as a worker parses it and nothing of its front matter is checked again (no
 * schema, zod or content loader loaded). Otherwise read and checked whole, as serve reads a saved
 * article (its categories are its front matter's, so no other article's are needed), and the front
 * matter's digest compared. Gives way on any error, or if the front matter changed.
 */
async function articleBody(contentDir: string, rel: string, article: QuickInputs['articles'][string], site: Pick<Site, 'settings' | 'images'>,
  parse: ParseMarkdown): Promise<Pick<Post, 'html' | 'toc' | 'bodyImages'> & { checked: boolean }> {
  const file = path.join(contentDir, rel);
  if (article.front !== undefined) {
    let source: Buffer;
    try { source = readFileSync(file); } catch { return notQuick(`${rel} cannot be read`); }
    const job = jobOfBytes(source, path.join('content', rel), site.settings.assessmentForms, site.images);
    if (job.front === article.front) {
      const [parsed] = await parse([job]);
      if (!parsed || parsed.body.errors.length) notQuick(`${rel} has an error`);
      return { html: parsed!.body.html, toc: parsed!.body.toc, bodyImages: parsed!.body.images, checked: false };
    }
  }
  const { loadArticle } = await import('../content/load.ts');
  const loaded = await loadArticle(contentDir, file, site, [], parse).catch(() => notQuick(`${rel} has an error`));
  if (loaded.digest !== article.digest) notQuick(`${rel}'s front matter changed`);
  return { ...loaded.post, checked: true };
}

/**
 * The staging tree (the build before last, untouched since: sealed) made the live tree: what the last
 * build wrote afresh linked in from the live tree, what it dropped deleted, and deploy/'s files linked.
 * Every other file the two trees share already (one inode).
 */
function catchUp(last: RecordRead, live: ReturnType<typeof treeParts>, next: ReturnType<typeof treeParts>): void {
  const made = new Set<string>();
  const link = (from: string, to: string) => {
    rmSync(to, { force: true });
    const dir = path.dirname(to);
    if (!made.has(dir)) { mkdirSync(dir, { recursive: true }); made.add(dir); }
    try { linkSync(from, to); } catch { copyFileSync(from, to); }
  };
  for (const file of last.fresh) link(pathIn(live.site, file), pathIn(next.site, file));
  for (const file of last.gone) {
    const target = pathIn(next.site, file);
    rmSync(target, { force: true });
    for (let dir = path.dirname(target); dir.startsWith(next.site + path.sep); dir = path.dirname(dir)) {
      try { rmdirSync(dir); } catch { break; }
    }
  }
  for (const entry of readdirSync(live.deploy, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const from = path.join(entry.parentPath, entry.name);
    link(from, path.join(next.deploy, path.relative(live.deploy, from)));
  }
}
