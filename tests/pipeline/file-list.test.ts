// The file list a build writes beside its tree (written-files.json), and a quick rebuild's reading of
// a few of its entries and shared texts at the places the full build noted (src/pipeline/dist-writer.ts).
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listText, readFileList, readFileListAt, type WrittenFiles } from '../../src/pipeline/file-list.ts';
import { fileListPatch } from '../../src/output/layout.ts';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'file-list-'));
  file = path.join(dir, 'written-files.json');
});
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

// Names and texts a byte count could trip on: accents, a quote, an emoji, a backslash.
const list: WrittenFiles = {
  files: {
    '/index.html': { hash: 'a', size: 10, mtimeMs: 1.5, key: 'k1', about: { uses: 0, site: 1 } },
    '/blog/café.html': { hash: 'b', size: 20, mtimeMs: 2.5, key: 'k2', about: { uses: 2, site: 1 } },
    '/blog/"quoted".html': { hash: 'c', size: 30, mtimeMs: 3.5 },
    '/blog/feed.xml': { hash: 'd', size: 40, mtimeMs: 4.5 },
  },
  shared: ['{"islands":[]}', 'site é 🙂', 'back\\slash "and quotes"'],
};

describe('the file list', () => {
  it('is written as JSON.stringify writes it, with the place of each entry and shared text in its bytes', () => {
    const { text, files, shared } = listText(list);
    expect(text).toBe(JSON.stringify(list));
    const bytes = Buffer.from(text);
    for (const [name, entry] of Object.entries(list.files)) {
      const [start, end] = files.get(name)!;
      expect(JSON.parse(bytes.toString('utf8', start, end))).toEqual(entry);
    }
    expect(shared.map(([start, end]) => JSON.parse(bytes.toString('utf8', start, end)))).toEqual(list.shared);
  });

  it('is read in part at those places: the entries asked for, the patch over them, and a shared text when asked', async () => {
    const { text, files, shared } = listText(list);
    await writeFile(file, text);
    const s = statSync(file);
    const known = { size: s.size, mtimeMs: s.mtimeMs, shared };
    const at = (name: string) => ({ file: name, place: files.get(name)! });
    const read = readFileListAt(file, known, [at('/blog/café.html'), at('/blog/feed.xml')])!;
    expect(read.list.files).toEqual({ '/blog/café.html': list.files['/blog/café.html'], '/blog/feed.xml': list.files['/blog/feed.xml'] });
    expect(read.baseShared).toBe(3);
    expect(read.list.shared.length).toBe(3);
    expect(1 in read.list.shared).toBe(false);
    expect([0, 1, 2, 3].map((i) => read.sharedText!(i))).toEqual([...list.shared, undefined]);

    // A quick rebuild's patch beside it: its entries win, its texts follow the base's.
    const patched = { hash: 'e', size: 50, mtimeMs: 5.5, about: { uses: 3 } };
    await writeFile(fileListPatch(file), JSON.stringify({ baseShared: 3, files: { '/blog/café.html': patched }, shared: ['new text'] }));
    const again = readFileListAt(file, known, [at('/blog/café.html')])!;
    expect(again.list.files).toEqual({ '/blog/café.html': patched });
    expect(again.list.shared.length).toBe(4);
    expect(again.list.shared[3]).toBe('new text');
    // The whole reading agrees.
    expect(readFileList(file).list.files['/blog/café.html']).toEqual(patched);
  });

  it('is not read in part when the file is not the one the places were noted for', async () => {
    const { text, files, shared } = listText(list);
    await writeFile(file, text);
    const s = statSync(file);
    const wanted = [{ file: '/index.html', place: files.get('/index.html')! }];
    await utimes(file, new Date(), new Date(s.mtimeMs + 5_000));
    expect(readFileListAt(file, { size: s.size, mtimeMs: s.mtimeMs, shared }, wanted)).toBeUndefined();
    expect(readFileListAt(path.join(dir, 'missing.json'), { size: s.size, mtimeMs: s.mtimeMs, shared }, wanted)).toBeUndefined();
  });
});
