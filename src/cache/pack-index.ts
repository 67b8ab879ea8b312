/**
 * Where each line of a cache pack lies, by key: the table a pack is opened with. Saved beside the
 * pack as a sorted binary table (a key's 32 bytes, its line's start and end), so that a build that
 * asks for a handful of keys (a quick rebuild) searches the table as read and builds no map of the
 * site's ten thousand entries; what a build adds or drops is kept beside the table until it is saved.
 */

/** Where a line lies in the pack: its first byte and its newline. */
export interface Place { start: number; end: number }

/** What the saved table says of the pack it was saved for. */
export interface IndexMeta { header: string; size: number; mtimeMs: number; lines: number }

const MAGIC = 'site-cache-index 2\n';
const KEY_BYTES = 32;
const RECORD = KEY_BYTES + 6 + 6;
const KEY = /^[0-9a-f]{64}$/;
const NO_TABLE = Buffer.alloc(0);
/** More pieces than this to save (a build that added most of its keys), and they are joined into one buffer before the write. */
const MOST_PIECES = 256;
/** A binary search costs a few microseconds; a map of 15,000 keys some 20 ms to build. */
const SEARCHES_BEFORE_MAP = 2000;

export class PackIndex {
  /** Records sorted by key, as saved. */
  private table: Buffer = NO_TABLE;
  /** Set since the table was read (a key in both: this place wins). */
  private added = new Map<string, Place>();
  /** Keys of the table dropped since. */
  private removed = new Set<string>();
  /** Keys in `added` that the table does not hold at all. */
  private fresh = 0;

  static fromTable(table: Buffer): PackIndex {
    const index = new PackIndex();
    index.table = table;
    return index;
  }

  /** Searches so far; past SEARCHES_BEFORE_MAP (a full build asks for every page), a map of the table answers instead. */
  private searches = 0;
  private byKey: Map<string, number> | undefined;

  private find(key: string): number {
    if (!this.table.length) return -1;
    if (this.byKey) return this.byKey.get(key) ?? -1;
    if (++this.searches > SEARCHES_BEFORE_MAP) {
      this.byKey = new Map();
      for (let at = 0; at < this.table.length; at += RECORD) this.byKey.set(this.table.toString('hex', at, at + KEY_BYTES), at);
      return this.byKey.get(key) ?? -1;
    }
    if (!KEY.test(key)) return -1;
    const wanted = Buffer.from(key, 'hex');
    let lo = 0;
    let hi = this.table.length / RECORD - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = mid * RECORD;
      const order = this.table.compare(wanted, 0, KEY_BYTES, at, at + KEY_BYTES);
      if (order === 0) return at;
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private placeAt(at: number): Place {
    return { start: this.table.readUIntBE(at + KEY_BYTES, 6), end: this.table.readUIntBE(at + KEY_BYTES + 6, 6) };
  }

  get(key: string): Place | undefined {
    const added = this.added.get(key);
    if (added) return added;
    if (this.removed.has(key)) return undefined;
    const at = this.find(key);
    return at === -1 ? undefined : this.placeAt(at);
  }

  /** `get` without reading the place: a full build asks this of every page. */
  has(key: string): boolean {
    if (this.added.has(key)) return true;
    return !this.removed.has(key) && this.find(key) !== -1;
  }

  set(key: string, place: Place): void {
    if (!this.added.has(key) && this.find(key) === -1) this.fresh++;
    this.removed.delete(key);
    this.added.set(key, place);
  }

  delete(key: string): void {
    if (this.added.delete(key)) {
      if (this.find(key) === -1) this.fresh--;
      else this.removed.add(key);
    } else if (this.find(key) !== -1) this.removed.add(key);
  }

  clear(): void {
    this.table = NO_TABLE;
    this.byKey = undefined;
    this.added.clear();
    this.removed.clear();
    this.fresh = 0;
  }

  get size(): number { return this.table.length / RECORD - this.removed.size + this.fresh; }

  /** Every entry, the table's first (none of them read until asked for). */
  *entries(): IterableIterator<[string, Place]> {
    for (let at = 0; at < this.table.length; at += RECORD) {
      const key = this.table.toString('hex', at, at + KEY_BYTES);
      if (!this.added.has(key) && !this.removed.has(key)) yield [key, this.placeAt(at)];
    }
    yield* this.added;
  }

  /** The first record whose key is not below `key`: its offset in the table (the table's length if none). */
  private lowerBound(key: Buffer): number {
    let lo = 0;
    let hi = this.table.length / RECORD;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.table.compare(key, 0, KEY_BYTES, mid * RECORD, mid * RECORD + KEY_BYTES) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo * RECORD;
  }

  /**
   * The table to save, as the pieces to write one after another: the table as read, less what was
   * dropped, merged with what was added, in key order. Each added key's place in the table is searched
   * for, and the runs between are views of the table as read, not copies: a quick rebuild's few keys
   * cost a few searches and a few records, not a copy of fifteen thousand (half a megabyte a pack,
   * whose every fresh page this machine's kernel makes slowly).
   */
  private pieces(): Buffer[] {
    const extra = [...this.added].filter(([key]) => KEY.test(key)).map(([key, place]) => ({ key: Buffer.from(key, 'hex'), place })).sort((a, b) => a.key.compare(b.key));
    const skipped = new Set<number>();
    for (const key of this.removed) { const at = this.find(key); if (at !== -1) skipped.add(at); }
    const inserts = extra.map(({ key, place }) => {
      const at = this.lowerBound(key);
      if (at < this.table.length && this.table.compare(key, 0, KEY_BYTES, at, at + KEY_BYTES) === 0) skipped.add(at); // replaced
      return { at, key, place };
    });
    const skips = [...skipped].sort((a, b) => a - b);
    const out: Buffer[] = [];
    let pos = 0;
    let s = 0;
    /** The table's records from `pos` up to `until`, less the skipped ones. */
    const runUntil = (until: number) => {
      while (pos < until) {
        const stop = s < skips.length && skips[s]! < until ? skips[s]! : until;
        if (stop > pos) out.push(this.table.subarray(pos, stop));
        pos = stop;
        if (s < skips.length && skips[s] === pos) { pos += RECORD; s++; }
      }
    };
    for (const { at, key, place } of inserts) {
      runUntil(at);
      const record = Buffer.allocUnsafe(RECORD);
      key.copy(record, 0);
      record.writeUIntBE(place.start, KEY_BYTES, 6);
      record.writeUIntBE(place.end, KEY_BYTES + 6, 6);
      out.push(record);
    }
    runUntil(this.table.length);
    return out;
  }

  /**
   * The saved form, as pieces to write in turn (a file handle's `writev`): a line naming the format, a
   * line of JSON about the pack, then the table. Many pieces (a build that added most of its keys)
   * are joined into one first.
   */
  encode(meta: IndexMeta): Buffer[] {
    const table = this.pieces();
    const count = table.reduce((n, piece) => n + piece.length, 0) / RECORD;
    const parts = [Buffer.from(`${MAGIC}${JSON.stringify({ ...meta, count })}\n`), ...table];
    return parts.length > MOST_PIECES ? [Buffer.concat(parts)] : parts;
  }
}

/** The saved form read back, or undefined if it is not one (another format, cut short). */
export function decodePackIndex(bytes: Buffer): { meta: IndexMeta; index: PackIndex } | undefined {
  if (bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  const nl = bytes.indexOf(0x0a, MAGIC.length);
  if (nl === -1) return undefined;
  try {
    const meta = JSON.parse(bytes.toString('utf8', MAGIC.length, nl)) as IndexMeta & { count: number };
    const table = bytes.subarray(nl + 1);
    if (typeof meta.header !== 'string' || typeof meta.size !== 'number' || typeof meta.mtimeMs !== 'number' || table.length !== meta.count * RECORD) return undefined;
    return { meta: { header: meta.header, size: meta.size, mtimeMs: meta.mtimeMs, lines: meta.lines }, index: PackIndex.fromTable(table) };
  } catch {
    return undefined;
  }
}
