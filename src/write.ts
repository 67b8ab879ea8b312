import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import path from 'node:path';
import type { SizeFigure } from './measure/summary.ts';

const gzipAsync = promisify(gzip);

/** Bytes → their gzip size at level 9. The bytes may be handed to another thread: the caller does not read them after. */
export type GzipSize = (data: Uint8Array) => Promise<number>;

/** zlib on libuv's thread pool: for a small build, where starting worker threads would cost more. */
export const gzipHere: GzipSize = async (data) => (await gzipAsync(data, { level: 9 })).byteLength;

/**
 * What the last build wrote to each file of dist/: its hash, and the size and time the file then had;
 * for a page, also the key of everything its document was made from, and what the build read from it.
 */
type Manifest = Record<string, DistRecord>;
export interface DistRecord { hash: string; size: number; mtimeMs: number; gzip?: number; key?: string; about?: unknown }

/**
 * One file of the build: contents to write, or a file to copy; `measure` asks for its raw and gzip
 * size; `key` and `about` are kept with its record (see `keep`).
 */
export type DistFile = { file: string; measure?: boolean; key?: string; about?: unknown } & ({ contents: string | Uint8Array } | { from: string });

/**
 * dist/ is written by this module alone. A file whose contents equal what the last build wrote
 * there (and which nobody has touched since: same size and time) is left as it is; files the build
 * no longer makes are deleted. Without a readable record of the last build, dist/ is emptied first.
 */
export class DistWriter {
  private previous: Manifest = {};
  private next: Manifest = {};
  /** Folders made (or found) by this build, so each is asked for once. */
  private made = new Set<string>();

  /** `gzipSize` may be swapped while the build runs (to the worker pool, once it has started). */
  constructor(readonly outDir: string, private readonly manifestFile: string, public gzipSize: GzipSize = gzipHere) {}

  async begin() {
    const text = await readFile(this.manifestFile, 'utf8').catch(() => undefined);
    try { this.previous = text ? JSON.parse(text) as Manifest : {}; } catch { this.previous = {}; }
    if (!Object.keys(this.previous).length) await rm(this.outDir, { recursive: true, force: true });
    await mkdir(this.outDir, { recursive: true });
  }

  private target(file: string) {
    const target = path.join(this.outDir, ...file.split('/').filter(Boolean));
    if (!target.startsWith(this.outDir + path.sep)) throw new Error(`refusing to write outside ${this.outDir}: ${file}`);
    return target;
  }

  /**
   * The record of `file` if the last build wrote it from inputs of this `key` and nobody has touched
   * it since (same size and time): the file stands as it is, and the caller need not make it again.
   */
  async keep(file: string, key: string): Promise<DistRecord | undefined> {
    const before = this.previous[file];
    if (!before || before.key !== key || before.gzip === undefined) return undefined;
    // A stat answered from the kernel's cache: synchronously it costs microseconds, through a promise
    // some fifty, and a warm rebuild of a large blog asks once per page.
    const now = statSync(this.target(file), { throwIfNoEntry: false });
    if (!now || now.size !== before.size || now.mtimeMs !== before.mtimeMs) return undefined;
    this.next[file] = before;
    return before;
  }

  /**
   * `file` is the public path, with a leading slash. Gzip sizes (level 9, as the summary has always
   * reported) are computed by zlib on libuv's thread pool, off the main thread, and reused while the
   * file's contents stay the same.
   */
  async write(entry: DistFile): Promise<SizeFigure | undefined> {
    const target = this.target(entry.file);
    const source = 'from' in entry ? await stat(entry.from) : undefined;
    const contents = 'contents' in entry ? (typeof entry.contents === 'string' ? Buffer.from(entry.contents) : entry.contents) : undefined;
    // A copied file is known by its source's path, size and time (images are read only when they change).
    const hash = contents ? createHash('sha256').update(contents).digest('hex') : `copy:${'from' in entry ? entry.from : ''}:${source!.size}:${source!.mtimeMs}`;
    const before = this.previous[entry.file];
    // Synchronous file calls: a page is a few kilobytes into the kernel's cache, and through promises
    // (four trips through the thread pool each) the main thread spent more time on the trips than on
    // the writing, while it is the one thread a large build waits on.
    const now = before?.hash === hash ? statSync(target, { throwIfNoEntry: false }) : undefined;
    let record = before;
    if (!before || !now || now.size !== before.size || now.mtimeMs !== before.mtimeMs) {
      const data = contents ?? await readFile((entry as { from: string }).from);
      const dir = path.dirname(target);
      if (!this.made.has(dir)) { mkdirSync(dir, { recursive: true }); this.made.add(dir); }
      writeFileSync(target, data);
      const written = statSync(target);
      record = { hash, size: written.size, mtimeMs: written.mtimeMs, gzip: before?.hash === hash ? before.gzip : undefined };
    }
    if (entry.measure && record!.gzip === undefined) {
      // Measured last: the bytes may go to another thread, after which they are not read here.
      record = { ...record!, gzip: await this.gzipSize(contents ?? await readFile(target)) };
    }
    if (entry.key !== undefined) record = { ...record!, key: entry.key, about: entry.about };
    this.next[entry.file] = record!;
    return entry.measure ? { raw: record!.size, gzip: record!.gzip! } : undefined;
  }

  /** Deletes what this build did not write, and records what it did for the next build. */
  async finish() {
    const kept = new Set(Object.keys(this.next).map((f) => this.target(f)));
    // Listed synchronously: the promise version walks a large dist/ several times slower.
    const entries = readdirSync(this.outDir, { recursive: true, withFileTypes: true });
    for (const e of entries) {
      const file = path.join(e.parentPath, e.name);
      if (!e.isDirectory() && !kept.has(file)) await rm(file, { force: true });
    }
    await mkdir(path.dirname(this.manifestFile), { recursive: true });
    await writeFile(this.manifestFile, JSON.stringify(this.next));
  }
}

/** Files that are not public (the CDN function, the routing table, the headers) go beside dist/, never in it. */
export async function writeMeta(metaDir: string, files: Record<string, string>) {
  await mkdir(metaDir, { recursive: true });
  for (const [name, contents] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(metaDir, name)), { recursive: true });
    await writeFile(path.join(metaDir, name), contents);
  }
}

export function metaDirFor(outDir: string): string {
  return path.join(path.dirname(path.resolve(outDir)), 'build');
}
