import { AsyncLocalStorage } from 'node:async_hooks';

/** How many file reads or writes are in flight at once: enough to keep the disk busy, few enough not to exhaust descriptors. */
export const IO_CONCURRENCY = 48;

/**
 * `fn` over every item, at most `limit` at a time; results in the items' order. Where `fn` answers
 * from memory or reads synchronously, its lanes run on microtasks alone: they pause for the event
 * loop whenever this thread has worked a slice (`breathe`).
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
      await breathe();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/**
 * Every `every` calls, a turn of the event loop for whatever else waits on this thread: a loop of
 * synchronous work (writing files, encoding cache entries) otherwise holds the main thread while the
 * workers, their batches done, wait for it to hand them more. Every caller waits for that turn, not
 * only the one that asked for it: `mapLimit`'s other lanes would otherwise go on without a pause.
 */
export function turnTaker(every = 32): () => Promise<void> | undefined {
  let calls = 0;
  let turn: Promise<void> | undefined;
  return () => {
    if (turn || ++calls % every) return turn;
    return (turn = new Promise<void>((resolve) => setImmediate(() => { turn = undefined; resolve(); })));
  };
}

/**
 * Every task run to its end, side by side; the first to fail calls `stop` (so that the rest end
 * soon rather than run on into a build that has failed) and is thrown once all have settled, so that
 * nothing of this build is still writing when the next begins.
 */
export async function sideBySide<T extends unknown[]>(tasks: { [K in keyof T]: Promise<T[K]> }, stop: () => void): Promise<T> {
  let first: { error: unknown } | undefined;
  const settled = await Promise.allSettled(tasks.map((task) => task.catch((error: unknown) => {
    if (!first) { first = { error }; stop(); }
    throw error;
  })));
  if (first) throw first.error;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as T;
}

/** How long a thread's loop may hold it before the event loop gets a turn: a save or a request waits no longer. */
export const SLICE_MS = 20;

/**
 * A turn of the event loop once `sliceMs` have passed since the last: for loops over every article,
 * which hold the thread for a second at 10,000 (`site serve` answers a save only between their
 * turns). Callers waiting meanwhile share the one turn; between turns it costs a clock read.
 */
export function timeSlicer(sliceMs = SLICE_MS, clock: () => number = () => performance.now()): () => Promise<void> | undefined {
  let started = clock();
  let turn: Promise<void> | undefined;
  return () => {
    if (held && !ahead.getStore()) return held;
    if (turn) return turn;
    if (clock() - started < sliceMs) return undefined;
    return (turn = new Promise<void>((resolve) => setImmediate(() => { turn = undefined; started = clock(); resolve(); })));
  };
}

/** Set while work goes ahead of this thread's sliced loops (`goAhead`), and the calls made inside it. */
const ahead = new AsyncLocalStorage<true>();
let holding = 0;
let held: Promise<void> | undefined;
let release = () => {};

/**
 * `work` ahead of this thread's sliced loops (`site serve`'s answer to a save during its start-up
 * build): each loop waits at its next turn until the work is done, rather than taking a slice between
 * each of the work's own turns. Loops inside `work` run on.
 */
export async function goAhead<T>(work: () => Promise<T>): Promise<T> {
  if (holding++ === 0) held = new Promise<void>((resolve) => { release = resolve; });
  try {
    return await ahead.run(true, work);
  } finally {
    if (--holding === 0) { held = undefined; release(); }
  }
}

/** This thread's slicer, shared by every loop on it. */
const breather = timeSlicer();

/** In a long loop: a turn of the event loop if this thread has worked its slice (`timeSlicer`), else on at once. */
export async function breathe(): Promise<void> {
  const pause = breather();
  if (pause) await pause;
}
