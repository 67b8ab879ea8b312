// What a complete build was made from, kept in its output tree (build-record.json beside
// written-files.json), so that the next `site build`, a fresh process, can tell in one read and a stat
// of each content file whether only article bodies changed since, and then make those pages alone
// (pipeline/quick-build.ts). Written into the staging tree before the swap: it flips with the tree.
import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { copyFileSync, linkSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { writeBeside } from '../temp-file.ts';
import { hashOf } from '../hash.ts';
import { generatorCode } from '../generator-code.ts';
import { BUDGETS_FILE } from '../measure/budgets-file.ts';
import type { RenderContext } from '../page-api/site-context.tsx';
import type { DocumentShell } from '../render/page-output.ts';
import type { ListPlace } from './file-list.ts';

const FORMAT = 1;

/** A file as a stat sees it: inode, size, modification and change times (any write changes the last). */
export type Signature = [ino: number, size: number, mtimeMs: number, ctimeMs: number];

/** A file modified this recently before it was listed is not known by its stat: a write within the clock's tick would not show. */
export const SETTLED_MS = 2_000;

/** What a quick rebuild must find the same, and what it needs to make an article's page without loading the site. */
export interface QuickInputs {
  /** The generator's code, the lockfile, the build's options (settings overrides, folders): any change, and the next build is a full one. */
  same: string;
  /** The bundled code's hashes: the templates' renderer and the markdown parser; the share cards' code. */
  code: { render: string; markdown: string; cards: string };
  /** The documents' shell, and the text its hash is made from (render-stage.ts, documentMaker). */
  shell: DocumentShell; shellInputs: string;
  /** The render context (settings as overridden, images, year), as every page's key holds it. */
  ctx: Omit<RenderContext, 'url'>;
  /** The site's inputs hash of routes/route-inputs.ts: the same while only bodies change. */
  siteInputs: string;
  /** Until when the articles published stay the same (the next publication or expiry; the year's end, which the footer shows): ms. */
  until: number;
  /** Every file under the content folder, by its path there, with its stat as the build began (null: not settled, so unknown). */
  content: Record<string, Signature | null>;
  /**
   * Each live article's file (blog/<slug>.md) → its page's file in the output, the digest of its front matter as the schema
   * returned it, where its page's entry lies in the file list, and its front hash (content/front-hash.ts): a quick rebuild
   * that finds the same front hash checks no front matter.
   */
  articles: Record<string, { file: string; digest: string; place: ListPlace | null; front?: string }>;
  /** The HTML budget (budgets.json's htmlKb) the build held its pages to; null: none. The budgets are the same while `same` is. */
  htmlKb: number | null;
  /** The file list as this build wrote it (its size and time), where the feed's entry lies in it, and each shared text (see file-list.ts, `ListPlaces`). */
  fileList: { size: number; mtimeMs: number; feed: ListPlace | null; shared: ListPlace[] };
  /** Pages built, for the summary line. */
  pages: number;
}

export interface BuildRecord {
  format: typeof FORMAT;
  id: string;
  /** The record of the tree that was live when this build began (the tree it took unchanged files from). */
  previous: string | null;
  /** Files of this tree that the other does not hold as the same file (see DistWriter.changes). */
  fresh: string[];
  gone: string[];
  /** Absent when the build cannot be followed by a quick one (serve's, a preview, a build with articles left out). */
  quick?: QuickInputs;
}

export const newRecordId = (): string => randomUUID();

/**
 * Beside the record, its QuickInputs in three files: the content's stats (build-content.json: a
 * megabyte at 10,000 articles, in the order the content is listed, which a quick rebuild compares as
 * text rather than parse), the articles (build-articles.json: three megabytes, which it searches for
 * the articles that changed), and the rest (build-inputs.json; `articleCount` says how many articles
 * there are). A quick rebuild leaves all three as the last build's (hard links), noting in the record
 * only the content files whose stat it took anew (`patch`). The record is read without them: a quick
 * rebuild reads them in a thread (content-changes.ts), the full build never.
 */
export const inputsFile = (record: string) => path.join(path.dirname(record), 'build-inputs.json');
export const articlesFile = (record: string) => path.join(path.dirname(record), 'build-articles.json');
export const contentFile = (record: string) => path.join(path.dirname(record), 'build-content.json');
const QUICK_FILES = [inputsFile, articlesFile, contentFile];

/** build-inputs.json as written: the QuickInputs but for their content's stats and articles, and how many articles there are. */
export type WrittenInputs = Omit<QuickInputs, 'articles' | 'content'> & { articleCount: number };

/** A full build's QuickInputs, written into their three files beside the record `file`. */
export async function writeQuickInputs(file: string, quick: QuickInputs): Promise<void> {
  const { articles, content, ...inputs } = quick;
  await writeBeside(articlesFile(file), JSON.stringify(articles));
  await writeBeside(contentFile(file), JSON.stringify(content));
  await writeBeside(inputsFile(file), JSON.stringify({ ...inputs, articleCount: Object.keys(articles).length } satisfies WrittenInputs));
}

/** The record as written: its QuickInputs apart (see `inputsFile`), with the content stats since. */
type Written = Omit<BuildRecord, 'quick'> & { quick?: { patch: Record<string, Signature | null> } };

/** A record as read: its QuickInputs not read, only whether it has them, and the content stats taken since they were written. */
export type RecordRead = Omit<BuildRecord, 'quick'> & { quickPatch?: Record<string, Signature | null> };

/**
 * A tree's record, or undefined if it has none or one of another format. Synchronously (a few hundred
 * bytes): a quick rebuild reads it before its first await, so that its thread starts at once.
 */
export function readRecord(file: string): RecordRead | undefined {
  try {
    const { quick, ...record } = JSON.parse(readFileSync(file, 'utf8')) as Written;
    if (record.format !== FORMAT || typeof record.id !== 'string' || !Array.isArray(record.fresh) || !Array.isArray(record.gone)) return undefined;
    return quick?.patch ? { ...record, quickPatch: quick.patch } : record;
  } catch {
    return undefined;
  }
}

/** A full build's record, its QuickInputs written whole beside it. */
export async function writeRecord(file: string, record: BuildRecord): Promise<void> {
  const { quick, ...rest } = record;
  if (quick) await writeQuickInputs(file, quick);
  else await Promise.all(QUICK_FILES.map((named) => rm(named(file), { force: true })));
  await writeBeside(file, JSON.stringify({ ...rest, ...(quick ? { quick: { patch: {} } } : {}) } satisfies Written));
}

/**
 * A quick rebuild's record: the last build's QuickInputs (`last`, its record file) linked beside it (their three files), and
 * the content stats taken since then, the last record's and these (`patch`), in the record itself.
 */
export async function writeQuickRecord(file: string, record: Omit<BuildRecord, 'quick'>, last: string, patch: Record<string, Signature | null>): Promise<void> {
  for (const named of QUICK_FILES) {
    await rm(named(file), { force: true });
    try { linkSync(named(last), named(file)); } catch { copyFileSync(named(last), named(file)); }
  }
  await writeBeside(file, JSON.stringify({ ...record, quick: { patch } } satisfies Written));
}

/** A stat as the record keeps it, or null if the file had been modified within two seconds of `at`. */
export function signatureOf(s: Stats, at: number): Signature | null {
  return s.mtimeMs > at - SETTLED_MS ? null : [s.ino, s.size, s.mtimeMs, s.ctimeMs];
}

/**
 * Every file under `dir` (dotfiles too), by its path there ('blog/x.md'), with its stat, and when the
 * listing began. Synchronously: ten thousand stats through promises are ten thousand trips through
 * the thread pool.
 */
export function listContent(dir: string): { at: number; files: Map<string, Stats> } {
  const at = Date.now();
  const files = new Map<string, Stats>();
  // Folder by folder, names joined as text: the recursive listing and path.join cost more than the stats.
  const walk = (folder: string, prefix: string) => {
    for (const e of readdirSync(folder, { withFileTypes: true })) {
      const full = `${folder}${path.sep}${e.name}`;
      if (e.isDirectory()) { walk(full, `${prefix}${e.name}/`); continue; }
      const s = statSync(full, { throwIfNoEntry: false });
      if (!s) continue;
      if (s.isDirectory()) walk(full, `${prefix}${e.name}/`);
      else files.set(`${prefix}${e.name}`, s);
    }
  };
  walk(dir, '');
  return { at, files };
}

/** The build's options a quick rebuild must find the same (see `sameInputs`). */
export const quickOptions = (opts: { overrides?: unknown; budgets?: unknown }, run: { contentDir: string; cacheDir: string }) =>
  ({ overrides: opts.overrides ?? null, contentDir: run.contentDir, cacheDir: run.cacheDir, budgets: opts.budgets ?? null });

/**
 * What must be the same for a build's output to be the last one's but for changed articles: the
 * generator's code, the lockfile (React, remark), budgets.json, and the build's options as given.
 */
export async function sameInputs(root: string, options: unknown): Promise<string> {
  const [lock, budgets] = await Promise.all(['package-lock.json', BUDGETS_FILE].map((name) => readFile(path.join(root, name)).catch(() => Buffer.from(''))));
  // An override that unsets a setting (`--no-cms`: cms undefined) counts, as null: JSON would drop it.
  return hashOf(generatorCode(), lock!, budgets!, JSON.stringify(options ?? null, (_, v: unknown) => (v === undefined ? null : v)));
}
