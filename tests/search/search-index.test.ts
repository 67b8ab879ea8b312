import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSearch } from '../../src/search/search-index.ts';
import type { PlannedDocument } from '../../src/search/documents.ts';
import { isHashedAsset } from '../../src/url-resolution/cache-control.ts';

const document = (n: number, words: string): PlannedDocument => ({
  url: `/blog/a${n}`, content: words, bodyKey: `key-${n}`, language: 'en',
  meta: { title: `Article ${n}`, date: `2025-01-0${n}` }, filters: { category: [n % 2 ? 'Data' : 'Culture'] }, sort: { date: `2025-01-0${n}` },
});

let cacheDir: string;
beforeAll(async () => { cacheDir = await mkdtemp(path.join(os.tmpdir(), 'site-search-')); });
afterAll(async () => { await rm(cacheDir, { recursive: true, force: true }); });

describe('the search stage', () => {
  it('indexes once, then reuses the index while the documents are unchanged: no body read, no indexer', async () => {
    const planned = [document(1, 'governance in practice'), document(2, 'culture eats strategy')];
    const reads: string[] = [];
    const readBody = async (key: string) => { reads.push(key); return `<p>body of ${key}</p>`; };
    const first = buildSearch(process.cwd(), planned, cacheDir, readBody);
    const built = await first.built;
    expect(built).toMatchObject({ indexed: true, pages: 2 });
    expect(reads.sort()).toEqual(['key-1', 'key-2']);
    const files = [...built.files.keys()];
    expect(files).toEqual(expect.arrayContaining(['/pagefind/pagefind.js', '/pagefind/pagefind-worker.js', '/pagefind/wasm.en.pagefind', '/pagefind/pagefind-entry.json']));
    // Only what a search loads: no packaged UI, no highlighter, no playground.
    expect(files.filter((f) => /ui|highlight|playground|unknown/.test(f))).toEqual([]);
    // Every file is either content-hashed (cached a year) or one of the four fixed names.
    const fixed = files.filter((f) => !isHashedAsset(f.slice(1)));
    expect(fixed.sort()).toEqual(['/pagefind/pagefind-entry.json', '/pagefind/pagefind-worker.js', '/pagefind/pagefind.js', '/pagefind/wasm.en.pagefind']);
    const entry = JSON.parse(await readFile(built.files.get('/pagefind/pagefind-entry.json')!, 'utf8')) as { languages: Record<string, { page_count: number }> };
    expect(entry.languages.en?.page_count).toBe(2);

    reads.length = 0;
    const again = await buildSearch(process.cwd(), planned.map((r) => ({ ...r })), cacheDir, readBody).built;
    expect(again).toMatchObject({ indexed: false, pages: 2, bytes: built.bytes });
    expect(reads).toEqual([]);
    expect(again.files).toEqual(built.files);

    // One document's words changed: indexed afresh.
    const changed = await buildSearch(process.cwd(), [planned[0]!, document(2, 'culture eats strategy for breakfast')], cacheDir, readBody).built;
    expect(changed.indexed).toBe(true);
  });
});
