import { copyFileSync, linkSync, mkdirSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import path from 'node:path';
import type { SizeFigure } from '../measure/summary.ts';
import { PAGE_GZIP_LEVEL } from '../measure/gzip.ts';
import type { SealedFile } from '../output/seal.ts';
import { listFiles, type ListedFile } from '../output/list-tree.ts';
import { fileListPatch, formerFileList } from '../output/layout.ts';
import { writeBeside } from '../temp-file.ts';
import { linkNew, pathIn, putContents, sha256OfFile, untouched, type FileEntry, type SiteTrees } from '../output/tree-file.ts';
import { listText, readFileList, type FileMap, type ListPatch, type ListPlaces, type ReadList, type WrittenFile, type WrittenFiles } from './file-list.ts';

const gzipAsync = promisify(gzip);

/** How a copied file's entry names the SHA-256 of its bytes, where its caller knew it (a share card). */
const SHA256 = 'sha256:';

/** Bytes → their gzip size at level 9. The bytes may be handed to another thread: the caller does not read them after. */
export type GzipSize = (data: Uint8Array) => Promise<number>;

/** zlib on libuv's thread pool: for a small build, where starting worker threads would cost more. */
export const gzipHere: GzipSize = async (data) => (await gzipAsync(data, { level: 9 })).byteLength;

/** Past this many entries in the patch, a quick rebuild writes the whole list again. */
const MOST_PATCHED = 2_000;

/**
 * One file of the build: contents to write, or a file to copy (with the SHA-256 of its bytes when the
 * caller knows it, else it is read to hash it); `measure` asks for its raw and gzip
 * size; `key` and `about` are kept with its entry (see `keep`).
 */
export type DistFile = { file: string; measure?: boolean; key?: string; about?: unknown } & ({ contents: string | Uint8Array } | { from: string; sha256?: string });

/** A tree's public files and the list of what its build wrote there. */
export interface TreeFiles { site: string; fileList: string }

/**
 * The build's files are written by this module alone, into a staging tree (see output/swap.ts) that
 * holds the build before last, or what a failed build left. A file whose contents equal what the last
 * complete build wrote (and which nobody has touched since: same size and time) is not written again:
 * the staging tree gets a hard link to the live tree's file (one inode for both; already there in
 * a steady state, so a stat decides). Nothing is ever written through an existing file, which may be
 * the live one: a file to write is unlinked first. Files the build does not make are deleted.
 */
export class DistWriter {
  private previous: FileMap = {};
  private next: FileMap = {};
  private previousShared: string[] = [];
  private nextShared: string[] = [];
  private sharedAt = new Map<string, number>();
  /** Folders made (or found) by this build, so each is asked for once. */
  private made = new Set<string>();
  /** The staging tree's files as this build found them, with their stats, listed while it works (see `keep`, `finish`). */
  private found: Promise<Map<string, ListedFile>> = Promise.resolve(new Map());

  /** `gzipSize` may be swapped while the build runs (to the worker pool, once it has started). */
  constructor(private readonly stage: TreeFiles, private readonly live: TreeFiles | undefined, public gzipSize: GzipSize = gzipHere) {}

  get outDir(): string { return this.stage.site; }

  /**
   * Reads the last complete build's entries and starts listing the staging tree. Synchronous, and
   * called as the build starts: the listing then runs (in a thread of its own when the tree is large)
   * while the content loads, whose work yields to the event loop too seldom for an awaited read of
   * the entries to come back in time.
   */
  begin(): void {
    ({ files: this.previous, shared: this.previousShared } = this.live ? readFileList(this.live.fileList).list : { files: {}, shared: [] });
    mkdirSync(this.stage.site, { recursive: true });
    // What the build finds there and does not write is deleted at the end, and nothing else can have come in between.
    this.found = listFiles(this.stage.site, Object.keys(this.previous).length).then((files) => new Map(files.map((f) => [f.file, f])));
  }

  private get trees(): SiteTrees { return { stage: this.stage.site, live: this.live?.site }; }

  /** The last complete build's entry of `file`: handed to a worker that writes the file itself. */
  before(file: string): FileEntry | undefined {
    const b = this.previous[file];
    return b && { hash: b.hash, size: b.size, mtimeMs: b.mtimeMs, ...(b.ino === undefined ? {} : { ino: b.ino }), ...(b.gzip === undefined ? {} : { gzip: b.gzip, ...(b.gzipLevel === undefined ? {} : { gzipLevel: b.gzipLevel }) }) };
  }

  /** The two trees' public folders, for a worker that writes pages into the staging one. */
  get siteTrees(): SiteTrees { return this.trees; }

  /** The key of what the last complete build made `file` from, as it listed it (see `keep`). */
  lastKey(file: string): string | undefined {
    return this.previous[file]?.key;
  }

  /** What the last complete build kept with its entry of `file` (see `keep`). */
  lastAbout(file: string): unknown {
    return this.previous[file]?.about;
  }

  /**
   * `text` kept once in this build's file list, however many entries hold it (the islands and
   * images that a template's pages share): its index there, for an entry's `about` to name.
   */
  share(text: string): number {
    let at = this.sharedAt.get(text);
    if (at === undefined) { at = this.nextShared.push(text) - 1; this.sharedAt.set(text, at); }
    return at;
  }

  /** The text the last complete build kept at `index` (see `share`), if it kept one there; read now if the list was read in part. */
  lastShared(index: unknown): string | undefined {
    if (typeof index !== 'number') return undefined;
    let text = this.previousShared[index];
    if (text === undefined && this.quick?.sharedText) {
      text = this.quick.sharedText(index);
      if (text !== undefined) {
        this.previousShared[index] = this.nextShared[index] = text;
        if (!this.sharedAt.has(text)) this.sharedAt.set(text, index);
      }
    }
    return text;
  }

  /** A file written into the staging tree by another thread (see render/page-output.ts), listed as this writer's own. */
  add(file: string, written: WrittenFile): void {
    pathIn(this.stage.site, file);
    this.next[file] = written;
    if (this.quick) this.touched.add(file);
  }

  /**
   * The entry of `file` (a page) if the last build wrote it from inputs of this `key` and nobody has
   * touched it since (same size and time): the file stands as it is, and the caller need not make it
   * again. An entry whose gzip figure was taken at another level than a page's now is not kept.
   */
  async keep(file: string, key: string | (() => string)): Promise<WrittenFile | undefined> {
    const before = this.previous[file];
    // The key last: working it out may cost more than everything else here.
    if (!before?.key || before.gzip === undefined || before.gzipLevel !== PAGE_GZIP_LEVEL || before.key !== (typeof key === 'string' ? key : key())) return undefined;
    // As the tree was listed when this build began, which nothing of this build has written since: no stat here.
    const kept = untouched(this.trees, file, before, this.made, (await this.found).get(file)?.stat ?? null);
    if (!kept) return undefined;
    return (this.next[file] = kept);
  }

  /**
   * `file` is the public path, with a leading slash. Gzip sizes (level 9: the assets are a handful of
   * files; pages are measured at level 1 where they are made, see render/page-output.ts) are computed by zlib on libuv's thread pool, off the main thread, and reused while the
   * file's contents stay the same.
   */
  async write(entry: DistFile): Promise<SizeFigure | undefined> {
    const before = this.previous[entry.file];
    let listed: WrittenFile;
    let contents: Uint8Array | undefined;
    if ('contents' in entry) {
      contents = typeof entry.contents === 'string' ? Buffer.from(entry.contents) : entry.contents;
      listed = putContents(this.trees, entry.file, contents, before, this.made);
    } else {
      // A copied file is known by the SHA-256 of its bytes where the caller knows it (a share card,
      // named by it in a cache that never writes through a file), else by its source's path, size and
      // time (images are read only when they change). Synchronously, as every stat here: a large blog
      // has a card per page, and a promise is a trip through the thread pool. The staging tree's file
      // as listed when the build began, as for a page (see `keep`).
      const hash = entry.sha256 !== undefined ? `${SHA256}${entry.sha256}` : copyHash(entry.from);
      const kept = before?.hash === hash ? untouched(this.trees, entry.file, before, this.made, (await this.found).get(entry.file)?.stat ?? null) : undefined;
      if (kept) listed = kept;
      else {
        const written = linkNew(this.trees, entry.file, entry.from, this.made);
        // Read for its SHA-256 alone (the completion manifest's), which the entry keeps while the source stays the same.
        // A hash that is the SHA-256 already (a card's) is not kept twice: see `files`.
        listed = { hash, size: written.size, mtimeMs: written.mtimeMs, ino: written.ino, gzip: before?.hash === hash ? before.gzip : undefined, ...(entry.sha256 !== undefined ? {} : { sha256: sha256OfFile(entry.from) }) };
      }
    }
    // An asset's gzip figure is level 9's (an entry without a level is one).
    if (entry.measure && (listed.gzip === undefined || (listed.gzipLevel ?? 9) !== 9)) {
      // Measured last: the bytes may go to another thread, after which they are not read here.
      listed = { ...listed, gzip: await this.gzipSize(contents ?? await readFile(pathIn(this.stage.site, entry.file))) };
    }
    if (entry.key !== undefined) listed = { ...listed, key: entry.key, about: entry.about };
    this.next[entry.file] = listed;
    if (this.quick) this.touched.add(entry.file);
    return entry.measure ? { raw: listed.size, gzip: listed.gzip! } : undefined;
  }

  /**
   * A quick rebuild's start (pipeline/quick-build.ts): the staging tree is already the last build's
   * (brought up to date from its record), so this build's list starts as the last one's, shared texts
   * at the same places, and nothing is listed or deleted; the caller replaces the entries it writes.
   */
  beginFrom(last: ReadList): void {
    this.previous = last.list.files;
    this.previousShared = last.list.shared;
    // Only the entries read (see readFileListAt): the list's others stand, in the live tree's file this one links to.
    this.next = { ...last.list.files };
    // Holes where the texts were not read (slice and forEach keep them so): a text this build shares again is read first (`lastShared`).
    this.nextShared = last.list.shared.slice();
    this.sharedAt = new Map();
    this.nextShared.forEach((text, i) => this.sharedAt.set(text, i));
    this.quick = last;
  }

  /** A quick rebuild's start (see `beginFrom`), and the entries it has written since. */
  private quick: ReadList | undefined;
  private readonly touched = new Set<string>();

  /** The last complete build's list as it was read (see `begin`). */
  get lastList(): WrittenFiles { return { files: this.previous, shared: this.previousShared }; }

  /**
   * What the staging tree holds that the live tree does not, once `finish` has run: the files this
   * build wrote afresh (another inode than the live tree's), and those it dropped. A quick rebuild
   * after the next swap brings the other tree up to date from these alone (see build-record.ts).
   */
  changes: { fresh: string[]; gone: string[] } = { fresh: [], gone: [] };

  /**
   * Deletes what this build did not write (and folders left empty), and lists what it did, for the
   * build after the next swap.
   */
  async finish() {
    const root = this.stage.site;
    const kept = new Set(Object.keys(this.next).map(listedAs));
    const emptied = new Set<string>();
    for (const file of this.quick ? [] : (await this.found).keys()) {
      if (kept.has(file)) continue;
      const target = pathIn(root, file);
      rmSync(target, { force: true });
      emptied.add(path.dirname(target));
    }
    for (let dir of emptied) {
      // rmdir refuses a folder that still holds anything: the walk up stops there.
      while (dir.startsWith(root + path.sep) && tryRmdir(dir)) dir = path.dirname(dir);
    }
    const fresh = (this.quick ? [...this.touched] : Object.keys(this.next)).filter((file) => this.previous[file]?.ino === undefined || this.previous[file].ino !== this.next[file]!.ino);
    this.changes = { fresh, gone: this.quick ? [] : Object.keys(this.previous).filter((file) => !(file in this.next)) };
    await this.writeList();
    rmSync(formerFileList(this.stage.fileList), { force: true });
  }

  /**
   * The file list, for the build after the next swap. A quick rebuild that changed a few entries
   * leaves the live tree's list as it is (a hard link to it) with a patch of those entries beside
   * it: writing out ten thousand entries again cost it a third of a second. Never written through a
   * file that is there, which may be the live tree's too.
   */
  private async writeList(): Promise<void> {
    const patchFile = fileListPatch(this.stage.fileList);
    const patched = this.quick && { ...this.quick.patch?.files, ...Object.fromEntries([...this.touched].map((file) => [file, this.next[file]!])) };
    if (this.quick && this.live && patched) {
      if (Object.keys(patched).length > MOST_PATCHED) throw new Error('the file list\'s patch is full: the full build writes the list whole');
      const patch: ListPatch = { baseShared: this.quick.baseShared, files: patched, shared: this.nextShared.slice(this.quick.baseShared) };
      rmSync(this.stage.fileList, { force: true });
      try { linkSync(this.live.fileList, this.stage.fileList); } catch { copyFileSync(this.live.fileList, this.stage.fileList); }
      await writeBeside(patchFile, JSON.stringify(patch));
      return;
    }
    if (this.quick) throw new Error('a quick rebuild has no whole list to write');
    const { text, files, shared } = listText({ files: this.next, shared: this.nextShared });
    await writeBeside(this.stage.fileList, text);
    rmSync(patchFile, { force: true });
    const s = statSync(this.stage.fileList);
    this.listPlaces = { size: s.size, mtimeMs: s.mtimeMs, files, shared };
  }

  /** Where the whole list this build wrote keeps each entry and shared text (undefined until `finish`, and for a quick rebuild). */
  listPlaces: ListPlaces | undefined;

  /** Every file this build wrote or kept, with its size and the SHA-256 of its bytes: for the completion manifest. */
  files(): SealedFile[] {
    return Object.entries(this.next).map(([file, r]) => sealed(file, r));
  }

  /** Every file this build wrote or kept, by its public path. */
  fileNames(): string[] { return Object.keys(this.next); }

  /** A quick rebuild's files written (see `beginFrom`), as `files` gives them. */
  touchedFiles(): SealedFile[] {
    return [...this.touched].map((file) => sealed(file, this.next[file]!));
  }
}

const sealed = (file: string, r: WrittenFile): SealedFile => ({ key: file.replace(/^\/+/, ''), size: r.size, sha256: r.sha256 ?? (r.hash.startsWith(SHA256) ? r.hash.slice(SHA256.length) : r.hash) });

/** A listed file as the listing names it: '/blog/a.html' (mostly as listed already: no split then). */
const listedAs = (file: string) => (/^(?:\/[^/]+)+$/.test(file) ? file : `/${file.split('/').filter(Boolean).join('/')}`);

function copyHash(from: string): string {
  const source = statSync(from);
  return `copy:${from}:${source.size}:${source.mtimeMs}`;
}

function tryRmdir(dir: string): boolean {
  try { rmdirSync(dir); return true; } catch { return false; }
}

/** The routing table, CDN functions and headers, into the staging tree's deploy/ (.site/deploy/ links to the current tree's). */
export async function writeDeployFiles(deployDir: string, files: Record<string, string>) {
  await mkdir(deployDir, { recursive: true });
  for (const [name, contents] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(deployDir, name)), { recursive: true });
    // Beside and renamed over, never through the file: a quick rebuild links the live tree's files here (quick-build.ts).
    await writeBeside(path.join(deployDir, name), contents);
  }
}


