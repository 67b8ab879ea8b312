import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * A file of a tree as it was listed: its public path (leading slash), and its inode, size and time
 * then (none for a link that leads nowhere, which is listed all the same, so that a build deletes it).
 */
export interface ListedFile { file: string; stat?: { ino: number; size: number; mtimeMs: number } }

/** Every file under `dir` (folders left out, links followed), with its stat; none if it is missing. */
export function listFilesNow(dir: string): ListedFile[] {
  let entries;
  try { entries = readdirSync(dir, { recursive: true, withFileTypes: true }); } catch { return []; }
  const files: ListedFile[] = [];
  for (const e of entries) {
    if (e.isDirectory()) continue;
    const full = path.join(e.parentPath, e.name);
    const s = statSync(full, { throwIfNoEntry: false });
    if (s?.isDirectory()) continue;
    files.push({ file: '/' + path.relative(dir, full).split(path.sep).join('/'), ...(s ? { stat: { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs } } : {}) });
  }
  return files;
}

/**
 * listFilesNow's walk, in a thread of its own: written out as text (a bundler may rename what a
 * function's own text refers to); tests/output/list-tree.test.ts holds the two to the same list.
 */
const WORKER_SOURCE = `
const { parentPort, workerData: dir } = require('node:worker_threads');
const { readdirSync, statSync } = require('node:fs');
const path = require('node:path');
const files = [];
for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
  if (e.isDirectory()) continue;
  const full = path.join(e.parentPath, e.name);
  const s = statSync(full, { throwIfNoEntry: false });
  if (s && s.isDirectory()) continue;
  files.push({ file: '/' + path.relative(dir, full).split(path.sep).join('/'), ...(s ? { stat: { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs } } : {}) });
}
parentPort.postMessage(files);
`;

/** Trees of more files than this are listed in a thread of their own; smaller ones are not worth one. */
const LIST_IN_THREAD_FROM = 2000;

/**
 * The files of `dir` as they are now, with their stats, listed beside the caller's work when there
 * are many (`expected`, a guess, such as the last build's count). A build lists its staging tree as
 * it starts: what it finds there and does not write is deleted at its end, and a page the last build
 * made is known to stand by its listed inode, size and time, not by a stat on the main thread (on a
 * large blog the walk and the stats cost it half a second). A listing that fails in the thread is
 * made here instead.
 */
export function listFiles(dir: string, expected: number, threadFrom = LIST_IN_THREAD_FROM): Promise<ListedFile[]> {
  if (expected < threadFrom) return Promise.resolve(listFilesNow(dir));
  return new Promise<ListedFile[]>((resolve) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: dir });
    worker.once('message', (files: ListedFile[]) => { resolve(files); void worker.terminate(); });
    worker.once('error', () => resolve(listFilesNow(dir)));
  });
}
