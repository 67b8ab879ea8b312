// A quick rebuild's first question: which content files changed since the last complete build. The
// answer takes a stat of every content file and the record's inputs (megabytes of JSON at 10,000
// articles), some 150 ms of a single thread; asked in a thread of its own (the one bin/site started
// before the CLI loaded, see pool/spare-thread.ts), it is answered while the main thread loads the
// code, the caches and the file list.
import { threadRunning } from '../pool/spare-thread.ts';
import { articlesFile, contentFile, inputsFile, type QuickInputs, type Signature } from './build-record.ts';

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
 * The thread's code, a function body of `require`, `data` and `parentPort` (see pool/spare-thread.ts),
 * written out as text (a bundler may rename what a function's own text refers to). The record's rules
 * for a stat (build-record.ts, `signatureOf`): a file modified within `settledMs` of the listing is not
 * known by its stat (null); a file under images/ is known without its change time, which the build
 * itself moves (it hard-links those images into the output: each link made or removed changes it), as
 * git's core.trustctime=false.
 */
const WORKER_SOURCE = `
const { dir, inputsFile, articlesFile, contentFile, patch, settledMs, most } = data;
const { readdirSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');
const answer = () => {
  let q;
  let articles;
  let stats;
  try {
    q = JSON.parse(readFileSync(inputsFile, 'utf8'));
    // Searched as bytes, never decoded whole (three megabytes at 10,000 articles).
    articles = readFileSync(articlesFile);
    stats = readFileSync(contentFile, 'utf8');
  } catch { return { why: "the last build's inputs cannot be read" }; }
  // An article's entry, found by its key in the text (a key's quote cannot stand unescaped inside a
  // value); its value holds no object, so it ends at the first closing brace after it.
  const articleOf = (file) => {
    const key = JSON.stringify(file) + ':{';
    const at = articles.indexOf(key);
    if (at === -1) return undefined;
    const start = at + Buffer.byteLength(key) - 1;
    return JSON.parse(articles.toString('utf8', start, articles.indexOf('}', start) + 1));
  };
  // A file's recorded stat as its JSON text ('[ino,size,mtimeMs,ctimeMs]' or 'null'), or undefined if
  // the record has none. The record lists the files in the order this walk finds them, so each is
  // read at a cursor, in turn; only if the order differs (a folder that lists its files otherwise
  // since) is the whole list parsed.
  let cursor = 1;
  let parsed;
  let taken = 0;
  const recorded = (file) => {
    taken++;
    if (!parsed) {
      const key = JSON.stringify(file) + ':';
      if (stats.startsWith(key, cursor)) {
        const start = cursor + key.length;
        const end = stats[start] === 'n' ? start + 4 : stats.indexOf(']', start) + 1;
        cursor = end + 1;
        return stats.slice(start, end);
      }
      parsed = JSON.parse(stats);
    }
    return file in parsed ? JSON.stringify(parsed[file]) : undefined;
  };
  const at = Date.now();
  const changed = [];
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
      const listed = recorded(file);
      const known = file in patch ? JSON.stringify(patch[file]) : listed;
      if (listed === undefined) { why = file + ' is new'; return; }
      // The stat as JSON.stringify writes it: the same text for the same numbers.
      const same = file.startsWith('images/')
        ? known.startsWith('[' + s.ino + ',' + s.size + ',' + s.mtimeMs + ',')
        : known === '[' + s.ino + ',' + s.size + ',' + s.mtimeMs + ',' + s.ctimeMs + ']';
      if (same) continue;
      const article = articleOf(file);
      if (!article) { why = file + ' is not a live article'; return; }
      if (changed.length === most) { why = 'more than ' + most + ' articles changed'; return; }
      changed.push({ file, article, signature: s.mtimeMs > at - settledMs ? null : [s.ino, s.size, s.mtimeMs, s.ctimeMs] });
    }
  };
  walk(dir, '');
  // Every recorded file found: the list read to its end ('}'), or, parsed, as many files as it lists.
  if (!why && !(parsed ? taken === Object.keys(parsed).length : cursor >= stats.length - 1)) why = 'a content file was removed';
  if (why) return { why };
  const { articleCount, ...inputs } = q;
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
    const worker = threadRunning(WORKER_SOURCE, { dir, inputsFile: inputsFile(record), articlesFile: articlesFile(record), contentFile: contentFile(record), patch, settledMs, most });
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
