import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { MarkdownJob, ParsedMarkdownFile } from '../content/markdown-file.ts';
import { isCachedPage, type CachedPage } from '../render/page-entry.ts';
import type { PageJob, PageOutput } from '../render/page-output.ts';
import type { Route } from '../routes/table.ts';
import type { RenderContext } from '../page-api/site-context.tsx';
import { CacheStore, hashOf } from './store.ts';
import { cachedMap } from './cached.ts';
import { IO_CONCURRENCY, mapLimit } from '../concurrency.ts';

/**
 * A page to make, under the key of its cache entry: worked out when first asked for, since it costs
 * a JSON text of the whole route (an article's HTML with it), and a first build asks for it only
 * once the page is made, while the main thread waits for the workers anyway.
 */
export type KeyedPageJob = PageJob & { key: () => string };

const isParsed = (v: unknown): v is ParsedMarkdownFile => {
  const p = v as ParsedMarkdownFile;
  return !!p && typeof p.front === 'string' && typeof p.frontLine === 'number' && Array.isArray(p.frontErrors) && !!p.body && typeof p.body.html === 'string' && Array.isArray(p.body.toc) && Array.isArray(p.body.errors) && Array.isArray(p.body.images);
};
/**
 * The build's incremental cache in .site-cache/: parsed markdown keyed by the file's text, its path,
 * the survey addresses, the images it names and the markdown code; rendered pages keyed by the route's props, the render
 * context and the templates' code. Both keys also hold the lockfile, so that upgrading a package
 * (remark, React) invalidates them.
 */
export class BuildCache {
  private readonly markdown: CacheStore<ParsedMarkdownFile>;
  private readonly pages: CacheStore<CachedPage>;
  /** What the last build did: files parsed and pages rendered afresh (the rest came from the cache). */
  readonly counts = { parsed: 0, rendered: 0 };

  private constructor(private readonly lockHash: string, stores: [CacheStore<ParsedMarkdownFile>, CacheStore<CachedPage>]) {
    [this.markdown, this.pages] = stores;
  }

  /** `memory`: entries kept in memory from one build to the next as well (serve's session). */
  static async open(root: string, memory?: Map<string, unknown>): Promise<BuildCache> {
    const [lock, markdown, pages] = await Promise.all([
      readFile(path.join(root, 'package-lock.json')).catch(() => Buffer.from('')),
      CacheStore.open(root, 'markdown', isParsed, memory),
      CacheStore.open(root, 'pages', isCachedPage, memory),
    ]);
    return new BuildCache(hashOf(lock), [markdown, pages]);
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
   * Each markdown body's HTML → the key of the markdown it was made from, which names it as surely:
   * the parse is a pure function of what that key holds.
   */
  private readonly bodies = new Map<string, string>();

  /**
   * The text a page's key is made from: the route as JSON, an article's body (most of the text, and
   * the costliest to escape and hash) written as the key of its markdown. A rebuild of a large blog
   * works out every page's key, and this was the largest cost of its main thread, with its garbage.
   * The body is swapped out of the route's props for the one synchronous call, and back.
   */
  private routeText(route: Route): string {
    const post = (route.props as { post?: { html?: unknown } }).post;
    const html = post?.html;
    const key = typeof html === 'string' ? this.bodies.get(html) : undefined;
    if (key === undefined) return JSON.stringify(route);
    post!.html = `#markdown:${key}`;
    try { return JSON.stringify(route); } finally { post!.html = html; }
  }

  /** What this build added, written; a pack grown stale rewritten. */
  async save(): Promise<void> {
    await this.storeDeferred();
    await Promise.all([this.markdown.save(), this.pages.save()]);
  }


  /** Parsed markdown files the cache holds: a guess, before reading any content, at how many a build can reuse. */
  get markdownEntries(): number { return this.markdown.entries; }

  /** Entries found unreadable and deleted during this build. */
  get discarded() { return this.markdown.discarded + this.pages.discarded; }

  async parse(jobs: MarkdownJob[], codeHash: string, compute: (jobs: MarkdownJob[]) => Promise<ParsedMarkdownFile[]>) {
    const { results, computed, keys } = await cachedMap(this.markdown, jobs, (job) => hashOf(this.lockHash, codeHash, job.rel, JSON.stringify(job.forms ?? null), JSON.stringify(job.images ?? null), job.source), compute, (put) => this.unstored.push(put));
    this.counts.parsed += computed;
    results.forEach((result, i) => this.bodies.set(result.body.html, keys[i]!));
    return results;
  }

  /**
   * Every route's page: left standing where `stand` says its file still holds what this key makes;
   * else handed to `make`, as a job under its key, with a way to read its cache entry (raw bytes,
   * decoded by whoever makes the page) and a way to settle the cache with what was made. Nothing is
   * kept, so a large site never holds every page's markup at once.
   */
  async render(routes: Route[], ctx: Omit<RenderContext, 'url'>, codeHash: string,
    stand: (route: Route, key: () => string) => Promise<boolean>,
    make: (jobs: KeyedPageJob[], read: (job: KeyedPageJob) => Promise<Uint8Array | undefined>, settle: (job: KeyedPageJob, output: PageOutput) => Promise<void>) => Promise<void>): Promise<void> {
    const shared = hashOf(this.lockHash, codeHash, JSON.stringify(ctx));
    const jobs = new Array<KeyedPageJob | undefined>(routes.length);
    await mapLimit(routes, IO_CONCURRENCY, async (route, i) => {
      let key: string | undefined;
      const job: KeyedPageJob = { route, key: () => (key ??= hashOf(shared, this.routeText(route))) };
      // Its output stands as the last build left it: nothing to read. The entry stays for the day it is needed.
      if (await stand(route, job.key)) this.pages.touch(job.key());
      else jobs[i] = job;
    });
    const todo = jobs.filter((j) => j !== undefined);
    if (!todo.length) return;
    const made = make(todo, async (job) => (this.pages.mayHold ? this.pages.getRaw(job.key()) : undefined), async (job, output) => {
      if (output.discarded) this.pages.discard(job.key());
      if (output.entry) { this.counts.rendered++; await this.pages.setRaw(job.key(), output.entry); }
    });
    // Once the first pages are on their way to the workers, the main thread has time for the markdown.
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([made, this.storeDeferred()]);
  }
}

