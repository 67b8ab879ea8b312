import type { MarkdownJob, ParsedMarkdownFile } from '../content/markdown-job.ts';
import type { PageJob, PageResult, PagesTask, UnwrittenPage } from '../render/page-output.ts';
import { writeContents } from '../output/tree-file.ts';
import type { BuildCode } from './code.ts';
import type { CardJob } from '../cards/plan.ts';
import { availableParallelism } from 'node:os';
import { WorkerPool } from './pool.ts';
import { mapLimit } from '../concurrency.ts';
import type { CardProcess } from '../cards/card-process.ts';
import { nativeLoads } from '../cards/engine.ts';

/**
 * Below this many pieces of work (markdown files or pages not in the cache) a call runs on the
 * main thread: starting workers (each loads React, the templates and the markdown processor) costs more than it
 * saves on a small site. Measured on this 2-core machine; see the README.
 */
export const POOL_THRESHOLD = 150;

/**
 * Markdown files or pages a worker is started for. A worker's start (Node's thread, the modules
 * loaded, the code warmed up) costs some 0.4–0.5 s of CPU and a page or a parse some 0.5 ms, so a
 * second worker pays only for thousands: on two cores, 1,000 articles (1,545 pages), cards cached,
 * took the same wall time with one worker as with two and 0.90× the CPU (5 alternating pairs), and
 * 10,000 took 0.90× the wall time with two as with one, for the same CPU (6 pairs).
 */
export const WORK_PER_WORKER = 2_000;
/** A card costs some 10 ms of CPU, twenty pages' worth. */
const CARD_WORK = 20;

/** The workers for `work` files or pages: one per WORK_PER_WORKER, one per core at most, one at least. */
export function workersFor(work: number, cores = availableParallelism()): number {
  return Math.max(1, Math.min(cores, Math.ceil(work / WORK_PER_WORKER)));
}

/**
 * Batches of pages in flight per worker while the main thread writes the documents handed back: a
 * worker whose next batch waits for the writing of the last sits idle (40–50 % of the render, with
 * one batch ahead, at 1,000 articles). Each batch holds at most 32 documents (a megabyte or so).
 */
const HANDED_BACK_LANES = 3;

/**
 * Runs the build's markdown and rendering in a pool of worker threads, or inline when the work is
 * small; the pool starts on the first large call and is shared by the rest of the build.
 */
export class BuildWorkers {
  private pool: WorkerPool | undefined;

  /**
   * `early`: a pool started before the code was bundled (see `startEarly`), which this one takes over.
   * `drawer`: the card process that draws the cards the pool does not (see `cards`); its owner closes it.
   * `helpHere`: this thread parses markdown beside the pool's workers when it has nothing else to do
   * (WorkerPool.helpHere): for `site build`, not for serve, whose thread answers the browser.
   */
  constructor(private readonly code: BuildCode, private readonly threshold = POOL_THRESHOLD, early?: WorkerPool, private readonly drawer?: () => CardProcess, private readonly helpHere = false) {
    if (early) { this.pool = this.helped(early.boot(code.workerFile, this.data)); this.startedOnce = true; }
  }

  private helped(pool: WorkerPool): WorkerPool {
    return this.helpHere ? pool.helpHere(({ jobs }) => this.parseHere(jobs)) : pool;
  }

  /** Markdown files parsed on this thread, with the code the workers run. */
  private async parseHere(jobs: MarkdownJob[]): Promise<ParsedMarkdownFile[]> {
    const { parseMarkdownFile } = (await import(this.code.markdownUrl)) as { parseMarkdownFile: (job: MarkdownJob) => Promise<ParsedMarkdownFile> };
    return Promise.all(jobs.map(parseMarkdownFile));
  }

  /** Whether the pool was started during this build. */
  startedOnce = false;

  private get data() { return { renderUrl: this.code.renderUrl, cardsUrl: this.code.cardsUrl }; }

  private poolFor(count: number, size = workersFor(count)): WorkerPool | undefined {
    if (count < this.threshold) return this.pool;
    this.startedOnce = true;
    return (this.pool ??= this.helped(new WorkerPool({ file: this.code.workerFile, data: this.data }, size))).grow(size);
  }

  /**
   * A pool started now, before the build's code is bundled, if about `expected` files will need
   * parsing: its workers load the packages that code imports (a quarter of a second or more) while
   * esbuild bundles it and the main thread reads the content. Hand it to the BuildWorkers made once
   * the code is there.
   */
  static startEarly(root: string, expected: number, threshold = POOL_THRESHOLD): WorkerPool | undefined {
    return expected >= threshold ? new WorkerPool({ root }, workersFor(expected)) : undefined;
  }

  async parse(jobs: MarkdownJob[]): Promise<ParsedMarkdownFile[]> {
    const pool = this.poolFor(jobs.length);
    if (pool) return pool.map(jobs, (batch) => ({ kind: 'markdown', jobs: batch }));
    return this.parseHere(jobs);
  }

  /**
   * Each page rendered (or cut out of the document the last build wrote, when only the shell
   * changed), made into its document and measured, on the pool's threads when there are many, else
   * here with the same code; written into the staging tree here, one file at a time, whichever
   * thread made it (see PagesTask.handBack), unless its last document stands and is linked in.
   * `read` fetches, just before its batch goes, the body of the article whose route holds only its
   * marker; `each` gets what the main thread needs of the page, never its markup.
   */
  async pages<J extends PageJob>(jobs: J[], common: Omit<PagesTask, 'jobs'>, read: (job: J) => Promise<Pick<PageJob, 'body'>>, each: (job: J, output: PageResult) => Promise<void>): Promise<void> {
    // What a worker needs of each job, and no more (the caller's jobs may carry more, functions even).
    const withEntries = (batch: J[]) => Promise.all(batch.map(async (job): Promise<PageJob> => {
      const { body } = await read(job);
      return { route: job.route, ...(job.before ? { before: job.before } : {}), ...(job.previous ? { previous: job.previous } : {}), ...(body ? { body } : {}) };
    }));
    const pool = this.poolFor(jobs.length);
    if (pool) {
      // The documents the workers hand back, written here, one file at a time (see PagesTask.handBack).
      const made = new Set<string>();
      const written = (job: J, out: PageResult | UnwrittenPage): PageResult => {
        if (!('document' in out)) return out;
        const { document, entry, ...rest } = out;
        return { ...rest, entry: { ...writeContents(common.trees, job.route.file, document, entry.hash, job.before, made), gzip: entry.gzip, gzipLevel: entry.gzipLevel } };
      };
      await pool.forEach<J, PageResult | UnwrittenPage>(jobs, async (batch) => ({ kind: 'pages', task: { ...common, jobs: await withEntries(batch), handBack: true } }), async (batch, results) => {
        for (const [i, job] of batch.entries()) await each(job, written(job, results[i]!));
      }, HANDED_BACK_LANES * pool.size + 1);
      return;
    }
    const { makePages } = (await import(this.code.renderUrl)) as { makePages: (task: PagesTask) => PageResult[] };
    // Without handBack every page comes back written.
    for (const job of jobs) await each(job, makePages({ ...common, jobs: await withEntries([job]) })[0]!);
  }

  /**
   * Each card drawn and handed to `each` as PNG bytes: on the pool when there are many or it is
   * running already, else by the card process (cards/card-process.ts), all sent at once: it draws
   * them at the lowest priority, on the CPU the rest of the build leaves idle, so that pages, search
   * and images, which the build's end waits for, are not slowed by them.
   */
  async cards(jobs: CardJob[], each: (job: CardJob, png: Uint8Array) => Promise<void>): Promise<void> {
    // Wherever a card is drawn, takumi without its native binding falls back silently: said here,
    // on the main thread, once.
    await nativeLoads();
    const size = workersFor(jobs.length * CARD_WORK);
    const pool = this.pool?.grow(size) ?? this.poolFor(jobs.length, size);
    if (pool) {
      await pool.forEach<CardJob, Uint8Array>(jobs, (batch) => ({ kind: 'cards', jobs: batch }), async (batch, results) => {
        await mapLimit(batch, 8, (job, i) => each(job, results[i]!));
      });
      return;
    }
    if (!this.drawer) throw new Error('cards to draw, but no card process to draw them');
    const drawer = this.drawer().load(this.code.cardsUrl);
    const drawn = jobs.map(async (job) => {
      // The card process's drawing, unless `hurry` draws it first.
      const helped = new Promise<Uint8Array>((take) => this.outstanding.set(job, take));
      const png = await Promise.race([drawer.draw(job), helped]).finally(() => this.outstanding.delete(job));
      await each(job, png);
    });
    // Asked for after the build was left with nothing else to wait for: helped at once.
    if (this.hurried) void this.help();
    await Promise.all(drawn);
  }

  /** Cards sent to the card process and not drawn yet, each with the way to hand it over drawn elsewhere. */
  private readonly outstanding = new Map<CardJob, (png: Uint8Array) => void>();

  /**
   * The cards still awaited from the card process drawn here, at the build's own priority, for a
   * build that has nothing else left to wait for. The card process runs at nice 19 and gets only
   * the CPU other work leaves: on a machine busy with other work, a build waited on it for the one
   * card it had left (14.6 s of a 17.8 s rebuild in `site serve` beside 16 busy loops, against
   * 0.17 s quiet; over 100 s beside a test suite). Whichever draws a card first gives it; a card
   * that cannot be drawn here is left to the card process, which says why.
   */
  hurry(): Promise<void> {
    this.hurried = true;
    return this.help();
  }

  private hurried = false;

  private async help(): Promise<void> {
    const left = [...this.outstanding];
    for (const [job] of left) this.outstanding.delete(job);
    if (!left.length) return;
    try {
      const jobs = left.map(([job]) => job);
      // On the pool when one runs or these cards are worth starting one for, else on this thread,
      // as the build's other work is.
      const pool = this.pool ?? this.poolFor(jobs.length * CARD_WORK, 1);
      let pngs: Uint8Array[];
      if (pool) pngs = await pool.map<CardJob, Uint8Array>(jobs, (batch) => ({ kind: 'cards', jobs: batch }));
      else {
        const { drawCard } = (await import(this.code.cardsUrl)) as { drawCard: (job: CardJob) => Promise<Uint8Array> };
        pngs = await mapLimit(jobs, 2, drawCard);
      }
      left.forEach(([, take], i) => take(pngs[i]!));
    } catch {
      // Left to the card process.
    }
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = undefined;
  }
}
