import { describe, expect, it } from 'vitest';
import { decodePackIndex, PackIndex, type Place } from '../../src/cache/pack-index.ts';
import { hashOf } from '../../src/hash.ts';

const meta = { header: 'site-cache demo 6\n', size: 1234, mtimeMs: 5678.5, lines: 9 };
const key = (i: number) => hashOf(`key ${i}`);
const place = (i: number): Place => ({ start: i * 1000, end: i * 1000 + 999 });

/** The index saved and read back, as the next build opens it. */
const reopened = (index: PackIndex) => decodePackIndex(Buffer.concat(index.encode(meta)))!;

describe('PackIndex: where each line of a pack lies, saved as a table searched by key', () => {
  it('answers every key from the saved table, in any order, with the places set, and nothing for a key it never held', () => {
    const index = new PackIndex();
    const order = Array.from({ length: 500 }, (_, i) => (i * 7919) % 500);
    for (const i of order) index.set(key(i), place(i));
    const saved = reopened(index);
    expect(saved.meta).toEqual(meta);
    expect(saved.index.size).toBe(500);
    for (let i = 0; i < 500; i++) expect(saved.index.get(key(i))).toEqual(place(i));
    expect(saved.index.get(key(500))).toBeUndefined();
    expect(saved.index.has('not a key')).toBe(false);
    // Places past 4 GB survive the table (a pack of a very large blog).
    const big = new PackIndex();
    big.set(key(1), { start: 2 ** 40, end: 2 ** 40 + 10 });
    expect(reopened(big).index.get(key(1))).toEqual({ start: 2 ** 40, end: 2 ** 40 + 10 });
  });

  it('keeps what a build adds, replaces and drops beside the table, and saves them merged, in order', () => {
    const first = new PackIndex();
    for (let i = 0; i < 100; i++) first.set(key(i), place(i));
    const index = reopened(first).index;
    index.set(key(3), place(300)); // replaced
    index.delete(key(4)); // dropped
    index.set(key(200), place(200)); // added
    index.delete(key(5));
    index.set(key(5), place(500)); // dropped, then added again
    index.set(key(201), place(201));
    index.delete(key(201)); // added, then dropped
    expect(index.size).toBe(100);
    expect(index.get(key(3))).toEqual(place(300));
    expect(index.has(key(4))).toBe(false);
    expect(index.get(key(5))).toEqual(place(500));
    expect(index.get(key(200))).toEqual(place(200));
    expect(index.has(key(201))).toBe(false);
    const entries = new Map(index.entries());
    expect(entries.size).toBe(100);
    expect(entries.get(key(3))).toEqual(place(300));

    const again = reopened(index).index;
    expect(again.size).toBe(100);
    expect(new Map(again.entries())).toEqual(entries);
    // In key order, so that it can be searched.
    const keys = [...again.entries()].map(([k]) => k);
    expect(keys).toEqual([...keys].sort());
  });

  it('saves, over rounds of random adds, replaces and drops, exactly what a map of the same changes holds', () => {
    let seed = 7;
    const random = (n: number) => { seed = (seed * 48271) % 2147483647; return seed % n; };
    const model = new Map<string, Place>();
    let index = new PackIndex();
    for (let round = 0; round < 6; round++) {
      for (let op = 0; op < (round === 0 ? 400 : 40); op++) {
        const k = key(random(600));
        if (random(4) === 0) { index.delete(k); model.delete(k); } else { const p = place(random(10_000)); index.set(k, p); model.set(k, p); }
      }
      index = reopened(index).index;
      expect(index.size).toBe(model.size);
      const saved = [...index.entries()];
      expect(saved.map(([k]) => k)).toEqual([...model.keys()].sort());
      for (const [k, p] of saved) expect(p).toEqual(model.get(k));
    }
  });

  it('answers the same once so many keys were asked for that it maps the table instead', () => {
    const first = new PackIndex();
    for (let i = 0; i < 3000; i++) first.set(key(i), place(i));
    const index = reopened(first).index;
    for (let round = 0; round < 2; round++) for (let i = 0; i < 3000; i++) expect(index.get(key(i))).toEqual(place(i));
    expect(index.get(key(3001))).toBeUndefined();
    index.delete(key(7));
    expect(index.has(key(7))).toBe(false);
    expect(index.size).toBe(2999);
  });

  it('reads nothing from a file of another format or one cut short', () => {
    const index = new PackIndex();
    index.set(key(1), place(1));
    const bytes = Buffer.concat(index.encode(meta));
    expect(decodePackIndex(bytes.subarray(0, bytes.length - 3))).toBeUndefined();
    expect(decodePackIndex(Buffer.from(JSON.stringify({ ...meta, places: [[key(1), 0, 999]] })))).toBeUndefined();
    expect(decodePackIndex(Buffer.alloc(0))).toBeUndefined();
  });
});
