// A thread that bin/site starts for `site build` before the CLI loads: the build's first question (which
// content files changed: src/pipeline/content-changes.ts) is handed to it, so that it does not wait for
// a thread to boot beside the CLI's modules (100–200 ms on a 2-core machine). src/pool/spare-thread.ts
// takes it; this script runs before anything is compiled, so it keeps its own copy of the thread's name
// and code (tests/pool/spare-thread.test.ts checks that the two agree).
import { Worker } from 'node:worker_threads';

/** Where the thread is left for the CLI. */
export const SPARE_THREAD = Symbol.for('site.spareThread');

/** The thread's code: it waits for one message, `{ source, data }`, and runs `source` as a function of `require`, `data` and `parentPort`. */
export const SPARE_THREAD_SOURCE = "const { parentPort } = require('node:worker_threads');\n"
  + "parentPort.once('message', ({ source, data }) => new Function('require', 'data', 'parentPort', source)(require, data, parentPort));\n";

/** Starts the thread and leaves it for the CLI; it keeps the process alive only once taken. */
export function startSpareThread() {
  const spare = new Worker(SPARE_THREAD_SOURCE, { eval: true });
  spare.unref();
  globalThis[SPARE_THREAD] = spare;
}
