import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { isCheckedFront, parseJob, type CheckedFront, type LoadedMarkdown, type MarkdownJob, type ParsedMarkdownFile } from '../content/markdown-job.ts';
import { SourceIndex } from './source-index.ts';
import type { PageJob, PageResult } from '../render/page-output.ts';
import type { Route } from '../routes/table.ts';
import type { RenderContext } from '../page-api/site-context.tsx';
import { CacheStore } from './store.ts';
import { hashOf } from '../hash.ts';
import { IO_CONCURRENCY, mapLimit, turnTaker } from '../concurrency.ts';
import { decodeKeptBody, routeBodyKey } from '../render/article-body.ts';
import { keptBody, markedKey, type KeptBody } from '../body-marker.ts';
import { generatorCode } from '../generator-code.ts';

/** What a page's thread reads from the cache: the body of the article it prints. */
export type PageReads = Pick<PageJob, 'body'>;

/**
 * Thrown once the pages are made if an article's body could not be read back from the cache when
 * its page had to be rendered: its entries are discarded by then, and the build runs again, parsing
 * that article afresh. A bad cache costs time, never a wrong page.
 */
export class LostBodiesError extends Error {
  override name = 'LostBodiesError';
}

const isBody = (v: unknown): v is KeptBody => keptBody(v) !== undefined;

/**
 * A page to make, under the key of its cache entry: worked out when first asked for, since it costs
 * a JSON text of the whole route, and a first build asks for it only once the page is made, while
 * the main thread waits for the workers anyway.
 */
export type KeyedPageJob = PageJob & { key: () => string; inputs: RouteInputs };

/**
 * What a route was made from: `site`, everything routes are made from but the article bodies (the
 * site's inputs hash of routes/route-inputs.ts, with the render context, the templates' code and the lockfile),
 * the same for every route of a build; `body`, for an article's page, the key of its body. Routes are
 * a pure function of the two, so while both are the last build's, the route at a file is the last
 * build's route there (its URL included). Compared as they are: hashing them for fifteen thousand
 * routes cost a rebuild 20 ms.
 */
export interface RouteInputs { site: string; body?: string }

/**
 * Where a route's key may be found without writing out its props: `site` names everything routes
 * are made from but the article bodies (see routes/route-inputs.ts), and `last` gives the key the last
 * build recorded for a route made from the same inputs, if it did.
 */
export interface RouteInputsLookup { site: string; last: (route: Route, source: RouteInputs) => string | undefined }

const isRoute = (v: unknown): v is Route => {
  const r = v as Route;
  return !!r && typeof r.url === 'string' && typeof r.file === 'string' && typeof r.template === 'string' && !!r.props && typeof r.props === 'object' && !!r.meta;
};

/** What every page's key holds besides its route: the lockfile, the templates' code, the render context. */
export const pageKeyBase = (lockHash: string, codeHash: string, ctx: Omit<RenderContext, 'url'>): string => hashOf(lockHash, codeHash, JSON.stringify(ctx));

/** A page's key, worked out from its route written out (see BuildCache.render). */
export const pageKey = (base: string, route: Route): string => hashOf(base, JSON.stringify(route));

/** A markdown entry's checked front matter names the generator that checked it. */
const isChecked = (c: CheckedFront | undefined) => c === undefined || (isCheckedFront(c) && typeof c.by === 'string');
const isParsed = (v: unknown): v is ParsedMarkdownFile => {
  const p = v as ParsedMarkdownFile;
  return !!p && (typeof p.front === 'string' || (p.front === undefined && p.checked !== undefined)) && typeof p.frontLine === 'number' && Array.isArray(p.frontErrors) && !!p.body && typeof p.body.html === 'string' && Array.isArray(p.body.toc) && Array.isArray(p.body.errors) && Array.isArray(p.body.images) && isChecked(p.checked);
};
/**
 * An entry as filed once the load found it valid: the front matter as checked, in place of the parsed
 * one and of its text (each read again cost a rebuild tens of milliseconds; the load reads the file
 * for an error's line instead).
 */
const filedChecked = (parsed: ParsedMarkdownFile, checked: CheckedFront): ParsedMarkdownFile => {
  const { frontData: _parsed, front: _text, ...rest } = parsed;
  return { ...rest, frontData: undefined, checked };
};

/**
 * The build's incremental cache in .site/cache/: parsed markdown keyed by the file's bytes (their SHA-256), its path,
 * the survey addresses, the images it names and the markdown code; pages keyed by the route's props
 * (or, where the route's inputs are the last build's, by the key it recorded: see RouteInputsLookup),
 * the render context and the templates' code (the page's document in the output is its cache: see
 * pipeline/render-stage.ts). Both keys also hold the lockfile, so that upgrading a package (remark, React)
 * invalidates them. An article's body HTML and table of contents (most of its parsed entry) are kept apart,
 * in .site/cache/bodies.pack under the same key, and the parsed article holds a marker naming it
 * (see render/article-body.ts): a rebuild reads and decodes only the small entries, the main thread
 * never holds every body, and a body is read only for a page that is made again.
 */
export class BuildCache {
  private readonly markdown: CacheStore<ParsedMarkdownFile>;
  private readonly bodies: CacheStore<KeptBody>;
  /**
   * Each article page's route, written out, under its page's key: what a quick rebuild
   * (pipeline/quick-build.ts) makes an article's page from when only its body changed, without the site.
   */
  private readonly routes: CacheStore<Route>;
  /** What the last build did: files parsed and pages rendered afresh (the rest came from the cache). */
  readonly counts = { parsed: 0, rendered: 0, keyed: 0 };
  /** Articles whose body could not be read back when their page needed it (see LostBodiesError). */
  private lost = 0;

  /** What the last load read of the content: the markdown files by their stat, the YAML files as found valid (see source-index.ts). */
  readonly sources: SourceIndex;

  private constructor(readonly lockHash: string, stores: [CacheStore<ParsedMarkdownFile>, CacheStore<KeptBody>, CacheStore<Route>], sources: SourceIndex) {
    this.sources = sources;
    [this.markdown, this.bodies, this.routes] = stores;
  }

  /** `memory`: entries kept in memory from one build to the next as well (serve's BuildSession). */
  static async open(root: string, memory?: Map<string, unknown>): Promise<BuildCache> {
    const [lock, markdown, bodies, routes] = await Promise.all([
      readFile(path.join(root, 'package-lock.json')).catch(() => Buffer.from('')),
      CacheStore.open(root, 'markdown', isParsed, memory),
      // Not in serve's memory: a save re-renders one page, whose body is one read of the pack away.
      CacheStore.open(root, 'bodies', isBody),
      CacheStore.open(root, 'routes', isRoute),
    ]);
    return new BuildCache(hashOf(lock), [markdown, bodies, routes], SourceIndex.open(root));
  }

  /**
   * Parsed markdown to store, put off until the pages are rendering: encoding a thousand files costs
   * the main thread a tenth of a second, which the workers would spend waiting for their first pages.
   */
  private unstored: Array<() => Promise<void>> = [];

  private async storeDeferred(): Promise<void> {
    for (const put of this.unstored.splice(0)) await put();
  }

  /**
   * What this build added, written; a pack grown stale rewritten. `partial`: a quick rebuild, which
   * used a few entries of each pack and must keep the rest (nothing is rewritten, only appended).
   */
  async save(partial = false): Promise<void> {
    await this.storeDeferred();
    if (partial) this.sources.keepUnseen();
    await Promise.all([this.markdown.save(!partial), this.bodies.save(!partial), this.routes.save(!partial), this.sources.save()]);
  }

  /** An article's body as kept (see `bodies`), not decoded: for the thread that renders its page. */
  bodyBytes(key: string): Promise<Uint8Array | undefined> { return this.bodies.getRaw(key); }

  /** An article page's route as the build that keyed it `key` wrote it out (see `routes`). */
  route(key: string): Promise<Route | undefined> { return this.routes.get(key); }

  /** `route` kept under its page's key `key`, for a quick rebuild after this one. */
  keepRoute(key: string, json: string): Promise<void> { return this.routes.setRaw(key, Buffer.from(json)); }


  /** An article's body HTML by its markdown key (the search index reads those it indexes), or undefined if it is not there. */
  async body(key: string): Promise<string | undefined> {
    const bytes = await this.bodies.getRaw(key);
    return bytes && decodeKeptBody(bytes)?.html;
  }

  /** Parsed markdown files the cache holds: a guess, before reading any content, at how many a build can reuse. */
  get markdownEntries(): number { return this.markdown.entries; }

  /** Entries found unreadable and deleted during this build. */
  get discarded() { return this.markdown.discarded + this.bodies.discarded; }

  /**
   * Each job's parsed file, from the cache or from `compute` (all the misses in one batch). The body
   * of a file that `apart` says only its page reads (an article: not a legal page, whose HTML the
   * load fills in) is parsed under its key: the thread that parses it makes the body's entry, which
   * goes into the bodies pack at once (appended a few megabytes at a time), and the result holds the
   * marker instead. A cached entry whose body is not in that pack is a miss.
   */
  async parse(jobs: LoadedMarkdown[], codeHash: string, compute: (jobs: MarkdownJob[]) => Promise<ParsedMarkdownFile[]>, apart: (job: LoadedMarkdown) => boolean = () => false): Promise<ParsedMarkdownFile[]> {
    // What every job shares (the survey addresses are one object for all) written out and hashed once, not ten thousand times.
    const shared = new Map<unknown, string>();
    const sharedOf = (forms: unknown) => shared.get(forms) ?? shared.set(forms, hashOf(this.lockHash, codeHash, JSON.stringify(forms ?? null))).get(forms)!;
    const keys = jobs.map((job) => hashOf(sharedOf(job.forms), job.rel, JSON.stringify(job.images ?? null), job.digest));
    const results = await mapLimit(keys, IO_CONCURRENCY, async (key) => {
      const hit = await this.markdown.get(key);
      const marked = markedKey(hit?.body.html);
      if (!hit || marked === undefined) return hit && this.checking(key, hit);
      // Its body's line is there (read only if its page is made again): kept at the next rewrite.
      if (marked === key && this.bodies.has(key)) { this.bodies.touch(key); return this.checking(key, hit); }
      this.markdown.discard(key);
      return undefined;
    });
    const missing = results.flatMap((r, i) => (r === undefined ? [i] : []));
    if (!missing.length) return results as ParsedMarkdownFile[];
    // An article is parsed under its key, so that its body comes back as the entry to file, and the marker.
    // A file left unread (known unchanged by its stat) is read now.
    const fresh = await compute(missing.map((i) => ({ ...parseJob(jobs[i]!), ...(apart(jobs[i]!) ? { apart: keys[i]! } : {}) })));
    const made: ParsedMarkdownFile[] = [];
    // What the load checks of a file parsed now goes into the entry it is first stored as.
    const checkedNow = new Map<number, CheckedFront>();
    let stored = false;
    for (const [k, index] of missing.entries()) {
      const { bodyEntry, ...result } = fresh[k]!;
      if (bodyEntry) await this.bodies.setRaw(keys[index]!, bodyEntry);
      made.push(result);
      results[index] = { ...result, remember: (checked) => {
        if (!stored) checkedNow.set(k, { ...checked, by: this.checker });
        else this.rememberLater(keys[index]!, result, checked);
      } };
    }
    this.counts.parsed += missing.length;
    // Encoded while the first pages render: ten thousand files held the main thread for 150 ms at a stretch, and the workers waited for their next pages.
    this.unstored.push(async () => {
      stored = true;
      const turn = turnTaker();
      await mapLimit(missing, IO_CONCURRENCY, async (index, k) => {
        await turn();
        const checked = checkedNow.get(k);
        await this.markdown.set(keys[index]!, checked ? filedChecked(made[k]!, checked) : made[k]!);
      });
    });
    return results as ParsedMarkdownFile[];
  }

  /** The generator whose checks of front matter the cache holds (see `checking`). */
  private readonly checker = generatorCode();

  /**
   * A cached entry as the load gets it: with its front matter as a load of this generator found it
   * valid (the load then checks nothing), or else as parsed, with a way to hand back what the load
   * checks, filed with the entry for the next build. An entry checked by another generator is a miss:
   * it no longer holds the parsed front matter to check again. Checking ten thousand articles'
   * front matter against the schema cost a rebuild a third of a second.
   */
  private checking(key: string, hit: ParsedMarkdownFile): ParsedMarkdownFile | undefined {
    if (hit.checked) return hit.checked.by === this.checker && !hit.frontErrors.length && !hit.body.errors.length ? hit : undefined;
    return { ...hit, remember: (front) => this.rememberLater(key, hit, front) };
  }

  /** The entry filed again, with what the load checked, once the pages are rendering. */
  private rememberLater(key: string, parsed: ParsedMarkdownFile, checked: CheckedFront): void {
    this.unstored.push(() => this.markdown.set(key, filedChecked(parsed, { ...checked, by: this.checker })));
  }

  /**
   * Every route's page: left standing where `stand` says its file still holds what this key makes;
   * else handed to `make`, as a job under its key, with a way to read its article's body (raw bytes,
   * decoded by whoever makes the page) and a way to settle the cache with what was made. Nothing is
   * kept, so a large site never holds every page's markup at once (a page whose route is unchanged
   * is cut out of the document the last build wrote: see render/page-output.ts).
   * Throws LostBodiesError, once every page is made, if a body turned out unreadable.
   */
  async render(routes: Route[], ctx: Omit<RenderContext, 'url'>, codeHash: string, known: RouteInputsLookup,
    stand: (route: Route, key: () => string, inputs: RouteInputs) => Promise<boolean>,
    make: (jobs: KeyedPageJob[], read: (job: KeyedPageJob) => Promise<PageReads>, settle: (job: KeyedPageJob, output: PageResult) => Promise<void>) => Promise<void>): Promise<void> {
    const shared = pageKeyBase(this.lockHash, codeHash, ctx);
    const jobs = new Array<KeyedPageJob | undefined>(routes.length);
    const site = hashOf(shared, known.site);
    // Made from the same site, and for an article's page the same body: the last build's key. Else
    // the route written out (an article's route holds the marker of its body, not the body: short).
    // An article page's route is kept written out under its key (see `routes`): written when it is keyed
    // anyway, or once if the pack has lost it.
    const keyOf = (route: Route, inputs: RouteInputs) => {
      const last = known.last(route, inputs);
      if (last !== undefined) {
        if (route.template === 'blogPost') {
          if (this.routes.has(last)) this.routes.touch(last);
          else this.keepRoute(last, JSON.stringify(route)).catch(() => undefined);
        }
        return last;
      }
      this.counts.keyed++;
      const json = JSON.stringify(route);
      const key = hashOf(shared, json);
      if (route.template === 'blogPost') this.keepRoute(key, json).catch(() => undefined);
      return key;
    };
    await mapLimit(routes, IO_CONCURRENCY, async (route, i) => {
      let key: string | undefined;
      const body = routeBodyKey(route);
      const inputs: RouteInputs = body === undefined ? { site } : { site, body };
      const job: KeyedPageJob = { route, inputs, key: () => (key ??= keyOf(route, inputs)) };
      // Its output stands as the last build left it: nothing to read.
      if (!await stand(route, job.key, inputs)) jobs[i] = job;
    });
    const todo = jobs.filter((j) => j !== undefined);
    if (!todo.length) return;
    const made = make(todo, async (job) => {
      // Read here, not decoded: the thread that makes the page decodes it if it renders the page.
      const marked = routeBodyKey(job.route);
      const body = marked === undefined ? undefined : await this.bodies.getRaw(marked);
      return body ? { body } : {};
    }, async (job, output) => {
      if ('lostBody' in output) {
        // Both entries go: the next run parses the article again.
        const marked = routeBodyKey(job.route)!;
        this.markdown.discard(marked);
        if (this.bodies.has(marked)) this.bodies.discard(marked);
        this.lost++;
      } else if (output.rendered) this.counts.rendered++;
    });
    // Once the first pages are on their way to the workers, the main thread has time for the markdown.
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([made, this.storeDeferred()]);
    if (this.lost) throw new LostBodiesError(`${this.lost} article bod${this.lost === 1 ? 'y' : 'ies'} unreadable in the build cache`);
  }
}


/**
 * The article bodies' pack, opened to read (`site serve` makes a page the last build left standing
 * and whose article's body is there): a body's bytes by its markdown key, and a way to let the file go.
 */
export async function bodyReader(root: string): Promise<{ read: (key: string) => Promise<Uint8Array | undefined>; close: () => Promise<void> }> {
  const store = await CacheStore.open(root, 'bodies', isBody);
  return { read: (key) => store.getRaw(key), close: () => store.close() };
}

/**
 * The article pages' routes, opened to read (`site serve` answers a save made as it starts from the
 * last run's pages): a route by its page's key (the file list's), and a way to let the file go.
 */
export async function routeReader(root: string): Promise<{ read: (key: string) => Promise<Route | undefined>; close: () => Promise<void> }> {
  const store = await CacheStore.open(root, 'routes', isRoute);
  return { read: (key) => store.get(key), close: () => store.close() };
}
