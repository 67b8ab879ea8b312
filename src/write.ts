import { copyFileSync, linkSync, mkdirSync, readdirSync, rmSync, rmdirSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import path from 'node:path';
import type { SizeFigure } from './measure/summary.ts';
import type { SealedFile } from './output/seal.ts';

export { metaDirFor } from './output/layout.ts';

const gzipAsync = promisify(gzip);

/** Bytes → their gzip size at level 9. The bytes may be handed to another thread: the caller does not read them after. */
export type GzipSize = (data: Uint8Array) => Promise<number>;

/** zlib on libuv's thread pool: for a small build, where starting worker threads would cost more. */
export const gzipHere: GzipSize = async (data) => (await gzipAsync(data, { level: 9 })).byteLength;

/**
 * What a build wrote to each file of its tree: its hash, and the size and time the file then had;
 * for a copied file, the SHA-256 of its bytes too (its `hash` names the source); for a page, also the
 * key of everything its document was made from, and what the build read from it.
 */
type Manifest = Record<string, DistRecord>;
export interface DistRecord { hash: string; size: number; mtimeMs: number; sha256?: string; gzip?: number; key?: string; about?: unknown }

/**
 * One file of the build: contents to write, or a file to copy; `measure` asks for its raw and gzip
 * size; `key` and `about` are kept with its record (see `keep`).
 */
export type DistFile = { file: string; measure?: boolean; key?: string; about?: unknown } & ({ contents: string | Uint8Array } | { from: string });

/** A tree's public files and the record of what its build wrote there. */
export interface TreeFiles { site: string; records: string }

/**
 * The build's files are written by this module alone, into a staging tree (see output/swap.ts) that
 * holds the build before last, or what a failed build left. A file whose contents equal what the last
 * complete build wrote (and which nobody has touched since: same size and time) is not written again:
 * the staging tree gets a hard link to the live tree's file (one inode for both; already there in
 * a steady state, so a stat decides). Nothing is ever written through an existing file, which may be
 * the live one: a file to write is unlinked first. Files the build does not make are deleted.
 */
export class DistWriter {
  private previous: Manifest = {};
  private next: Manifest = {};
  /** Folders made (or found) by this build, so each is asked for once. */
  private made = new Set<string>();

  /** `gzipSize` may be swapped while the build runs (to the worker pool, once it has started). */
  constructor(private readonly stage: TreeFiles, private readonly live: TreeFiles | undefined, public gzipSize: GzipSize = gzipHere) {}

  get outDir(): string { return this.stage.site; }

  async begin() {
    const text = this.live && await readFile(this.live.records, 'utf8').catch(() => undefined);
    try { this.previous = text ? JSON.parse(text) as Manifest : {}; } catch { this.previous = {}; }
    await mkdir(this.stage.site, { recursive: true });
  }

  private pathIn(root: string, file: string) {
    const target = path.join(root, ...file.split('/').filter(Boolean));
    if (!target.startsWith(root + path.sep)) throw new Error(`refusing to write outside ${root}: ${file}`);
    return target;
  }

  /** The live file, if it is still what the last build wrote (same size and time): its stat. */
  private liveUntouched(file: string, before: DistRecord): Stats | undefined {
    if (!this.live) return undefined;
    // A stat answered from the kernel's cache: synchronously it costs microseconds, through a promise
    // some fifty, and a warm rebuild of a large blog asks once per page.
    const now = statSync(this.pathIn(this.live.site, file), { throwIfNoEntry: false });
    return now && now.size === before.size && now.mtimeMs === before.mtimeMs ? now : undefined;
  }

  /** The staging tree's `file` made the live tree's (same inode), unless it already is. */
  private carry(file: string, live: Stats, record: DistRecord): DistRecord {
    const target = this.pathIn(this.stage.site, file);
    const here = statSync(target, { throwIfNoEntry: false });
    if (here && here.ino === live.ino && here.dev === live.dev) return record;
    this.clear(target, here);
    const from = this.pathIn(this.live!.site, file);
    try {
      linkSync(from, target);
      return record;
    } catch {
      // A file system without hard links: a copy, recorded with its own time.
      copyFileSync(from, target);
      return { ...record, mtimeMs: statSync(target).mtimeMs };
    }
  }

  /** Makes room for a new file at `target`: the old one unlinked (it may be the live tree's too), its folder made. */
  private clear(target: string, here: Stats | undefined) {
    if (here) rmSync(target, { force: true, recursive: here.isDirectory() });
    const dir = path.dirname(target);
    if (!this.made.has(dir)) { mkdirSync(dir, { recursive: true }); this.made.add(dir); }
  }

  /**
   * The record of `file` if the last build wrote it from inputs of this `key` and nobody has touched
   * it since (same size and time): the file stands as it is, and the caller need not make it again.
   */
  async keep(file: string, key: string): Promise<DistRecord | undefined> {
    const before = this.previous[file];
    if (!before || before.key !== key || before.gzip === undefined) return undefined;
    const live = this.liveUntouched(file, before);
    if (!live) return undefined;
    return (this.next[file] = this.carry(file, live, before));
  }

  /**
   * `file` is the public path, with a leading slash. Gzip sizes (level 9, as the summary has always
   * reported) are computed by zlib on libuv's thread pool, off the main thread, and reused while the
   * file's contents stay the same.
   */
  async write(entry: DistFile): Promise<SizeFigure | undefined> {
    const target = this.pathIn(this.stage.site, entry.file);
    const source = 'from' in entry ? await stat(entry.from) : undefined;
    const contents = 'contents' in entry ? (typeof entry.contents === 'string' ? Buffer.from(entry.contents) : entry.contents) : undefined;
    // A copied file is known by its source's path, size and time (images are read only when they change).
    const hash = contents ? createHash('sha256').update(contents).digest('hex') : `copy:${'from' in entry ? entry.from : ''}:${source!.size}:${source!.mtimeMs}`;
    const before = this.previous[entry.file];
    // Synchronous file calls: a page is a few kilobytes into the kernel's cache, and through promises
    // (four trips through the thread pool each) the main thread spent more time on the trips than on
    // the writing, while it is the one thread a large build waits on.
    const live = before?.hash === hash ? this.liveUntouched(entry.file, before) : undefined;
    let record: DistRecord;
    if (live) {
      record = this.carry(entry.file, live, before!);
    } else {
      const data = contents ?? await readFile((entry as { from: string }).from);
      this.clear(target, statSync(target, { throwIfNoEntry: false }));
      // 'wx': never through a file that is still there (it could be the live tree's).
      writeFileSync(target, data, { flag: 'wx' });
      const written = statSync(target);
      record = {
        hash, size: written.size, mtimeMs: written.mtimeMs, gzip: before?.hash === hash ? before.gzip : undefined,
        ...(contents ? {} : { sha256: createHash('sha256').update(data).digest('hex') }),
      };
    }
    if (entry.measure && record.gzip === undefined) {
      // Measured last: the bytes may go to another thread, after which they are not read here.
      record = { ...record, gzip: await this.gzipSize(contents ?? await readFile(target)) };
    }
    if (entry.key !== undefined) record = { ...record, key: entry.key, about: entry.about };
    this.next[entry.file] = record;
    return entry.measure ? { raw: record.size, gzip: record.gzip! } : undefined;
  }

  /**
   * Deletes what this build did not write (and folders left empty), and records what it did, for the
   * build after the next swap.
   */
  async finish() {
    const root = this.stage.site;
    const kept = new Set(Object.keys(this.next).map((f) => this.pathIn(root, f)));
    const emptied = new Set<string>();
    // Listed synchronously: the promise version walks a large tree several times slower.
    for (const e of readdirSync(root, { recursive: true, withFileTypes: true })) {
      const file = path.join(e.parentPath, e.name);
      if (!e.isDirectory() && !kept.has(file)) { rmSync(file, { force: true }); emptied.add(e.parentPath); }
    }
    for (let dir of emptied) {
      // rmdir refuses a folder that still holds anything: the walk up stops there.
      while (dir.startsWith(root + path.sep) && tryRmdir(dir)) dir = path.dirname(dir);
    }
    await writeFile(this.stage.records, JSON.stringify(this.next));
  }

  /** Every file this build wrote or kept, with its size and the SHA-256 of its bytes: for the completion manifest. */
  files(): SealedFile[] {
    return Object.entries(this.next).map(([file, r]) => ({ key: file.replace(/^\/+/, ''), size: r.size, sha256: r.sha256 ?? r.hash }));
  }
}

function tryRmdir(dir: string): boolean {
  try { rmdirSync(dir); return true; } catch { return false; }
}

/** The routing table, CDN functions and headers, into the staging tree's meta/ (build/ links to the current tree's). */
export async function writeMeta(metaDir: string, files: Record<string, string>) {
  await mkdir(metaDir, { recursive: true });
  for (const [name, contents] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(metaDir, name)), { recursive: true });
    await writeFile(path.join(metaDir, name), contents);
  }
}

