// A thread to hand a piece of code and its data to: the one bin/site started before the CLI loaded
// (scripts/spare-thread.mjs), when there is one, so that the work need not wait for a thread to boot;
// otherwise one started now.
import { Worker } from 'node:worker_threads';

/** Where bin/site leaves the thread (scripts/spare-thread.mjs keeps its own copy of the name and the code). */
export const SPARE_THREAD = Symbol.for('site.spareThread');

/** The thread's code: it waits for one message, `{ source, data }`, and runs `source` as a function of `require`, `data` and `parentPort`. */
export const SPARE_THREAD_SOURCE = "const { parentPort } = require('node:worker_threads');\n"
  + "parentPort.once('message', ({ source, data }) => new Function('require', 'data', 'parentPort', source)(require, data, parentPort));\n";

const holder = globalThis as { [SPARE_THREAD]?: Worker };

/**
 * A thread running `source` (a function body of `require`, `data` and `parentPort`) with `data`
 * (anything a message can carry): the spare thread, taken, or a new one.
 */
export function threadRunning(source: string, data: unknown): Worker {
  const worker = holder[SPARE_THREAD] ?? new Worker(SPARE_THREAD_SOURCE, { eval: true });
  delete holder[SPARE_THREAD];
  worker.ref();
  worker.postMessage({ source, data });
  return worker;
}

/** The spare thread stopped, if it is still waiting: the command has nothing to hand it. */
export function dropSpareThread(): void {
  const spare = holder[SPARE_THREAD];
  delete holder[SPARE_THREAD];
  void spare?.terminate();
}
