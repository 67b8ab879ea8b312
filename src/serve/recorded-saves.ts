// Saves made as `site serve` starts again, before its first build has planned (it loads every article
// first): answered from what the last run left, as a quick rebuild answers a body edit. That run's
// tree holds its pages and its file list (each page's route key); the build cache holds the article
// pages' routes; and serve wrote, beside the tree, a record of the rest: the documents' shell, the
// render context, the code that made the pages and each article's front hash. A saved article whose
// front matter is the same bytes is parsed, and its page made in memory with the new body.
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PlannedBuild } from '../pipeline/build.ts';
import { readRecord } from '../pipeline/build-record.ts';
import { fileListPatch, treeParts, TREES, type OutputLayout } from '../output/layout.ts';
import { writeBeside } from '../temp-file.ts';
import { notedFrontHash } from '../content/front-hash.ts';
import { jobOfBytes, parseJob, type MarkdownJob, type ParsedMarkdownFile } from '../content/markdown-job.ts';
import { routeReader } from '../cache/build-cache.ts';
import type { RenderContext } from '../page-api/site-context.tsx';
import type { DocumentShell } from '../render/page-output.ts';
import type { Route } from '../routes/table.ts';
import type { MemoryFile } from './live-site.ts';
import { sameValue } from './same-value.ts';

const FORMAT = 1;
const HTML = 'text/html;charset=utf-8';
const ARTICLE = /^content\/blog\/([^/]+)\.md$/;
/** How long to wait before reading a save again that read as another front matter or with an error (an editor's truncate, then write). */
const REREAD_MS = 25;

/** What serve keeps beside its build's tree: `build`, the id of that tree's build record. */
interface ServeRecord {
  format: typeof FORMAT; build: string; renderUrl: string; markdownUrl: string;
  ctx: Omit<RenderContext, 'url'>; shell: DocumentShell;
  /** Each loaded article's front hash, by slug. */
  fronts: Record<string, string>;
}

type PageDocument = (route: Route, ctx: Omit<RenderContext, 'url'>, shell: DocumentShell) => string | undefined;
type ParseFile = (job: MarkdownJob) => Promise<ParsedMarkdownFile>;
interface Ready { record: ServeRecord; list: Buffer; routes: Awaited<ReturnType<typeof routeReader>>; pageDocument: PageDocument; parse: ParseFile }

const recordFile = (tree: string) => path.join(tree, 'serve-record.json');

/** The tree `current` names, if any. */
function currentTree(layout: OutputLayout): string | undefined {
  let name: string;
  try { name = readlinkSync(layout.current); } catch { return undefined; }
  return TREES.some((t) => t === name) ? path.join(layout.buildsDir, name) : undefined;
}

/** Serve's record of the build just swapped in (`done`), beside its tree; a build with no record id of its own leaves none. */
export async function writeServeRecord(layout: OutputLayout, done: PlannedBuild): Promise<void> {
  const tree = currentTree(layout);
  const build = tree && readRecord(treeParts(tree).record)?.id;
  if (!tree || !build) return;
  const fronts: Record<string, string> = {};
  for (const post of done.live.loaded.posts) {
    const front = notedFrontHash(post);
    if (front !== undefined) fronts[post.slug] = front;
  }
  const { code, shell, now } = done.live;
  const record: ServeRecord = {
    format: FORMAT, build, renderUrl: code.renderUrl, markdownUrl: code.markdownUrl,
    ctx: { settings: done.site.settings, images: done.site.images, year: now.getUTCFullYear() }, shell, fronts,
  };
  await writeBeside(recordFile(tree), JSON.stringify(record));
}

/** A page's route key in a file list as written: its entry's `key`, which comes before any nested object of the entry. */
function keyIn(list: Buffer, file: string): string | undefined {
  const at = list.indexOf(`${JSON.stringify(file)}:{`);
  if (at === -1) return undefined;
  const entry = list.toString('utf8', at, list.indexOf('}', at));
  return /"key":"([0-9a-f]+)"/.exec(entry)?.[1];
}

/**
 * Saves answered from the last run's records while serve's first build loads: `apply` makes each
 * saved article's page in memory, or says why it cannot (`reason`); `file` answers those pages.
 */
export class RecordedSaves {
  private readonly files = new Map<string, MemoryFile>();
  private ready: Promise<Ready | undefined> | undefined;
  private closed = false;
  /** Why the last save could not be answered. */
  reason = '';

  constructor(private readonly root: string, private readonly layout: OutputLayout) {}

  /**
   * The record, the file list, the routes and the code loaded, so that the first save does not wait
   * for them: before the build starts, whose load puts ten thousand reads ahead of any other in the
   * thread pool (a save's own reads are synchronous for the same reason).
   */
  async warm(): Promise<void> {
    // And a save rehearsed, its page thrown away: the parser's and the templates' first run cost the first save half a second on a busy machine.
    const ready = await this.load();
    const rel = ready && Object.keys(ready.record.fronts)[0];
    if (ready && rel !== undefined) await this.make(ready, `content/blog/${rel}.md`).catch(() => undefined);
  }

  private load(): Promise<Ready | undefined> {
    return (this.ready ??= (async () => {
      const tree = currentTree(this.layout);
      if (!tree) return undefined;
      const parts = treeParts(tree);
      // A list a quick rebuild patched is no serve build's.
      if (existsSync(fileListPatch(parts.fileList))) return undefined;
      const record = JSON.parse(readFileSync(recordFile(tree), 'utf8')) as ServeRecord;
      if (record.format !== FORMAT || record.build !== readRecord(parts.record)?.id) return undefined;
      const list = readFileSync(parts.fileList);
      const [render, markdown, routes] = await Promise.all([import(record.renderUrl), import(record.markdownUrl), routeReader(this.root)]);
      if (this.closed) { await routes.close(); return undefined; }
      return {
        record, list, routes,
        pageDocument: (render as { pageDocument: PageDocument }).pageDocument,
        parse: (markdown as { parseMarkdownFile: ParseFile }).parseMarkdownFile,
      };
    })().catch(() => undefined));
  }

  /** A page made here, by its path under the output. */
  file(file: string): MemoryFile | undefined { return this.files.get(file); }

  /** The saved files' pages made, if each is an article whose front matter is as the last run read it; else undefined, and `reason` says why. */
  async apply(rels: string[]): Promise<{ pages: number; stages: Record<string, number> } | undefined> {
    this.reason = '';
    const stages: Record<string, number> = {};
    let at = performance.now();
    const lap = (name: string) => { const t = performance.now(); stages[name] = (stages[name] ?? 0) + t - at; at = t; };
    const ready = await this.load();
    if (!ready || this.closed) return this.cannot('the last run left no record to answer from');
    lap('code');
    const made = new Map<string, MemoryFile>();
    for (const rel of rels) {
      const page = await this.make(ready, rel, lap);
      if (typeof page === 'string') return this.cannot(page);
      made.set(page.file, page.page);
    }
    for (const [file, page] of made) this.files.set(file, page);
    return { pages: made.size, stages };
  }

  /** A saved article's page, made; or why it cannot be. */
  private async make(ready: Ready, rel: string, lap: (stage: string) => void = () => undefined): Promise<{ file: string; page: MemoryFile } | string> {
    const slug = ARTICLE.exec(rel.split(path.sep).join('/'))?.[1];
    if (!slug) return `${rel} is not an article`;
    const front = ready.record.fronts[slug];
    if (front === undefined) return `${rel} is a new article`;
    const file = `/blog/${slug}.html`;
    const key = keyIn(ready.list, file);
    const route = key === undefined ? undefined : await ready.routes.read(key);
    if (!route || route.template !== 'blogPost' || route.file !== file) return `${rel}'s page is not in the build cache`;
    lap('route');
    const read = async () => {
      let source: Buffer | undefined;
      try { source = readFileSync(path.join(this.root, rel)); } catch { source = undefined; }
      const job = source && jobOfBytes(source, rel, ready.record.ctx.settings.assessmentForms, ready.record.ctx.images);
      if (!job || job.front !== front) return 'front';
      const parsed = await ready.parse(parseJob(job));
      return parsed.frontErrors.length || parsed.body.errors.length ? 'error' : parsed;
    };
    // Once more a moment later: on a busy machine the first read can fall between an editor's truncate and its write.
    const parsed = await read().then(async (first) => (typeof first === 'string' ? sleep(REREAD_MS).then(read) : first));
    if (parsed === 'front') return `${rel}'s front matter changed`;
    if (parsed === 'error') return `${rel} has an error`;
    lap('load');
    const post = route.props.post;
    // Other images need their variants made: a build's work.
    if (!sameValue(post.bodyImages, parsed.body.images)) return `${rel} shows other images`;
    const page = { ...route, props: { ...route.props, post: { ...post, html: parsed.body.html, toc: parsed.body.toc } } } as Route;
    const html = ready.pageDocument(page, ready.record.ctx, ready.record.shell);
    if (html === undefined) return `${rel}'s page could not be made`;
    lap('render');
    return { file, page: { body: Buffer.from(html), type: HTML } };
  }

  private cannot(reason: string): undefined {
    this.reason = reason;
    return undefined;
  }

  /** Lets the routes' pack go; its pages are no longer answered. */
  async close(): Promise<void> {
    this.closed = true;
    this.files.clear();
    await (await this.ready)?.routes.close();
  }
}
