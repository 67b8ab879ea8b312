import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** Every file under `dir` (folders left out), as a public path with a leading slash; none if it is missing. */
export function listFilesNow(dir: string): string[] {
  let entries;
  try { entries = readdirSync(dir, { recursive: true, withFileTypes: true }); } catch { return []; }
  const files: string[] = [];
  for (const e of entries) if (!e.isDirectory()) files.push('/' + path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  return files;
}

/**
 * listFilesNow's walk, in a thread of its own: written out as text (a bundler may rename what a
 * function's own text refers to); tests/output/list-tree.test.ts holds the two to the same list.
 */
const WORKER_SOURCE = `
const { parentPort, workerData: dir } = require('node:worker_threads');
const { readdirSync } = require('node:fs');
const path = require('node:path');
const files = [];
for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
  if (!e.isDirectory()) files.push('/' + path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}
parentPort.postMessage(files);
`;

/** Trees of more files than this are listed in a thread of their own; smaller ones are not worth one. */
const LIST_IN_THREAD_FROM = 2000;

/**
 * The files of `dir` as they are now, listed beside the caller's work when there are many (`expected`,
 * a guess, such as the last build's count): a build lists its staging tree as it starts, to delete at
 * its end what it did not write, and on a large blog walking the tree cost its main thread a third
 * of a second. A listing that fails in the thread is made here instead.
 */
export function listFiles(dir: string, expected: number, threadFrom = LIST_IN_THREAD_FROM): Promise<string[]> {
  if (expected < threadFrom) return Promise.resolve(listFilesNow(dir));
  return new Promise<string[]>((resolve) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: dir });
    worker.once('message', (files: string[]) => { resolve(files); void worker.terminate(); });
    worker.once('error', () => resolve(listFilesNow(dir)));
  });
}
