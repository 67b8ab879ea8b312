// A quick rebuild's first question: which content files changed since the last complete build. The
// answer takes a stat of every content file and the record's inputs (megabytes of JSON at 10,000
// articles), some 150 ms of a single thread; asked in a thread of its own, it is answered while the
// main thread loads the code, the caches and the file list.
import { Worker } from 'node:worker_threads';
import { articlesFile, inputsFile, type QuickInputs, type Signature } from './build-record.ts';

/** What the record's inputs and the content folder say, once compared. */
export interface ContentChanges {
  /** The record's inputs but for the content's stats and the articles' list (each the size of the site). */
  inputs: Omit<QuickInputs, 'content' | 'articles'>;
  /** How many live articles the record lists. */
  articles: number;
  /** When the listing began (ms): a file modified within two seconds before is recorded as unknown. */
  at: number;
  /** The files whose stat is not the record's, with their stat now, and the article each is if it is one. */
  changed: Array<{ file: string; signature: Signature | null; article: QuickInputs['articles'][string] }>;
}

/** Why the answer is "too much to be quick": the message says what. */
export class NotSmall extends Error {}

/**
 * The thread's code, written out as text (a bundler may rename what a function's own text refers
 * to). The record's rules for a stat (build-record.ts, `signatureOf`): a file modified within
 * `settledMs` of the listing is not known by its stat (null); a file under images/ is known without
 * its change time, which the build itself moves (it hard-links those images into the output: each
 * link made or removed changes it), as git's core.trustctime=false.
 */
const WORKER_SOURCE = `
const { parentPort, workerData: { dir, inputsFile, articlesFile, patch, settledMs, most } } = require('node:worker_threads');
const { readdirSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');
const answer = () => {
  let q;
  let articles;
  try {
    q = JSON.parse(readFileSync(inputsFile, 'utf8'));
    articles = readFileSync(articlesFile, 'utf8');
  } catch { return { why: "the last build's inputs cannot be read" }; }
  // An article's entry, found by its key in the text (a key's quote cannot stand unescaped inside a
  // value); its value holds no object, so it ends at the first closing brace after it.
  const articleOf = (file) => {
    const key = JSON.stringify(file) + ':{';
    const at = articles.indexOf(key);
    if (at === -1) return undefined;
    const start = at + key.length - 1;
    return JSON.parse(articles.slice(start, articles.indexOf('}', start) + 1));
  };
  Object.assign(q.content, patch);
  const at = Date.now();
  const changed = [];
  let count = 0;
  let why;
  const walk = (folder, prefix) => {
    for (const e of readdirSync(folder, { withFileTypes: true })) {
      if (why) return;
      const full = folder + path.sep + e.name;
      if (e.isDirectory()) { walk(full, prefix + e.name + '/'); continue; }
      const s = statSync(full, { throwIfNoEntry: false });
      if (!s) continue;
      if (s.isDirectory()) { walk(full, prefix + e.name + '/'); continue; }
      const file = prefix + e.name;
      count++;
      const known = q.content[file];
      if (known === undefined) { why = file + ' is new'; return; }
      const ctime = !file.startsWith('images/');
      if (known && known[0] === s.ino && known[1] === s.size && known[2] === s.mtimeMs && (!ctime || known[3] === s.ctimeMs)) continue;
      const article = articleOf(file);
      if (!article) { why = file + ' is not a live article'; return; }
      if (changed.length === most) { why = 'more than ' + most + ' articles changed'; return; }
      changed.push({ file, article, signature: s.mtimeMs > at - settledMs ? null : [s.ino, s.size, s.mtimeMs, s.ctimeMs] });
    }
  };
  walk(dir, '');
  if (!why && count !== Object.keys(q.content).length) why = 'a content file was removed';
  if (why) return { why };
  const { content, articleCount, ...inputs } = q;
  return { changes: { inputs, articles: articleCount, at, changed } };
};
parentPort.postMessage(answer());
`;

/**
 * The content files under `dir` that changed since the build whose record is `record` (with the
 * stats taken since, `patch`), asked in a thread. Rejects with NotSmall, saying why, when a file is
 * new, removed or other than a live article's, or more than `most` articles changed; with another
 * error if the thread fails.
 */
export function contentChanges(dir: string, record: string, patch: Record<string, Signature | null>, settledMs: number, most: number): Promise<ContentChanges> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { dir, inputsFile: inputsFile(record), articlesFile: articlesFile(record), patch, settledMs, most } });
    worker.once('message', (answer: { why: string } | { changes: ContentChanges }) => {
      void worker.terminate();
      if ('why' in answer) reject(new NotSmall(answer.why));
      else resolve(answer.changes);
    });
    worker.once('error', reject);
    // Once answered, this rejects nothing; before, it stops the wait for an answer that cannot come.
    worker.once('exit', (code) => reject(new Error(`the thread stopped (exit code ${code}) before it answered`)));
  });
}
