import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { MarkdownJob, ParsedMarkdownFile } from '../content/markdown-file.ts';
import type { RenderedPage } from '../render/page.tsx';
import { islandList, islandMap, type IslandList } from '../render/island-list.ts';
import type { Route } from '../routes/table.ts';
import type { RenderContext } from '../page-api/site-context.tsx';
import { CacheStore, hashOf } from './store.ts';
import { cachedMap } from './cached.ts';
import { IO_CONCURRENCY, mapLimit } from '../concurrency.ts';
import type { ImagePreload, ImageUse } from '../images/picture.ts';

/** A rendered page as cached: its route is the build's own, so only the markup and the islands are kept. */
type CachedPage = { head: string; body: string; islands: IslandList; images: ImageUse[]; preload?: ImagePreload };

const isParsed = (v: unknown): v is ParsedMarkdownFile => {
  const p = v as ParsedMarkdownFile;
  return !!p && typeof p.front === 'string' && typeof p.frontLine === 'number' && Array.isArray(p.frontErrors) && !!p.body && typeof p.body.html === 'string' && Array.isArray(p.body.toc) && Array.isArray(p.body.errors) && Array.isArray(p.body.images);
};
const isPage = (v: unknown): v is CachedPage => {
  const p = v as CachedPage;
  return !!p && typeof p.head === 'string' && typeof p.body === 'string' && Array.isArray(p.images) && Array.isArray(p.islands) && p.islands.every((i) => Array.isArray(i) && typeof i[0] === 'string' && Array.isArray(i[1]));
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
      CacheStore.open(root, 'pages', isPage, memory),
    ]);
    return new BuildCache(hashOf(lock), [markdown, pages]);
  }

  /** What this build added, written; a pack grown stale rewritten. */
  async save(): Promise<void> {
    await Promise.all([this.markdown.save(), this.pages.save()]);
  }


  /** Parsed markdown files the cache holds: a guess, before reading any content, at how many a build can reuse. */
  get markdownEntries(): number { return this.markdown.entries; }

  /** Entries found unreadable and deleted during this build. */
  get discarded() { return this.markdown.discarded + this.pages.discarded; }

  async parse(jobs: MarkdownJob[], codeHash: string, compute: (jobs: MarkdownJob[]) => Promise<ParsedMarkdownFile[]>) {
    const { results, computed } = await cachedMap(this.markdown, jobs, (job) => hashOf(this.lockHash, codeHash, job.rel, JSON.stringify(job.forms ?? null), JSON.stringify(job.images ?? null), job.source), compute);
    this.counts.parsed += computed;
    return results;
  }

  /**
   * Every route's rendered page handed to `each`, from the cache where its key is there and from
   * `compute` (which streams its results) where not; nothing is kept, so a large site never holds
   * every page's markup at once.
   */
  async render(routes: Route[], ctx: Omit<RenderContext, 'url'>, codeHash: string, compute: (routes: Route[], each: (route: Route, page: Omit<RenderedPage, 'route'>) => Promise<void>) => Promise<void>, each: (page: RenderedPage, key: string) => Promise<void>, done?: (route: Route, key: string) => Promise<boolean>): Promise<void> {
    const shared = hashOf(this.lockHash, codeHash, JSON.stringify(ctx));
    const keys = new Map<Route, string>();
    const missing: Route[] = [];
    await mapLimit(routes, IO_CONCURRENCY, async (route) => {
      const key = hashOf(shared, JSON.stringify(route));
      // Its output stands as the last build left it: nothing to read. The entry stays for the day it is needed.
      if (await done?.(route, key)) { this.pages.touch(key); return; }
      const hit = await this.pages.get(key);
      if (hit) await each(fromCache(route, hit), key);
      else { keys.set(route, key); missing.push(route); }
    });
    this.counts.rendered += missing.length;
    if (!missing.length) return;
    await compute(missing, async (route, p) => {
      const cached: CachedPage = { head: p.head, body: p.body, islands: islandList(p.islands), images: p.images, ...(p.preload ? { preload: p.preload } : {}) };
      await this.pages.set(keys.get(route)!, cached);
      await each({ route, ...p }, keys.get(route)!);
    });
  }
}

function fromCache(route: Route, p: CachedPage): RenderedPage {
  return { route, head: p.head, body: p.body, islands: islandMap(p.islands), images: p.images, preload: p.preload };
}
