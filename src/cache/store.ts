import path from 'node:path';
import { readSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { CACHE_DIR } from '../output/layout.ts';
import { decodePackIndex, PackIndex } from './pack-index.ts';
import { tempFileFor } from '../temp-file.ts';

/** Raised when the shape of a cache entry changes, so that entries of an older shape are never read. */
export const CACHE_FORMAT = 6;

const KEY = /^[0-9a-f]{64}$/;
const TAB = 0x09;
const NEWLINE = 0x0a;
const NEWLINE_BYTES = Buffer.from('\n');
/** A line to append, as the buffers it is written from, and its length in bytes. */
type Line = { parts: Uint8Array[]; bytes: number };
/** New entries are appended in writes of about this size, so that a large build never holds them all. */
const FLUSH_BYTES = 4 << 20;
/** The pack is rewritten with this build's entries alone once it holds more than twice as many lines, plus this slack. */
const COMPACT_SLACK = 256;

/**
 * One kind of cached result in one file, .site/cache/<kind>.pack: a header line naming the kind and
 * the format, then a line per entry, `<key>\t<JSON>\n`, the newest line of a key winning. Opening reads
 * the keys and where each line lies, not the values; a value is read when asked for. New entries are
 * appended a few megabytes at a time; once old lines outnumber the entries this build used, the file
 * is rewritten with those alone. A line that cannot be read back exactly (no key, another key, cut
 * short, not JSON, the wrong shape) is counted in `discarded`, dropped at the next rewrite, and the
 * caller computes the result afresh: a bad cache costs time, never a wrong page. A few thousand
 * small files cost more to open than the work they saved.
 */
export class CacheStore<T> {
  readonly file: string;
  private readonly indexFile: string;
  discarded = 0;
  private index = new PackIndex();
  private lines = 0;
  private size = 0;
  private used = new Set<string>();
  /** A line as its parts (the key and tab, the value, the newline): written together, never copied into one. */
  private pending: Array<{ key: string; line: Line }> = [];
  /** Lines appended but not yet on disk (queued, or being written): read from here until they are. */
  private unwritten = new Map<string, Line>();
  private pendingBytes = 0;
  private rewrite = false;
  /** No header of this format: the file is started afresh before anything is appended. */
  private foreign = false;
  private handle: FileHandle | undefined;
  private appending: Promise<void> = Promise.resolve();

  /** `memory`, when given, keeps entries in memory too (serve's BuildSession): a rebuild then reads no cache file. */
  private constructor(root: string, private readonly kind: string, private readonly valid: (value: unknown) => value is T, private readonly memory?: Map<string, unknown>) {
    this.file = path.join(root, CACHE_DIR, `${kind}.pack`);
    this.indexFile = `${this.file}.index`;
  }

  private get header() { return `site-cache ${this.kind} ${CACHE_FORMAT}\n`; }

  static async open<T>(root: string, kind: string, valid: (value: unknown) => value is T, memory?: Map<string, unknown>): Promise<CacheStore<T>> {
    const store = new CacheStore(root, kind, valid, memory);
    await store.readIndex();
    return store;
  }

  /** Reads the pack once, a megabyte at a time, noting each line's key and place. */
  private async readIndex() {
    const handle = await open(this.file, 'r').catch(() => undefined);
    if (!handle) return;
    this.handle = handle;
    if (await this.readSavedIndex(handle)) return;
    const chunk = Buffer.allocUnsafe(1 << 20);
    let carry = Buffer.alloc(0);
    let offset = 0;
    let first = true;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
      const data = carry.length ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      const base = offset - carry.length;
      let at = 0;
      for (let nl = data.indexOf(NEWLINE, at); nl !== -1; nl = data.indexOf(NEWLINE, at)) {
        if (first) {
          first = false;
          // Another format or kind: nothing in it is read, and the next save starts the file afresh.
          if (data.toString('latin1', 0, nl + 1) !== this.header) { this.foreign = true; return; }
        } else {
          const tab = data.indexOf(TAB, at);
          const key = tab !== -1 && tab < nl ? data.toString('latin1', at, tab) : '';
          if (KEY.test(key)) this.index.set(key, { start: base + at, end: base + nl });
          else { this.discarded++; this.rewrite = true; }
          this.lines++;
        }
        at = nl + 1;
      }
      carry = Buffer.from(data.subarray(at));
      offset += bytesRead;
      if (bytesRead === 0) break;
    }
    this.size = offset;
    // A last line without its newline was cut short (an interrupted build).
    if (carry.length) { this.discarded++; this.rewrite = true; }
    if (first) this.foreign = true;
  }

  async get(key: string): Promise<T | undefined> {
    const remembered = this.memory?.get(`${this.kind}:${key}`);
    if (remembered !== undefined) { this.used.add(key); return remembered as T; }
    const bytes = await this.readValue(key);
    if (bytes) {
      try {
        const value: unknown = JSON.parse(bytes.toString('utf8'));
        if (this.valid(value)) {
          this.memory?.set(`${this.kind}:${key}`, value);
          this.used.add(key);
          return value;
        }
      } catch { /* discarded below */ }
    }
    if (this.index.has(key)) this.discard(key);
    return undefined;
  }

  /**
   * The value's bytes as stored, not parsed: for an entry that another thread decodes (a page, which
   * its worker reads); if they turn out not to be a value, that thread says so and `discard` drops it.
   */
  async getRaw(key: string): Promise<Uint8Array | undefined> {
    const remembered = this.memory?.get(`${this.kind}:${key}`);
    if (remembered instanceof Uint8Array) { this.used.add(key); return remembered; }
    const bytes = await this.readValue(key);
    if (!bytes) { if (this.index.has(key)) this.discard(key); return undefined; }
    this.memory?.set(`${this.kind}:${key}`, bytes);
    this.used.add(key);
    return bytes;
  }

  /** The line of `key`, less the key: undefined if there is none, or it is cut short or another key's. */
  private async readValue(key: string): Promise<Buffer | undefined> {
    const queued = this.unwritten.get(key);
    if (queued) { const line = Buffer.concat(queued.parts); return line.subarray(key.length + 1, line.length - 1); }
    const place = this.index.get(key);
    if (!place || !this.handle) return undefined;
    const line = Buffer.allocUnsafe(place.end - place.start);
    // Synchronously: an entry is a few kilobytes in the kernel's cache, and a rebuild of a large blog
    // reads ten thousand; through the promise API each read was a trip through the thread pool.
    const bytesRead = readSync(this.handle.fd, line, 0, line.length, place.start);
    if (bytesRead !== line.length || line[key.length] !== TAB || line.toString('latin1', 0, key.length) !== key) return undefined;
    return line.subarray(key.length + 1);
  }

  /** An entry found unreadable: counted, forgotten, and dropped from the pack at its next rewrite. */
  discard(key: string): void {
    this.discarded++;
    this.index.delete(key);
    this.unwritten.delete(key);
    this.used.delete(key);
    this.memory?.delete(`${this.kind}:${key}`);
    this.rewrite = true;
  }

  /** Whether any entry could be found (a first build's store holds none: no key need be worked out to ask). */
  get mayHold(): boolean { return this.index.size > 0 || (this.memory?.size ?? 0) > 0; }

  /** Whether an entry of `key` is there to be read (it may yet turn out unreadable): the index alone is asked, nothing is read. */
  has(key: string): boolean {
    return this.unwritten.has(key) || this.index.has(key) || !!this.memory?.has(`${this.kind}:${key}`);
  }

  /** How many entries the pack holds (some may belong to files since changed). */
  get entries(): number { return this.index.size; }

  /** Marks the entry of `key` as still in use without reading it, so that a rewrite keeps it. */
  touch(key: string): void {
    if (this.index.has(key) || this.memory?.has(`${this.kind}:${key}`)) this.used.add(key);
  }

  /** Queued, and appended with others once a few megabytes are waiting (or at `save`). */
  async set(key: string, value: T): Promise<void> {
    this.memory?.set(`${this.kind}:${key}`, value);
    const line = Buffer.from(`${key}\t${JSON.stringify(value)}\n`);
    await this.append(key, { parts: [line], bytes: line.length });
  }

  /** `set` with the value's bytes made elsewhere (see `getRaw`); they must hold no newline. */
  async setRaw(key: string, bytes: Uint8Array): Promise<void> {
    this.memory?.set(`${this.kind}:${key}`, bytes);
    await this.append(key, { parts: [Buffer.from(`${key}\t`), bytes, NEWLINE_BYTES], bytes: key.length + 2 + bytes.byteLength });
  }

  private async append(key: string, line: Line): Promise<void> {
    this.used.add(key);
    this.pending.push({ key, line });
    this.unwritten.set(key, line);
    this.pendingBytes += line.bytes;
    if (this.pendingBytes >= FLUSH_BYTES) await this.flush();
  }

  /** Appends what is queued, one write after another; each line's place is noted for a later rewrite. */
  private flush(): Promise<void> {
    const lines = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    this.appending = this.appending.then(async () => {
      if (!lines.length) return;
      await mkdir(path.dirname(this.file), { recursive: true });
      const fresh = this.size === 0 || this.foreign;
      if (fresh) {
        // Started afresh (no file, or one of another format): what it held is unreadable anyway.
        await this.handle?.close();
        this.handle = undefined;
        this.index.clear();
        this.lines = 0;
        this.foreign = false;
      }
      const handle = await open(this.file, fresh ? 'w' : 'a');
      try {
        let at = fresh ? Buffer.byteLength(this.header) : this.size;
        // The key as given, never a slice of the line: a slice would keep the whole line alive.
        for (const { key, line } of lines) {
          const { bytes } = line;
          this.index.set(key, { start: at, end: at + bytes - 1 });
          this.lines++;
          at += bytes;
        }
        // Gathered by the kernel, not copied into one buffer first (a cold build appends hundreds of megabytes).
        await handle.writev([...(fresh ? [Buffer.from(this.header)] : []), ...lines.flatMap((l) => l.line.parts)]);
        this.size = at;
      } finally {
        await handle.close();
      }
      // Reads go through a handle of the file as it is now.
      await this.handle?.close();
      this.handle = await open(this.file, 'r');
      for (const { key, line } of lines) if (this.unwritten.get(key) === line) this.unwritten.delete(key);
    });
    return this.appending;
  }

  /** Writes what this build added; rewrites the file with this build's entries alone when it has grown stale or holds bad lines. */
  /** `compact`: false for a build that used only a few entries, and must leave the others (see BuildCache.save). */
  async save(compact = true): Promise<void> {
    try {
      await this.flush();
      const stale = this.foreign || (compact && (this.rewrite || this.lines > 2 * this.used.size + COMPACT_SLACK));
      if (stale) await this.compact();
    } finally {
      // Even when the write failed: a handle left open would be closed by the garbage collector (DEP0137).
      await this.close();
    }
    await this.writeIndex();
  }

  /** Lets go of the pack's read handle: for a store only read from, which is never saved (see `bodyReader` in build-cache.ts). Reading after it finds nothing. */
  async close(): Promise<void> {
    await this.appending.catch(() => undefined);
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  /** The file anew, written whole beside it and renamed over it, holding the lines of the entries this build used. */
  private async compact() {
    await mkdir(path.dirname(this.file), { recursive: true });
    const tmp = tempFileFor(this.file);
    const out = await open(tmp, 'w');
    const index = new PackIndex();
    try {
      await out.write(this.header);
      let at = Buffer.byteLength(this.header);
      for (const key of this.used) {
        const place = this.index.get(key);
        if (!place || !this.handle) continue;
        const line = Buffer.allocUnsafe(place.end - place.start + 1);
        const { bytesRead } = await this.handle.read(line, 0, line.length, place.start);
        if (bytesRead === line.length && line.toString('latin1', 0, 65) === `${key}\t` && line[line.length - 1] === NEWLINE) {
          await out.write(line);
          index.set(key, { start: at, end: at + line.length - 1 });
          at += line.length;
        }
      }
    } finally {
      await out.close();
    }
    const renamed = await rename(tmp, this.file).then(() => true, () => rm(tmp, { force: true }).then(() => false));
    if (renamed) { this.index = index; this.lines = index.size; this.size = Buffer.byteLength(this.header) + [...index.entries()].reduce((n, [, p]) => n + p.end - p.start + 1, 0); }
  }

  /**
   * Beside the pack, where each of its lines lies, with the pack's size and time (pack-index.ts): the
   * next build reads this (half a megabyte at 10,000 articles) instead of scanning a pack of hundreds.
   * Used only while the pack is exactly as it was then; each line is still checked against its key
   * when read.
   */
  private async writeIndex() {
    const now = await stat(this.file).catch(() => undefined);
    if (!now) return;
    const tmp = tempFileFor(this.indexFile);
    const out = await open(tmp, 'w');
    try {
      await out.writev(this.index.encode({ header: this.header, size: now.size, mtimeMs: now.mtimeMs, lines: this.lines }));
    } finally {
      await out.close();
    }
    await rename(tmp, this.indexFile).catch(() => rm(tmp, { force: true }));
  }

  /** The index `writeIndex` left, if the pack is still exactly as it was then. */
  private async readSavedIndex(handle: FileHandle): Promise<boolean> {
    const bytes = await readFile(this.indexFile).catch(() => undefined);
    const saved = bytes && decodePackIndex(bytes);
    if (!saved) return false;
    const now = await handle.stat();
    if (saved.meta.header !== this.header || saved.meta.size !== now.size || saved.meta.mtimeMs !== now.mtimeMs) return false;
    // The header as well: an index of this kind and format over a file that is not.
    const head = Buffer.alloc(Buffer.byteLength(this.header));
    await handle.read(head, 0, head.length, 0);
    if (head.toString('latin1') !== this.header) return false;
    // Keys as saved, searched in the table as read: a read compares the line's own key with the one asked for (see readValue).
    this.index = saved.index;
    this.lines = saved.meta.lines;
    this.size = now.size;
    return true;
  }
}
