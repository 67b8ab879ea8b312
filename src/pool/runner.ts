import type { MarkdownJob, ParsedMarkdownFile } from '../content/markdown-file.ts';
import type { Route } from '../routes/table.ts';
import type { RenderContext } from '../page-api/site-context.tsx';
import type { RenderedPage } from '../render/page.tsx';
import type { BuildCode } from './code.ts';
import type { CardJob } from '../cards/plan.ts';
import { WorkerPool } from './pool.ts';
import { mapLimit } from '../concurrency.ts';
import { gzipHere, type GzipSize } from '../write.ts';

/**
 * Below this many pieces of work (markdown files or pages not in the cache) a call runs on the
 * main thread: starting workers (each loads React, the templates and the markdown processor) costs more than it
 * saves on a small site. Measured on this 2-core machine; see the README.
 */
/** A rendered page without its route, which the caller holds. */
export type PageMarkup = Omit<RenderedPage, 'route'>;

export const POOL_THRESHOLD = 150;

/**
 * Runs the build's markdown and rendering in a pool of worker threads, or inline when the work is
 * small; the pool starts on the first large call and is shared by the rest of the build.
 */
export class BuildWorkers {
  private pool: WorkerPool | undefined;

  constructor(private readonly code: BuildCode, private readonly threshold = POOL_THRESHOLD) {}

  /** Whether the pool was started during this build. */
  startedOnce = false;

  private poolFor(count: number): WorkerPool | undefined {
    if (count < this.threshold) return this.pool;
    this.startedOnce = true;
    return (this.pool ??= new WorkerPool(this.code.workerFile, { renderUrl: this.code.renderUrl, cardsUrl: this.code.cardsUrl }));
  }

  /**
   * Starts the pool now if about `expected` files will need parsing: its workers then load their
   * code (a second or so on a busy machine) while the main thread reads the content.
   */
  prestart(expected: number): void {
    this.poolFor(expected);
  }

  async parse(jobs: MarkdownJob[]): Promise<ParsedMarkdownFile[]> {
    const pool = this.poolFor(jobs.length);
    if (pool) return pool.map(jobs, (batch) => ({ kind: 'markdown', jobs: batch }));
    const { parseMarkdownFile } = (await import(this.code.markdownUrl)) as { parseMarkdownFile: (job: MarkdownJob) => Promise<ParsedMarkdownFile> };
    return Promise.all(jobs.map(parseMarkdownFile));
  }

  /** Each route rendered, handed to `each` with its markup as soon as its batch is done; none are kept. */
  async render(routes: Route[], ctx: Omit<RenderContext, 'url'>, each: (route: Route, page: PageMarkup) => Promise<void>): Promise<void> {
    const pool = this.poolFor(routes.length);
    if (pool) {
      await pool.forEach<Route, PageMarkup>(routes, (batch) => ({ kind: 'render', routes: batch, ctx }), async (batch, results) => {
        // A batch's pages written a few at a time: one by one, the disk's latency would hold up the workers.
        await mapLimit(batch, 8, (route, i) => each(route, results[i]!));
      });
      return;
    }
    const { render } = (await import(this.code.renderUrl)) as { render: (route: Route, ctx: RenderContext) => RenderedPage };
    for (const route of routes) await each(route, render(route, { ...ctx, url: route.url }));
  }

  /**
   * Each card drawn and handed to `each` as PNG bytes: on the pool when there are many or it is
   * running already, else two at a time here (satori's layout and sharp's raster then overlap).
   */
  async cards(jobs: CardJob[], each: (job: CardJob, png: Uint8Array) => Promise<void>): Promise<void> {
    const pool = this.pool ?? this.poolFor(jobs.length);
    if (pool) {
      await pool.forEach<CardJob, Uint8Array>(jobs, (batch) => ({ kind: 'cards', jobs: batch }), async (batch, results) => {
        await mapLimit(batch, 8, (job, i) => each(job, results[i]!));
      });
      return;
    }
    const { drawCard } = (await import(this.code.cardsUrl)) as { drawCard: (job: CardJob) => Promise<Uint8Array> };
    await mapLimit(jobs, 2, async (job) => each(job, await drawCard(job)));
  }

  /**
   * A gzip measure for the write stage, on the pool's threads once it has started (the main thread,
   * which writes every page, is the one a large build waits on); until then, zlib on libuv's pool.
   */
  gzipSize: GzipSize = async (data) => {
    if (!this.pool) return gzipHere(data);
    // Its own copy, handed over whole: the caller's bytes may share a buffer with others.
    const copy = new Uint8Array(data);
    return ((await this.pool.run({ kind: 'gzip', data: copy }, [copy.buffer as ArrayBuffer])) as number[])[0]!;
  };

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = undefined;
  }
}
