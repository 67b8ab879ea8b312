// `site serve`'s answer to a saved article: the site as the last build left it, kept in memory, with
// that one article read again and only the routes that read it made again, in memory. A build is the
// fallback for anything else (see `LiveSite.apply`).
import { cmsHosts, cmsPages } from '../cms/admin-page.ts';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BuildResult, BuildSession, LiveBuild } from '../pipeline/build.ts';
import { bodyReader } from '../cache/build-cache.ts';
import { ContentErrors } from '../content/errors.ts';
import { frontDigest, notedFrontDigest } from '../content/front-digest.ts';
import { loadArticle, type Post, type Site } from '../content/load.ts';
import { parseJob, type MarkdownJob, type ParsedMarkdownFile } from '../content/markdown-job.ts';
import { newestFirst } from '../content/article-order.ts';
import { publishedSite } from '../content/published.ts';
import { routes as routeTable, type Route } from '../routes/table.ts';
import { routingTable } from '../routes/routing-table.ts';
import { planCards, type CardJob } from '../cards/plan.ts';
import { cardsGeneration, drawMissingCards, lookUpCards } from '../cards/card-cache.ts';
import { CardProcess } from '../cards/card-process.ts';
import { atomFeed, sitemapXml } from '../render/feeds.ts';
import { routeBodyKey, decodeKeptBody } from '../render/article-body.ts';
import type { DocumentShell } from '../render/page-output.ts';
import type { RenderContext } from '../page-api/site-context.tsx';
import type { RoutingTable } from '../url-resolution/resolve.ts';
import { buildSearch, type BuiltSearch } from '../search/search-index.ts';
import { plannedDocuments } from '../search/documents.ts';
import { sameValue } from './same-value.ts';

/** A file answered from memory: its bytes and content type. */
export interface MemoryFile { body: Uint8Array; type: string }

/** What one save cost, stage by stage (the server's line), and how many pages it changed. */
export interface Applied { pages: number; rendered: number; waiting: number; stages: Record<string, number> }

type PageDocument = (route: Route, ctx: Omit<RenderContext, 'url'>, shell: DocumentShell, body?: Uint8Array) => string | undefined;
type ParseFile = (job: MarkdownJob) => Promise<ParsedMarkdownFile>;

// As the build's files are sent (sirv's types): the same page answers alike from either.
const HTML = 'text/html;charset=utf-8';
const XML = 'text/xml';
/** How long to wait before reading a saved article again that read as invalid (see `apply`). */
const REREAD_MS = 25;
const ARTICLE = /^content\/blog\/([^/]+)\.md$/;

/**
 * The last build's site, routes and pages, and what saves have changed since, served from memory:
 * `files`, documents made since the build (a request takes them whole: nothing half-written is ever
 * served), and `waiting`, routes changed whose page is made when first asked for (a title shown on
 * every article's 'Continue Reading' changes ten thousand pages; a reader looks at a few).
 * Everything else is the build's output on disk. A build replaces the whole object.
 */
export class LiveSite {
  private loaded: Site;
  private site: Site;
  private readonly table: RoutingTable;
  private readonly byFile: Map<string, Route>;
  private readonly files = new Map<string, MemoryFile>();
  private readonly waiting = new Map<string, Route>();
  /** Cards drawn since the build, by public URL: the cached file (a promise while it is drawn). */
  private readonly cards = new Map<string, Promise<string | undefined>>();
  /** Each page's card since the build (serve's card preview), where a save changed it. */
  readonly cardOf = new Map<string, string>();
  private readonly ctx: Omit<RenderContext, 'url'>;
  private readonly bodies: ReturnType<typeof bodyReader>;
  private modules: Promise<{ pageDocument: PageDocument; parse: ParseFile }> | undefined;
  /** Whether saves have changed what the search index holds since it was made. */
  private searchStale = false;
  /** The index being made again, if one is: close waits for it, so that nothing writes into the cache once serve has stopped. */
  private indexing: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly root: string, result: Pick<BuildResult, 'site' | 'table' | 'routes'>, private readonly live: LiveBuild, private readonly session: BuildSession) {
    this.loaded = live.loaded;
    this.site = result.site;
    this.table = result.table;
    this.byFile = new Map(result.routes.map((r) => [r.file, r]));
    this.ctx = { settings: result.site.settings, images: result.site.images, year: live.now.getUTCFullYear() };
    this.bodies = bodyReader(root);
    this.bodies.catch(() => undefined);
  }

  /** The renderer and the markdown parser, loaded once (after the build, while nobody waits: see `warm`). */
  private code() {
    return (this.modules ??= Promise.all([import(this.live.code.renderUrl), import(this.live.code.markdownUrl)]).then(([render, markdown]) => ({
      pageDocument: (render as { pageDocument: PageDocument }).pageDocument,
      parse: (markdown as { parseMarkdownFile: ParseFile }).parseMarkdownFile,
    })));
  }

  /** Loads the code a save needs, so that the first save does not wait for it. */
  warm(): void { void this.code().catch(() => undefined); }

  /** A file made since the build, by its path under the output (`/blog/x.html`), made now if it is waiting; undefined: the build's file stands. */
  async file(file: string): Promise<MemoryFile | undefined> {
    // Again if a save changed the route while it was being made: the page answered is the latest.
    for (let route = this.waiting.get(file); route; route = this.waiting.get(file)) await this.make(file, route);
    return this.files.get(file);
  }

  /** A card drawn since the build: the cached file holding it. */
  card(url: string): Promise<string | undefined> | undefined {
    return this.cards.get(url);
  }

  /** The page of `route` made and kept, unless a later save has changed the route meanwhile. */
  private async make(file: string, route: Route): Promise<void> {
    const { pageDocument } = await this.code();
    const key = routeBodyKey(route);
    const body = key === undefined ? undefined : await (await this.bodies).read(key);
    if (this.waiting.get(file) !== route) return;
    const html = pageDocument(route, this.ctx, this.live.shell, body);
    // Its article's body missing from the cache: the build on disk still stands for it, and the next build makes it.
    if (html === undefined) throw new Error(`the body of ${route.url} is missing from the build cache: save any file to build again`);
    this.files.set(file, { body: Buffer.from(html), type: HTML });
    this.waiting.delete(file);
  }

  /**
   * The saved files applied, if each is an article the site has, still valid, whose save leaves the
   * routing table as it is: then the routes that read it are made again (its own page at once, the
   * others when first asked for) and true is returned. False: a build must run (any other file, a
   * content error, to be reported with every line as a build reports it, or new pages).
   */
  async apply(rels: string[], now: Date): Promise<Applied | undefined> {
    this.reason = '';
    if (this.closed || !rels.length) return undefined;
    const other = rels.find((rel) => !ARTICLE.test(rel.split(path.sep).join('/')));
    if (other) return this.build(`${other} is not an article`);
    const stages: Record<string, number> = {};
    let at = performance.now();
    const lap = (name: string) => { const t = performance.now(); stages[name] = (stages[name] ?? 0) + t - at; at = t; };
    const { parse } = await this.code();
    let loaded = this.loaded;
    let site = this.site;
    const changed: Route[] = [];
    let fronts = false;
    for (const rel of rels) {
      const slug = ARTICLE.exec(rel.split(path.sep).join('/'))![1]!;
      const index = loaded.posts.findIndex((p) => p.slug === slug);
      if (index === -1) return this.build(`${rel} is a new article`);
      const before = loaded.posts[index]!;
      let post: Post;
      let digest: string;
      const read = () => loadArticle(this.live.contentDir, path.join(this.live.contentDir, 'blog', `${slug}.md`), loaded, loaded.posts, (jobs) => Promise.all(jobs.map((job) => parse(parseJob(job)))));
      try {
        // Once more a moment later: an editor's save is a truncation and a write, and on a busy
        // machine the first read can fall between the two. An error still there is the author's.
        ({ post, digest } = await read().catch(async (error: unknown) => {
          if (!(error instanceof ContentErrors)) throw error;
          await sleep(REREAD_MS);
          return read();
        }));
      } catch (error) {
        if (error instanceof ContentErrors) return this.build(`${rel} has ${error.errors.length === 1 ? 'an error' : `${error.errors.length} errors`}`);
        throw error;
      }
      lap('load');
      // A body that shows other images needs their variants made: a build's work.
      if (!sameValue(before.bodyImages, post.bodyImages)) return this.build(`${rel} shows other images`);
      loaded = { ...loaded, posts: loaded.posts.with(index, post) };
      if (digest === (notedFrontDigest(before) ?? frontDigestOf(before))) {
        // The body alone: the article's own page is the one route that reads it.
        const at = site.posts.findIndex((p) => p.slug === slug);
        if (at === -1) continue;
        const shown = site.posts[at]!;
        site = { ...site, posts: site.posts.with(at, shown.preview ? { ...post, preview: shown.preview } : post) };
        const file = `/blog/${slug}.html`;
        const route = this.byFile.get(file);
        if (!route || route.template !== 'blogPost') return this.build(`${rel} has no page`);
        changed.push({ ...route, props: { ...route.props, post: { ...route.props.post, html: post.html, toc: post.toc, bodyImages: post.bodyImages } } } as Route);
      } else {
        fronts = true;
        loaded = { ...loaded, posts: newestFirst(loaded.posts) };
      }
    }
    let jobs: CardJob[] = [];
    let routes: Route[] | undefined;
    if (fronts) {
      // What the front matter reaches (lists, neighbours, feed, cards) is worked out as a build does, and compared route by route.
      site = publishedSite(loaded, now, this.live.preview ? 'preview' : 'production').site;
      const planned = planCards(site, routeTable(site), this.live.contentDir, this.live.cardsCode);
      lap('routes');
      if (!sameValue(routingTable(planned.routes, cmsPages(site.settings), cmsHosts(site.settings)), this.table)) return this.build(`${rels.join(', ')} changed the site's pages`);
      routes = planned.routes;
      changed.length = 0;
      for (const route of routes) if (!sameValue(this.byFile.get(route.file), route)) changed.push(route);
      const cards = new Set(changed.map((r) => r.meta.shareImage?.src));
      jobs = planned.jobs.filter((job) => cards.has(job.url));
      lap('compare');
    }
    // Everything decided: the new state taken in one step, so that no request sees half of it.
    this.loaded = loaded;
    this.site = site;
    for (const route of changed) {
      this.byFile.set(route.file, route);
      this.files.delete(route.file);
      this.waiting.set(route.file, route);
      if (route.meta.shareImage) this.cardOf.set(route.url, route.meta.shareImage.src);
    }
    if (routes) {
      const feed = atomFeed(site, now);
      if (feed) this.files.set('/blog/feed.xml', { body: Buffer.from(feed), type: XML });
      this.files.set('/sitemap.xml', { body: Buffer.from(sitemapXml(site, routes)), type: XML });
      this.drawCards(jobs);
    }
    // The saved articles' own pages made now: the page open in the editor's browser is one of them.
    let rendered = 0;
    for (const rel of rels) {
      const file = `/blog/${path.basename(rel, '.md')}.html`;
      const route = this.waiting.get(file);
      if (route) { await this.make(file, route); rendered++; }
    }
    lap('render');
    this.searchStale = true;
    return { pages: changed.length, rendered, waiting: this.waiting.size, stages };
  }

  /** Why the last save could not be taken without a build. */
  reason = '';
  private build(reason: string): undefined {
    this.reason = reason;
    return undefined;
  }

  /** The cards of changed routes that the cache lacks, drawn by serve's card process; requests for them wait. */
  private drawCards(jobs: CardJob[]): void {
    if (!jobs.length) return;
    const looked = lookUpCards(jobs, this.live.cacheDir, cardsGeneration(this.live.cardsCode));
    const drawer = () => (this.session.cards ??= new CardProcess()).load(this.live.code.cardsUrl);
    const built = looked.then((lookup) => drawMissingCards(lookup, async (missing, each) => {
      const cards = drawer();
      await Promise.all(missing.map(async (job) => each(job, await cards.draw(job))));
    }));
    built.catch(() => undefined);
    for (const job of jobs) this.cards.set(job.url, built.then((b) => b.files.get(job.url), () => undefined));
  }

  /**
   * A file of the search index asked for: if saves have changed what it holds, it is made again, and
   * the last index answers until the new one is ready. Made when searched, not at each save: pagefind
   * reads every article, and a large blog's index took seconds of both cores, which the next save
   * would wait for.
   */
  searchAsked(): void {
    if (!this.searchStale || this.closed || !this.site.settings.search) return;
    this.searchStale = false;
    const reader = this.bodies;
    const { built } = buildSearch(this.root, plannedDocuments(this.site), this.live.cacheDir, async (key) => {
      const bytes = await (await reader).read(key);
      return bytes && decodeKeptBody(bytes)?.html;
    });
    this.indexing = this.indexing.then(() => built).then((made: BuiltSearch) => { if (!this.closed) this.session.search = Promise.resolve(made); }, () => { this.searchStale = true; });
  }

  /** Stops what it has started; the build that replaces it serves from then on. */
  async close(): Promise<void> {
    this.closed = true;
    await this.indexing;
    await (await this.bodies.catch(() => undefined))?.close();
  }
}

/** An article's front matter digest worked out from its fields, where the load noted none. */
function frontDigestOf(post: Post): string {
  const { html: _html, toc: _toc, bodyImages: _images, slug: _slug, preview: _preview, ...front } = post;
  return frontDigest(front);
}
