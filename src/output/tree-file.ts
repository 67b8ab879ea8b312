import { closeSync, constants, copyFileSync, linkSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * One file of a build's tree, written or carried over from the live tree: the file operations of the
 * DistWriter (pipeline/dist-writer.ts), kept apart so that a worker thread linking in the pages it
 * renders does exactly what the main thread does. Synchronous throughout: a page is a few kilobytes
 * into the kernel's cache, and through promises (four trips through the thread pool each) the trips
 * cost more than the writing (the pages handed back by the workers written that way, one at a time: a
 * clean build of 1,000 articles 10 % slower).
 */

/**
 * What a build wrote to one file: its hash, the size and time the file then had, and its inode (the
 * tree's file, or the live one it links to: the same inode); its gzip size, once measured.
 */
export interface FileEntry {
  hash: string; size: number; mtimeMs: number; ino?: number; gzip?: number;
  /** The zlib level `gzip` was taken at: a page's is level 1, an asset's level 9 (absent: 9, as entries were before levels were kept). */
  gzipLevel?: number;
}

/** The entry's gzip size and its level, for an entry of the same bytes. */
const gzipOf = (r: FileEntry) => (r.gzip === undefined ? {} : { gzip: r.gzip, ...(r.gzipLevel === undefined ? {} : { gzipLevel: r.gzipLevel }) });

/** What decides that a file is one a build wrote: its inode, size and time. */
export type FileStat = Pick<Stats, 'ino' | 'size' | 'mtimeMs'>;

/** The two site trees a build touches: the staging tree it writes, and the live one (absent on a first build). */
export interface SiteTrees { stage: string; live?: string }

/** Slash-separated names, none empty, '.' or '..': inside any root it is joined to. */
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[^/\\\0]+)+$/;

/** `file` (a public path, leading slash) inside `root`; never outside it. */
export function pathIn(root: string, file: string): string {
  // The usual case, a path of plain names ('/blog/x.html'), joined as it is: asked several times for each of a large blog's pages.
  if (PLAIN_PATH.test(file) && path.sep === '/') return root + file;
  const target = path.join(root, ...file.split('/').filter(Boolean));
  if (!target.startsWith(root + path.sep)) throw new Error(`refusing to write outside ${root}: ${file}`);
  return target;
}

export const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

/** One buffer for every file hashed on this thread: ten thousand share cards read whole would be half a gigabyte of garbage. */
const chunk = Buffer.allocUnsafe(1 << 16);

/** The SHA-256 of a file's bytes, read a block at a time. */
export function sha256OfFile(file: string): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    for (let n = readSync(fd, chunk, 0, chunk.length, null); n > 0; n = readSync(fd, chunk, 0, chunk.length, null)) hash.update(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** The live file, if it is still what the last build wrote (same size and time): its stat. */
function liveUntouched(trees: SiteTrees, file: string, before: FileEntry): Stats | undefined {
  if (!trees.live) return undefined;
  // A stat answered from the kernel's cache: synchronously it costs microseconds.
  const now = statSync(pathIn(trees.live, file), { throwIfNoEntry: false });
  return now && now.size === before.size && now.mtimeMs === before.mtimeMs ? now : undefined;
}

/**
 * The text of the live tree's `file`, if it holds exactly the bytes the last build listed there
 * (`before`: their hash); undefined if it is missing, or was changed or replaced since.
 */
export function lastWritten(trees: SiteTrees, file: string, before: FileEntry): string | undefined {
  if (!trees.live) return undefined;
  let bytes: Buffer;
  try { bytes = readFileSync(pathIn(trees.live, file)); } catch { return undefined; }
  return bytes.length === before.size && sha256(bytes) === before.hash ? bytes.toString('utf8') : undefined;
}

/** Makes room for a new file at `target`: the old one unlinked (it may be the live tree's too), its folder made (once per `made`). */
function clearFor(target: string, here: Stats | undefined, made: Set<string>): void {
  if (here) rmSync(target, { force: true, recursive: here.isDirectory() });
  const dir = path.dirname(target);
  if (!made.has(dir)) { mkdirSync(dir, { recursive: true }); made.add(dir); }
}

/** The staging tree's `file` made the live tree's (same inode), unless it already is. */
function carry<R extends FileEntry>(trees: SiteTrees, file: string, live: Stats, entry: R, made: Set<string>): R {
  const target = pathIn(trees.stage, file);
  const here = statSync(target, { throwIfNoEntry: false });
  const linked = { ...entry, ino: live.ino };
  if (here && here.ino === live.ino && here.dev === live.dev) return linked;
  clearFor(target, here, made);
  const from = pathIn(trees.live!, file);
  try {
    linkSync(from, target);
    return linked;
  } catch {
    // A file system without hard links: a copy, listed with its own time and inode.
    copyFileSync(from, target);
    const copy = statSync(target);
    return { ...entry, mtimeMs: copy.mtimeMs, ino: copy.ino };
  }
}

/**
 * The last build's file as it left it (`before`, its entry), if it still stands: carried into the
 * staging tree, or already there. In a steady state the staging tree holds the very inode the last
 * build listed (the two trees share every unchanged file), and one stat of it decides: same inode,
 * size and time is the same file, untouched (an edit in place would have changed its time, in both
 * trees at once; a file replaced in the live tree leaves this one as the build wrote it). Otherwise
 * the live file is looked at and linked in (`liveUntouched`, `carry`). Undefined when it must be made again.
 * `listed`: the staging file's stat as the build found it (null: it was not there), instead of a stat now.
 */
export function untouched<R extends FileEntry>(trees: SiteTrees, file: string, before: R, made: Set<string>, listed?: FileStat | null): R | undefined {
  if (before.ino !== undefined) {
    const here = listed === undefined ? statSync(pathIn(trees.stage, file), { throwIfNoEntry: false }) : listed;
    if (here && here.ino === before.ino && here.size === before.size && here.mtimeMs === before.mtimeMs) return before;
  }
  const live = liveUntouched(trees, file, before);
  return live ? carry(trees, file, live, before, made) : undefined;
}

/** Writes `data` afresh at `file` of the staging tree, never through a file that is there (it could be the live tree's). */
function writeNew(trees: SiteTrees, file: string, data: Uint8Array, made: Set<string>): Stats {
  const target = pathIn(trees.stage, file);
  clearFor(target, statSync(target, { throwIfNoEntry: false }), made);
  writeFileSync(target, data, { flag: 'wx' });
  return statSync(target);
}

/**
 * `from`, a file of the build cache (an image variant, a share card), as `file` of the staging tree:
 * a hard link to it, or a copy where the file system has none. A link costs a directory entry; a new
 * file costs an inode as well, which on some file systems takes a hundred times as long as the link
 * (0.6 ms against 0.01 on the ext4 this was measured on), and a large blog has a card per page. The
 * cache never writes through a file it has made (a card or variant is a new file under its key), so
 * the tree's file stays as the build made it.
 */
export function linkNew(trees: SiteTrees, file: string, from: string, made: Set<string>): Stats {
  const target = pathIn(trees.stage, file);
  clearFor(target, statSync(target, { throwIfNoEntry: false }), made);
  try {
    linkSync(from, target);
  } catch {
    copyFileSync(from, target, constants.COPYFILE_EXCL);
  }
  return statSync(target);
}

/**
 * `contents` as `file` of the staging tree: a hard link to the live file when the last build wrote
 * these very bytes there and nobody has touched it since, else written afresh. The gzip size is the
 * last build's while the bytes are the same; else left for the caller to measure.
 */
export function putContents(trees: SiteTrees, file: string, contents: Uint8Array, before: FileEntry | undefined, made: Set<string>): FileEntry {
  const hash = sha256(contents);
  return keptContents(trees, file, hash, before, made) ?? writeContents(trees, file, contents, hash, before, made);
}

/** Of `putContents`: the live file's entry when the last build wrote these very bytes (`hash`) there and nobody has touched it since, linked in; else undefined. */
export function keptContents(trees: SiteTrees, file: string, hash: string, before: FileEntry | undefined, made: Set<string>): FileEntry | undefined {
  const kept = before?.hash === hash ? untouched(trees, file, before, made) : undefined;
  return kept && { hash, size: kept.size, mtimeMs: kept.mtimeMs, ...(kept.ino === undefined ? {} : { ino: kept.ino }), ...gzipOf(kept) };
}

/** Of `putContents`: `contents` (whose SHA-256 is `hash`) written afresh at `file`. */
export function writeContents(trees: SiteTrees, file: string, contents: Uint8Array, hash: string, before: FileEntry | undefined, made: Set<string>): FileEntry {
  const written = writeNew(trees, file, contents, made);
  return { hash, size: written.size, mtimeMs: written.mtimeMs, ino: written.ino, ...(before?.hash === hash ? gzipOf(before) : {}) };
}

