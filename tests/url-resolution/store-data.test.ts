import { describe, expect, it } from 'vitest';
import type { RoutingTable } from '../../src/url-resolution/resolve.ts';
import { RULES_KEY } from '../../src/url-resolution/rule.ts';
import { checkedStore, parseStoreDataFile, peakSize, STORE_LIMITS, StoreLimitError, storeDataFile, storeEntries, storeProblems, storeSize } from '../../src/url-resolution/store-data.ts';

const table = (over: Partial<RoutingTable> = {}): RoutingTable => ({
  pageUrls: ['/', '/about', '/blog', '/blog/what-is-data'],
  redirects: { '/services/analytics-and-reporting': { to: '/services/data-visualisation', status: 301 } },
  fallbacks: [{ prefix: '/blog/', redirect: '/blog', status: 302 }],
  notFound: '/404.html',
  ...over,
});

describe('the routing table as the store\'s entries', () => {
  it('holds one entry per page and redirect, and the rules, sorted by key', () => {
    expect(storeEntries(table())).toEqual([
      { key: '/', value: 'page' },
      { key: '/about', value: 'page' },
      { key: '/blog', value: 'page' },
      { key: '/blog/what-is-data', value: 'page' },
      { key: '/services/analytics-and-reporting', value: '301 /services/data-visualisation' },
      { key: RULES_KEY, value: '{"notFound":"/404.html","fallbacks":[{"prefix":"/blog/","redirect":"/blog","status":302}]}' },
    ]);
  });

  it('is written in the service\'s import format and read back the same', () => {
    const entries = storeEntries(table());
    const file = storeDataFile(entries);
    expect(JSON.parse(file)).toEqual({ data: entries });
    expect(parseStoreDataFile(file)).toEqual(entries);
    expect(parseStoreDataFile('{"data":[{"key":1}]}')).toBeUndefined();
    expect(parseStoreDataFile('not json')).toBeUndefined();
  });

  it('counts the size as the service does: every key\'s and value\'s bytes', () => {
    expect(storeSize([{ key: '/é', value: 'page' }])).toBe(3 + 4);
  });
});

describe('the store\'s limits, checked at build time', () => {
  it('names each page whose key, and each redirect whose value, is over the limit', () => {
    const long = `/blog/${'a'.repeat(STORE_LIMITS.keyBytes)}`;
    const far = `/${'b'.repeat(STORE_LIMITS.valueBytes)}`;
    const problems = storeProblems(table({ pageUrls: ['/', long], redirects: { '/old': { to: far, status: 301 } } }));
    expect(problems).toEqual([
      `${long.slice(0, 80)}…: its URL is ${long.length} bytes, and the CloudFront KeyValueStore takes keys of at most 512; give it a shorter slug`,
      `/old: its routing entry is ${far.length + 4} bytes, and the CloudFront KeyValueStore takes values of at most 1024; shorten the redirect's target`,
    ]);
  });

  it('takes a key of exactly 512 bytes', () => {
    expect(storeProblems(table({ pageUrls: ['/', `/${'a'.repeat(511)}`] }))).toEqual([]);
  });

  it('refuses more than 5 MB in all, and a path both a page and a redirect', () => {
    const pages = ['/about', ...Array.from({ length: 20_000 }, (_, i) => `/blog/${String(i).padStart(5, '0')}-${'x'.repeat(250)}`)];
    const problems = storeProblems(table({ pageUrls: pages, redirects: { '/about': { to: '/', status: 301 } } }));
    expect(problems[0]).toBe('/about: is both a page and a redirect (to /); remove the redirect or the page');
    expect(problems[1]).toMatch(/^the routing entries of 20001 pages and 1 redirects come to \d+ bytes with the deploy's note of paths to invalidate \(1044 bytes at most\), and a CloudFront KeyValueStore holds at most 5242880$/);
    expect(() => checkedStore(table({ pageUrls: pages }))).toThrow(StoreLimitError);
  });

  it('counts the deploy\'s note of paths to invalidate (its key and a value of up to 1 KB) in the 5 MB', () => {
    const base = storeSize(storeEntries(table()));
    // Pages of 500-byte URLs (504 bytes an entry with its value, 'page'), and one more taking up what is left of 5 MB.
    const pages = (n: number) => Array.from({ length: n }, (_, i) => `/${String(i).padStart(6, '0')}${'x'.repeat(493)}`);
    const n = Math.floor((5 * 1024 * 1024 - base) / 504);
    const left = 5 * 1024 * 1024 - base - n * 504;
    const full = table({ pageUrls: [...table().pageUrls, ...pages(n), `/${'y'.repeat(left - 5)}`] });
    // Exactly 5 MB with the entries alone: the note would not fit.
    expect(storeSize(storeEntries(full))).toBe(5 * 1024 * 1024);
    expect(storeProblems(full).join('\n')).toMatch(/with the deploy's note of paths to invalidate/);
    // Three pages (1,512 bytes) fewer, and it fits with the note.
    const fits = table({ pageUrls: [...table().pageUrls, ...pages(n - 3)] });
    expect(storeProblems(fits)).toEqual([]);
  });

  it('gives the figures of a store within its limits', () => {
    const { entries, figures } = checkedStore(table());
    expect(figures).toEqual({ keys: entries.length, bytes: storeSize(entries), limit: 5 * 1024 * 1024 });
  });
});

describe('the store at its largest during a deploy', () => {
  it('a build that would fit alone, but not beside the last build\'s keys while the deploy swaps them, is refused in one line', () => {
    // About 2.7 MB of redirects, renamed wholesale: the deploy holds the old and the new at once.
    const redirects = (stem: string) => Object.fromEntries(Array.from({ length: 2600 }, (_, i) => [`/${stem}/${String(i).padStart(4, '0')}`, { to: `/${'t'.repeat(1000)}`, status: 301 as const }]));
    const before = storeEntries(table({ redirects: redirects('old') }));
    const after = table({ redirects: redirects('new') });
    expect(storeProblems(after)).toEqual([]);
    expect(checkedStore(after, storeEntries(after)).figures.keys).toBe(2605);
    const error = (() => { try { checkedStore(after, before); } catch (e) { return e; } })();
    expect(error).toBeInstanceOf(StoreLimitError);
    expect((error as StoreLimitError).problems).toHaveLength(1);
    expect((error as StoreLimitError).problems[0]).toMatch(/^the routing entries come to \d+ bytes, but a deploy over the last build's entries holds the old keys and the new together until it takes the old ones out: \d+ bytes, and a CloudFront KeyValueStore holds at most 5242880; deploy the renamed URLs in two steps/);
    expect(peakSize(before, storeEntries(after))).toBeGreaterThan(STORE_LIMITS.totalBytes);
  });
});
