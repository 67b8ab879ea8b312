// The search stage: the site's search documents indexed by pagefind's Node API into dist/pagefind/.
// The index is kept in .site/cache/search/<key>/, the key a hash of the documents (an article's body
// named by its markdown key, as its route names it), so a build whose indexed pages are unchanged
// reads no body and runs no indexer: its files are linked from the cache like the share cards.
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHash } from 'node:crypto';
import { breathe, IO_CONCURRENCY, mapLimit } from '../concurrency.ts';
import { finishDocument, type PlannedDocument, type SearchDocument } from './documents.ts';
import { tempFileFor } from '../temp-file.ts';

/** Where the index is served from; the search page's island imports `${SEARCH_DIR}/pagefind.js`. */
export const SEARCH_DIR = '/pagefind';

/** Raised when pagefind reports a problem: it answers with an `errors` list rather than throwing. */
export class SearchIndexError extends Error {
  override name = 'SearchIndexError';
}

export interface BuiltSearch {
  /** Public path (/pagefind/…) → the cached file holding it, to link into dist/. */
  files: Map<string, string>;
  pages: number;
  /** The index's bytes on disk, every file it serves. */
  bytes: number;
  /** False when the last index was reused (nothing it indexes changed). */
  indexed: boolean;
  ms: number;
}

// What pagefind writes that a reader's search loads: the loader, its worker and the WebAssembly,
// the entry file and the hashed index. Its packaged UIs, the highlighter and the playground are
// left out: the search page has its own UI, and each of those would need a looser CSP.
const SERVED = /^(?:pagefind\.js|pagefind-worker\.js|pagefind-entry\.json|wasm\.en\.pagefind|pagefind\.[\w-]+\.pf_meta|(?:fragment|index|filter)\/[\w-]+\.pf_(?:fragment|index|filter))$/;

/** What the search page loads by name (the rest is named in pagefind-entry.json). */
const REQUIRED = ['pagefind.js', 'pagefind-worker.js', 'pagefind-entry.json', 'wasm.en.pagefind'];

/** Cached indexes kept: a production build's and a preview's (drafts included) alternate in a project, and one more to spare. */
const KEEP = 3;
const LISTING = 'files.json';
const VERSION = 'search-1';

/** The hash of what the index is made from: the documents as planned (bodies by key), the lockfile (pagefind's version), this code's version. */
export async function searchKey(root: string, documents: PlannedDocument[]): Promise<string> {
  const lock = await readFile(path.join(root, 'package-lock.json')).catch(() => Buffer.from(''));
  // Document by document, the event loop getting its turns (the whole list as one JSON text held the
  // thread a fifth of a second at 10,000 articles).
  const hash = createHash('sha256').update(`${VERSION}\0`).update(lock).update('\0');
  for (const document of documents) {
    hash.update(`${JSON.stringify(document)}\n`);
    await breathe();
  }
  return hash.digest('hex');
}

const fail = (what: string, errors: string[]) => {
  if (errors.length) throw new SearchIndexError(`search index: pagefind ${what}: ${errors.join('; ')}`);
};

// pagefind's Node API drives one indexing process per Node process, and close() stops it whatever
// it is doing: one index at a time (serve may start a save's index while the last one runs).
let queue: Promise<unknown> = Promise.resolve();

/** Runs pagefind over the documents; returns its served files (path under /pagefind → bytes). */
export function indexDocuments(documents: SearchDocument[]): Promise<Map<string, Uint8Array>> {
  const run = queue.then(() => indexOnce(documents));
  queue = run.catch(() => undefined);
  return run;
}

async function indexOnce(documents: SearchDocument[]): Promise<Map<string, Uint8Array>> {
  const pagefind = await import('pagefind');
  try {
    const created = await pagefind.createIndex({ forceLanguage: 'en' });
    fail('could not start', created.errors);
    const index = created.index!;
    // Sent a few at a time: the indexer is another process, and one document per round trip leaves it idle.
    await mapLimit(documents, 16, async (document) => {
      const added = await index.addCustomRecord(document);
      fail(`could not index ${document.url}`, added.errors);
    });
    const got = await index.getFiles();
    fail('could not write the index', got.errors);
    const files = new Map(got.files.filter((f) => SERVED.test(f.path)).map((f) => [f.path, f.content]));
    // A pagefind whose files are named otherwise would leave the search page nothing to load.
    const missing = REQUIRED.filter((f) => !files.has(f));
    if (missing.length) throw new SearchIndexError(`search index: pagefind wrote no ${missing.join(', ')}, which the search page loads`);
    return files;
  } finally {
    await pagefind.close();
  }
}

async function cachedIndex(dir: string): Promise<{ files: string[]; pages: number; bytes: number } | undefined> {
  try {
    const listing = JSON.parse(await readFile(path.join(dir, LISTING), 'utf8')) as { files: string[]; pages: number; bytes: number };
    await utimes(dir, new Date(), new Date());
    return listing;
  } catch {
    return undefined;
  }
}

/** Every cached index but the `KEEP` most recently used deleted, except one used in the last ten minutes (a build beside this one may be linking it). */
async function prune(root: string): Promise<void> {
  const names = await readdir(root).catch(() => [] as string[]);
  const dated = await Promise.all(names.map(async (name) => ({ name, at: (await stat(path.join(root, name)).catch(() => undefined))?.mtimeMs ?? 0 })));
  const recent = Date.now() - 10 * 60_000;
  const old = dated.sort((a, b) => b.at - a.at).slice(KEEP).filter(({ at }) => at < recent);
  await Promise.all(old.map(({ name }) => rm(path.join(root, name), { recursive: true, force: true })));
}

/**
 * The search stage. `readBody` reads an article's body HTML from the build cache by its key, only
 * when the index must be made again; `bodiesRead` settles once no more will be read, after which
 * the cache may be saved (and its pack rewritten) while pagefind indexes.
 */
export function buildSearch(project: string, planning: PlannedDocument[] | Promise<PlannedDocument[]>, cacheDir: string, readBody: (key: string) => Promise<string | undefined>): { bodiesRead: Promise<void>; built: Promise<BuiltSearch> } {
  const started = performance.now();
  const root = path.join(cacheDir, 'search');
  let bodiesDone!: () => void;
  const bodiesRead = new Promise<void>((resolve) => { bodiesDone = resolve; });
  const built = (async (): Promise<BuiltSearch> => {
    try {
      const planned = await planning;
      const key = await searchKey(project, planned);
      const dir = path.join(root, key);
      const link = (listing: { files: string[]; pages: number; bytes: number }, indexed: boolean): BuiltSearch => ({
        files: new Map(listing.files.map((f) => [`${SEARCH_DIR}/${f}`, path.join(dir, f)])),
        pages: listing.pages, bytes: listing.bytes, indexed, ms: performance.now() - started,
      });
      const cached = await cachedIndex(dir);
      if (cached) { bodiesDone(); return link(cached, false); }
      let documents: SearchDocument[];
      try {
        documents = await mapLimit(planned, 16, (document) => finishDocument(document, readBody));
      } finally {
        bodiesDone();
      }
      const files = await indexDocuments(documents);
      // Written beside, then renamed into place with its listing: a build stopped half-way leaves no half index.
      const tmp = tempFileFor(dir);
      let bytes = 0;
      for (const folder of new Set([...files.keys()].map((file) => path.dirname(path.join(tmp, file))))) await mkdir(folder, { recursive: true });
      // A large blog's index is ten thousand small files: written a bounded number at a time.
      await mapLimit([...files], IO_CONCURRENCY, async ([file, content]) => {
        await writeFile(path.join(tmp, file), content);
        bytes += content.byteLength;
      });
      const listing = { files: [...files.keys()].sort(), pages: documents.length, bytes };
      await writeFile(path.join(tmp, LISTING), JSON.stringify(listing));
      // Another build (a test's, another checkout's serve) may have made the same index meanwhile:
      // its folder is left alone, since that build may be linking its files, and is as good as ours.
      await rename(tmp, dir).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
        await rm(tmp, { recursive: true, force: true });
      });
      await prune(root);
      return link(listing, true);
    } finally {
      bodiesDone();
    }
  })();
  return { bodiesRead, built };
}
