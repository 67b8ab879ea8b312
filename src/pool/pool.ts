import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { Task, WorkerData } from './worker.ts';
import { BOOT_SOURCE, PRELOAD } from './boot.ts';

/**
 * Each worker's heap, capped: left to grow, V8 let each worker's heap reach two or three times what
 * it kept alive (a page's garbage lives a few milliseconds, and what a worker keeps, the renderer and
 * one batch of pages or cards, does not grow with the site), and at 10,000 articles the build's peak
 * memory went over a gigabyte (1,100 MiB; 930 capped). The old generation's cap is some twice the
 * most a worker was seen to hold; a worker that needs more stops the build with V8's out-of-memory
 * error rather than take the machine's memory.
 */
const YOUNG_GENERATION_MB = 16;
const OLD_GENERATION_MB = 192;

interface Job { id: number; task: Task; transfer?: ArrayBuffer[]; resolve: (results: unknown[]) => void; reject: (error: Error) => void }

/** A markdown task run on the thread that owns the pool, as a worker would run it (see `helpHere`). */
export type HereRunner = (task: Extract<Task, { kind: 'markdown' }>) => Promise<unknown[]>;
/** The tasks that thread takes (see `helpHere`). */
const forHere = (job: Job) => job.task.kind === 'markdown';

/**
 * Tasks a worker holds at once while this thread helps (see `helpHere`): the one it runs and the
 * next, waiting in its port. With the next already there, a worker goes on while this thread parses
 * a batch of its own or writes the documents handed back, rather than wait for it to hand the next
 * over (1,000 articles, one worker: 0.934× the wall time, 5 pairs; helping while a worker holds one
 * task, 1.029×). A card task is held alone, each card drawn holding megabytes of pixels. Without the
 * help (a worker per core) a worker holds one: holding two raised the peak memory of 10,000 articles'
 * build, two workers, from 712–734 MiB to 884–1,321 MiB.
 */
const HELD = 2;

/**
 * Worker threads, as many as the work calls for (`workersFor`), each running the build's bundled
 * worker module. Tasks queue and go to whichever worker is free, and, once `helpHere` is called, to
 * the owning thread too whenever it has nothing else to do.
 */
export class WorkerPool {
  /** The workers whose module is loaded, each with the tasks it holds, oldest first. */
  private held = new Map<Worker, Job[]>();
  private queue: Job[] = [];
  private nextId = 0;
  private failed: Error | undefined;
  private closing = false;
  private booted = false;
  private here: { run: HereRunner; busy: boolean; cores: number } | undefined;
  /** What a worker started now runs: the bundled module once the pool knows it. */
  private code: { file: string; data: WorkerData } | { root: string };
  readonly workers: Worker[] = [];

  /**
   * `code`: the bundled worker module and its data; without it, the workers start with BOOT_SOURCE,
   * loading packages from `root` until `boot` names the module. A worker takes tasks once its module
   * says it is ready. `size`: the workers to start with (see `workersFor`); `grow` adds more.
   */
  constructor(code: { file: string; data: WorkerData } | { root: string }, size = availableParallelism()) {
    this.booted = 'file' in code;
    this.code = code;
    for (let i = 0; i < size; i++) this.start(code);
  }

  /** How many workers the pool has. */
  get size(): number { return this.workers.length; }

  /** Whether this thread takes tasks now: it was asked to (`helpHere`) and the workers leave it a core. */
  private get helping(): boolean { return this.here !== undefined && this.workers.length < this.here.cores; }

  /** How many threads take its markdown tasks: the workers, and this thread while it helps. */
  private get lanes(): number { return this.workers.length + (this.helping ? 1 : 0); }

  /**
   * From now on this thread takes queued markdown tasks too, with `run`, whenever its event loop
   * comes round with one waiting that no worker has room for: on two cores a build's main thread
   * otherwise sits idle while its one worker parses (about a second at 1,000 articles). Page tasks
   * stay with the workers: while they render, this thread writes the documents they hand back, and
   * rendering here too made it the render's bottleneck (1,000 articles, 5 pairs: 0.98× the wall time
   * for 1.10× the CPU, React loaded here as well). It helps only while the workers leave one of the
   * `cores` free: beside as many workers as cores it would only take their CPU. A task is taken a
   * turn after it is queued, so that whatever queued it goes on first.
   */
  helpHere(run: HereRunner, cores = availableParallelism()): this {
    this.here = { run, busy: false, cores };
    this.dispatch();
    return this;
  }

  /**
   * Workers added, up to `size` in all: for work that pays for their start (the cards of a first
   * build, say). Those added run the bundled module at once when the pool has been told it.
   */
  grow(size: number): this {
    while (!this.closing && this.workers.length < size) this.start(this.code);
    return this;
  }

  private start(code: { file: string; data: WorkerData } | { root: string }): void {
    // Production React: the development build renders about five times slower.
    const options = { env: { ...process.env, NODE_ENV: 'production' }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, maxOldGenerationSizeMb: OLD_GENERATION_MB } };
    const worker = 'file' in code
      ? new Worker(code.file, { ...options, workerData: code.data })
      : new Worker(BOOT_SOURCE, { ...options, eval: true, workerData: { root: code.root, preload: PRELOAD } });
    worker.on('message', (message: { id: number; results?: unknown[]; error?: string; ready?: true }) => {
      if (message.ready) { this.held.set(worker, []); this.dispatch(); return; }
      const jobs = this.held.get(worker);
      const at = jobs?.findIndex((j) => j.id === message.id) ?? -1;
      if (at >= 0) {
        const [job] = jobs!.splice(at, 1) as [Job];
        if (message.error !== undefined) job.reject(new Error(message.error));
        else job.resolve(message.results!);
      }
      this.dispatch();
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (exit) => { if (exit !== 0 && !this.closing) this.fail(worker, new Error(`a build worker stopped with exit code ${exit}`)); });
    this.workers.push(worker);
  }

  /** A pool started without its code (see the constructor) told where the bundled worker module is; once. */
  boot(file: string, data: WorkerData): this {
    if (this.booted) return this;
    this.booted = true;
    for (const worker of this.workers) worker.postMessage({ boot: { url: pathToFileURL(file).href, data } });
    this.code = { file, data };
    return this;
  }

  /** The task's items cut into batches, several per thread taking them so that a slow batch does not hold up the rest. */
  async map<T, R>(items: T[], toTask: (batch: T[]) => Task): Promise<R[]> {
    const per = Math.max(1, Math.min(64, Math.ceil(items.length / (this.lanes * 4))));
    const batches: T[][] = [];
    for (let i = 0; i < items.length; i += per) batches.push(items.slice(i, i + per));
    const results = await Promise.all(batches.map((batch) => this.run(toTask(batch))));
    return results.flat() as R[];
  }

  /**
   * Like `map`, but hands each batch's results to `each` as they arrive and keeps none of them: a
   * batch is sent only while fewer than `lanes` (by default one per worker, plus one) are made or
   * await `each`, so a slow consumer holds back the workers instead of letting results pile up in memory.
   */
  async forEach<T, R>(items: T[], toTask: (batch: T[]) => Task | Promise<Task>, each: (batch: T[], results: R[]) => Promise<void>, lanes = this.size + 1): Promise<void> {
    const per = Math.max(1, Math.min(32, Math.ceil(items.length / (this.size * 4))));
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const batch = items.slice(next, next += per);
        await each(batch, (await this.run(await toTask(batch))) as R[]);
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
  }

  /** `transfer`: buffers handed to the worker rather than copied (the caller must not use them after). */
  run(task: Task, transfer?: ArrayBuffer[]): Promise<unknown[]> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, transfer, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch() {
    const helping = this.helping;
    while (this.queue.length) {
      const job = this.queue[0]!;
      // The worker holding fewest tasks that can take this one.
      let to: Worker | undefined;
      for (const [worker, jobs] of this.held) {
        const room = jobs.length === 0 || (helping && jobs.length < HELD && job.task.kind !== 'cards' && jobs.every((j) => j.task.kind !== 'cards'));
        if (room && (!to || jobs.length < this.held.get(to)!.length)) to = worker;
      }
      if (!to) break;
      this.queue.shift();
      this.held.get(to)!.push(job);
      to.postMessage({ id: job.id, task: job.task }, job.transfer ?? []);
    }
    const here = this.here;
    if (!helping || !here || here.busy || this.failed || !this.queue.some(forHere)) return;
    here.busy = true;
    setImmediate(() => {
      // The first such task still queued: a worker may have taken it meanwhile.
      const at = this.failed ? -1 : this.queue.findIndex(forHere);
      if (at < 0) { here.busy = false; return; }
      const [job] = this.queue.splice(at, 1) as [Job & { task: { kind: 'markdown' } }];
      here.run(job.task).then(job.resolve, (error: unknown) => job.reject(error instanceof Error ? error : new Error(String(error))))
        .finally(() => { here.busy = false; this.dispatch(); });
    });
  }

  private fail(worker: Worker, error: Error) {
    this.failed ??= error;
    for (const job of this.held.get(worker) ?? []) job.reject(error);
    this.held.delete(worker);
    for (const job of this.queue.splice(0)) job.reject(error);
  }

  /** Stops the workers; a task still queued or running fails, rather than wait for an answer that will never come. */
  async close(): Promise<void> {
    this.closing = true;
    const stopped = new Error('the build workers were stopped');
    this.failed ??= stopped;
    for (const job of [...[...this.held.values()].flat(), ...this.queue.splice(0)]) job.reject(stopped);
    this.held.clear();
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
