import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CacheStore } from '../../src/cache/store.ts';
import { decodePackIndex } from '../../src/cache/pack-index.ts';
import { hashOf } from '../../src/hash.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';

const isText = (v: unknown): v is { text: string } => typeof (v as { text?: unknown })?.text === 'string';
let root: string;
afterEach(async () => { await rm(root, { recursive: true, force: true }); });

const lineCount = async () => (await readFile(path.join(root, CACHE_DIR, 'demo.pack'), 'utf8')).split('\n').filter(Boolean).length - 1;

describe('CacheStore: one pack file per kind', () => {
  it('reads back every entry a build wrote, however many flushes it took, and text of any script', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'site-store-'));
    const store = await CacheStore.open(root, 'demo', isText);
    // About 12 MB: several appends of a few megabytes each.
    const big = 'Ünïcödé ’quotes’ and \t tabs \n newlines '.repeat(1000);
    for (let i = 0; i < 300; i++) await store.set(hashOf(String(i)), { text: `${i}:${big}` });
    await store.save();

    const again = await CacheStore.open(root, 'demo', isText);
    for (const i of [0, 1, 150, 299]) expect(await again.get(hashOf(String(i)))).toEqual({ text: `${i}:${big}` });
    expect(await again.get(hashOf('never written'))).toBeUndefined();
    expect(again.discarded).toBe(0);
    await again.close();
  });

  it('rewrites the pack with the entries in use once old lines outnumber them', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'site-store-'));
    const first = await CacheStore.open(root, 'demo', isText);
    for (let i = 0; i < 600; i++) await first.set(hashOf(String(i)), { text: String(i) });
    await first.save();
    expect(await lineCount()).toBe(600);

    // A build that uses ten of them and adds one: 601 lines is more than twice 11 plus the slack.
    const second = await CacheStore.open(root, 'demo', isText);
    for (let i = 0; i < 10; i++) expect(await second.get(hashOf(String(i)))).toEqual({ text: String(i) });
    await second.set(hashOf('new'), { text: 'new' });
    await second.save();
    expect(await lineCount()).toBe(11);

    const third = await CacheStore.open(root, 'demo', isText);
    expect(await third.get(hashOf('new'))).toEqual({ text: 'new' });
    expect(await third.get(hashOf('5'))).toEqual({ text: '5' });
    expect(await third.get(hashOf('500'))).toBeUndefined();
    await third.close();
  });

  it('keeps a pack that is mostly in use as it is, appending only', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'site-store-'));
    const first = await CacheStore.open(root, 'demo', isText);
    for (let i = 0; i < 100; i++) await first.set(hashOf(String(i)), { text: String(i) });
    await first.save();
    const second = await CacheStore.open(root, 'demo', isText);
    await second.set(hashOf('0'), { text: 'zero' });
    await second.save();
    expect(await lineCount()).toBe(101);
    // The newest line of a key wins.
    const third = await CacheStore.open(root, 'demo', isText);
    expect(await third.get(hashOf('0'))).toEqual({ text: 'zero' });
    await third.close();
  });

  it('opens a large pack from the index saved beside it, and still checks each line it reads against its key', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'site-store-'));
    const first = await CacheStore.open(root, 'demo', isText);
    for (let i = 0; i < 50; i++) await first.set(hashOf(String(i)), { text: `value ${i}` });
    await first.save();
    const pack = path.join(root, CACHE_DIR, 'demo.pack');
    const savedIndex = decodePackIndex(await readFile(`${pack}.index`))!;
    expect(savedIndex.index.size).toBe(50);

    // One key changed in place, the size the same, and the index told the pack is as it was: the
    // saved index answers, and the line's own key guards the value.
    const text = await readFile(pack, 'utf8');
    await writeFile(pack, text.replace(`${hashOf('7')}\t{"text":"value 7"}`, `${hashOf('8')}\t{"text":"value 7"}`));
    await writeFile(`${pack}.index`, savedIndex.index.encode({ ...savedIndex.meta, mtimeMs: (await stat(pack)).mtimeMs }));
    const second = await CacheStore.open(root, 'demo', isText);
    expect(await second.get(hashOf('7'))).toBeUndefined();
    expect(second.discarded).toBe(1);
    expect(await second.get(hashOf('9'))).toEqual({ text: 'value 9' });
    await second.close();

    // A pack changed since its index was saved is scanned afresh.
    await writeFile(pack, `${text}${hashOf('extra')}\t{"text":"appended by hand"}\n`);
    const third = await CacheStore.open(root, 'demo', isText);
    expect(await third.get(hashOf('extra'))).toEqual({ text: 'appended by hand' });
    expect(await third.get(hashOf('7'))).toEqual({ text: 'value 7' });
    await third.close();
  });

  it('reads back a line appended in this build, queued or written, and knows which keys it holds without reading them', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'site-store-'));
    const store = await CacheStore.open(root, 'demo', isText);
    const bytes = (text: string) => Buffer.from(JSON.stringify({ text }));
    await store.setRaw(hashOf('queued'), bytes('still in memory'));
    // Queued, not yet written: read from memory.
    expect(store.has(hashOf('queued'))).toBe(true);
    expect(Buffer.from((await store.getRaw(hashOf('queued')))!).toString()).toBe('{"text":"still in memory"}');
    // Past the flush size: everything queued is written, and read back from the file.
    const big = 'x'.repeat(1 << 20);
    for (let i = 0; i < 5; i++) await store.setRaw(hashOf(String(i)), bytes(big));
    expect(Buffer.from((await store.getRaw(hashOf('queued')))!).toString()).toBe('{"text":"still in memory"}');
    expect(await store.get(hashOf('4'))).toEqual({ text: big });
    expect(store.has(hashOf('never written'))).toBe(false);
    await store.save();
    const again = await CacheStore.open(root, 'demo', isText);
    expect(again.has(hashOf('queued'))).toBe(true);
    expect(await again.get(hashOf('queued'))).toEqual({ text: 'still in memory' });
    expect(again.discarded).toBe(0);
    await again.close();
  });
});
