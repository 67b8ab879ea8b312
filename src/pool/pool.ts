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

/**
 * Worker threads, as many as the work calls for (`workersFor`), each running the build's bundled worker module. Tasks queue and go
 * to whichever worker is free; the main thread only plans, reads and writes.
 */
export class WorkerPool {
  private idle: Worker[] = [];
  private queue: Job[] = [];
  private running = new Map<Worker, Job>();
  private nextId = 0;
  private failed: Error | undefined;
  private closing = false;
  private booted = false;
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
      if (message.ready) { this.idle.push(worker); this.dispatch(); return; }
      const job = this.running.get(worker);
      this.running.delete(worker);
      if (job) {
        if (message.error !== undefined) job.reject(new Error(message.error));
        else job.resolve(message.results!);
      }
      this.idle.push(worker);
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

  /** The task's items cut into batches, several per worker so that a slow batch does not hold up the rest. */
  async map<T, R>(items: T[], toTask: (batch: T[]) => Task): Promise<R[]> {
    const per = Math.max(1, Math.min(64, Math.ceil(items.length / (this.size * 4))));
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
    while (this.idle.length && this.queue.length) {
      const worker = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.running.set(worker, job);
      worker.postMessage({ id: job.id, task: job.task }, job.transfer ?? []);
    }
  }

  private fail(worker: Worker, error: Error) {
    this.failed ??= error;
    this.running.get(worker)?.reject(error);
    this.running.delete(worker);
    for (const job of this.queue.splice(0)) job.reject(error);
  }

  /** Stops the workers; a task still queued or running fails, rather than wait for an answer that will never come. */
  async close(): Promise<void> {
    this.closing = true;
    const stopped = new Error('the build workers were stopped');
    this.failed ??= stopped;
    for (const job of [...this.running.values(), ...this.queue.splice(0)]) job.reject(stopped);
    this.running.clear();
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
