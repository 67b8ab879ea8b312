// The deploy's decisions without a bucket: headers per file, what counts as changed, which paths
// CloudFront must forget, and how listing copes with many objects and non-MD5 ETags.
import { HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { describe, expect, test } from 'vitest';
import { listRemote } from '../../src/deploy/bucket.ts';
import { cacheControl, IMMUTABLE, REVALIDATE } from '../../src/url-resolution/cache-control.ts';
import { contentType } from '../../src/deploy/content-type.ts';
import { invalidationPaths, MAX_INVALIDATION_PATHS } from '../../src/deploy/invalidation.ts';
import type { LocalFile } from '../../src/deploy/local-files.ts';
import { planDeploy, type RemoteObject } from '../../src/deploy/plan.ts';

const file = (key: string, md5 = 'a'.repeat(32), size = 10): LocalFile => ({
  key, absolutePath: `/x/${key}`, size, md5, sha256: 'b'.repeat(64), contentType: contentType(key), cacheControl: cacheControl(key),
});

describe('Cache-Control', () => {
  test.each([
    ['assets/runtime-RK5NGXI5.js', IMMUTABLE],
    ['assets/chunks/chunk-5DKC4DDV.js', IMMUTABLE],
    ['assets/site-7NOAKD3I.css', IMMUTABLE],
    ['assets/images/logo-65b7ea6382.svg', IMMUTABLE],
    // A share card is named by what it shows: a new card, a new name.
    ['og/blog-what-is-data-b6c24daaff22.png', IMMUTABLE],
    ['index.html', REVALIDATE],
    ['about.html', REVALIDATE],
    ['404.html', REVALIDATE],
    ['sitemap.xml', REVALIDATE],
    ['robots.txt', REVALIDATE],
    // Not hashed, so it may change under the same name even inside assets/.
    ['assets/favicon.ico', REVALIDATE],
    // Hash-like, but outside assets/ and og/: only the build's own folders hold hashed names.
    ['downloads/report-ABCDEFGH.pdf', REVALIDATE],
    // The search index: its data files are named by their content; its loader, worker, WebAssembly
    // and entry file keep their names and say which data files are current.
    ['pagefind/pagefind.en_b67cd1e53f.pf_meta', IMMUTABLE],
    ['pagefind/fragment/en_a34e996.pf_fragment', IMMUTABLE],
    ['pagefind/index/en_67efb1f.pf_index', IMMUTABLE],
    ['pagefind/filter/en_6ff486d.pf_filter', IMMUTABLE],
    ['pagefind/pagefind.js', REVALIDATE],
    ['pagefind/pagefind-worker.js', REVALIDATE],
    ['pagefind/wasm.en.pagefind', REVALIDATE],
    ['pagefind/pagefind-entry.json', REVALIDATE],
  ])('%s → %s', (key, expected) => {
    expect(cacheControl(key)).toBe(expected);
  });
});

describe('Content-Type', () => {
  test.each([
    ['about.html', 'text/html; charset=utf-8'],
    ['assets/site-7NOAKD3I.css', 'text/css; charset=utf-8'],
    ['assets/runtime-RK5NGXI5.js', 'text/javascript; charset=utf-8'],
    ['assets/images/logo-65b7ea6382.svg', 'image/svg+xml'],
    ['assets/images/og-default-5e4ce06203.png', 'image/png'],
    ['assets/images/photo-0123456789.JPG', 'image/jpeg'],
    ['assets/fonts/inter-0123456789.woff2', 'font/woff2'],
    ['robots.txt', 'text/plain; charset=utf-8'],
    ['site.webmanifest', 'application/manifest+json; charset=utf-8'],
    ['mystery.bin', 'application/octet-stream'],
  ])('%s → %s', (key, expected) => {
    expect(contentType(key)).toBe(expected);
  });

  test('an XML file is typed by its root element', () => {
    const xml = (s: string) => new TextEncoder().encode(`<?xml version="1.0" encoding="utf-8"?>\n${s}`);
    expect(contentType('blog/feed.xml', xml('<feed xmlns="http://www.w3.org/2005/Atom">'))).toBe('application/atom+xml; charset=utf-8');
    expect(contentType('rss.xml', xml('<rss version="2.0">'))).toBe('application/rss+xml; charset=utf-8');
    expect(contentType('sitemap.xml', xml('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'))).toBe('application/xml; charset=utf-8');
  });
});

describe('planDeploy', () => {
  const remote = (...objects: RemoteObject[]) => new Map(objects.map((o) => [o.key, o]));

  test('uploads content-hashed files first, then the files that name them (the search index entry), then the HTML', () => {
    const plan = planDeploy([
      file('search.html'), file('pagefind/pagefind-entry.json'), file('pagefind/pagefind.js'),
      file('pagefind/pagefind.en_b67cd1e53f.pf_meta'), file('pagefind/index/en_67efb1f.pf_index'), file('assets/a-ABCDEFGH.js'),
    ], remote());
    expect(plan.uploads.map((u) => u.file.key)).toEqual([
      'pagefind/pagefind.en_b67cd1e53f.pf_meta', 'pagefind/index/en_67efb1f.pf_index', 'assets/a-ABCDEFGH.js',
      'pagefind/pagefind-entry.json', 'pagefind/pagefind.js', 'search.html',
    ]);
  });

  test('new, changed (by MD5 or by size), unchanged and stale files', () => {
    const plan = planDeploy(
      [file('index.html', '1'.repeat(32)), file('about.html', '2'.repeat(32)), file('assets/a-ABCDEFGH.js', '3'.repeat(32)), file('robots.txt', '4'.repeat(32), 5)],
      remote(
        { key: 'index.html', size: 10, etag: '1'.repeat(32) },
        { key: 'about.html', size: 10, etag: '9'.repeat(32) },
        { key: 'robots.txt', size: 6, etag: '4'.repeat(32) },
        { key: 'old.html', size: 3, etag: '5'.repeat(32) },
      ),
    );
    expect(plan.uploads.map((u) => [u.file.key, u.reason])).toEqual([
      ['assets/a-ABCDEFGH.js', 'new'],
      ['robots.txt', 'changed'],
      ['about.html', 'changed'],
    ]);
    expect(plan.unchanged.map((f) => f.key)).toEqual(['index.html']);
    expect(plan.deletes).toEqual(['old.html']);
  });

  test('a bucket in the old folder layout: the new files go up, the old pages are deleted after them, the home page and 404 stay', () => {
    const plan = planDeploy(
      [file('index.html'), file('404.html'), file('about.html'), file('blog.html'), file('blog/what-is-data.html')],
      remote(
        { key: 'index.html', size: 10, etag: 'a'.repeat(32) },
        { key: '404.html', size: 10, etag: 'a'.repeat(32) },
        { key: 'about/index.html', size: 10, etag: 'a'.repeat(32) },
        { key: 'blog/index.html', size: 10, etag: 'a'.repeat(32) },
        { key: 'blog/what-is-data/index.html', size: 10, etag: 'a'.repeat(32) },
      ),
    );
    expect(plan.uploads.map((u) => [u.file.key, u.reason])).toEqual([['about.html', 'new'], ['blog.html', 'new'], ['blog/what-is-data.html', 'new']]);
    expect(plan.unchanged.map((f) => f.key)).toEqual(['index.html', '404.html']);
    expect(plan.deletes).toEqual(['about/index.html', 'blog/index.html', 'blog/what-is-data/index.html']);
  });

  test('never deletes a share card: social sites fetch an old post\'s og:image long after the page has moved on', () => {
    const plan = planDeploy([file('index.html'), file('og/home-bbbbbbbbbbbb.png')], remote(
      { key: 'og/home-aaaaaaaaaaaa.png', size: 10, etag: '1'.repeat(32) },
      { key: 'assets/old-ABCDEFGH.js', size: 10, etag: '2'.repeat(32) },
    ));
    expect(plan.deletes).toEqual(['assets/old-ABCDEFGH.js']);
    expect(plan.uploads.map((u) => u.file.key)).toEqual(['og/home-bbbbbbbbbbbb.png', 'index.html']);
  });

  test('an ETag that is not an MD5 (multipart, KMS) is judged by the stored sha256', () => {
    const local = [file('a.txt'), file('b.txt')];
    const plan = planDeploy(local, remote(
      { key: 'a.txt', size: 10, etag: 'c'.repeat(32) + '-2', sha256: 'b'.repeat(64) },
      { key: 'b.txt', size: 10, etag: 'c'.repeat(32) + '-2' },
    ));
    expect(plan.unchanged.map((f) => f.key)).toEqual(['a.txt']);
    expect(plan.uploads.map((u) => u.file.key)).toEqual(['b.txt']);
  });

  test('force uploads unchanged files too', () => {
    const plan = planDeploy([file('index.html')], remote({ key: 'index.html', size: 10, etag: 'a'.repeat(32) }), { force: true });
    expect(plan.uploads.map((u) => u.reason)).toEqual(['forced']);
  });
});

describe('invalidationPaths', () => {
  test('a page invalidates its pretty URL and its file; the home page / and /index.html', () => {
    expect(invalidationPaths(['about.html', 'index.html', 'blog/page/2.html'])).toEqual(
      ['/', '/about', '/about.html', '/blog/page/2', '/blog/page/2.html', '/index.html'],
    );
  });

  test('a key of the old folder layout, deleted by the first deploy of the new one, invalidates its URL and its file', () => {
    expect(invalidationPaths(['about.html', 'about/index.html', 'blog/what-is-data.html', 'blog/what-is-data/index.html'])).toEqual(
      ['/about', '/about.html', '/about/index.html', '/blog/what-is-data', '/blog/what-is-data.html', '/blog/what-is-data/index.html'],
    );
  });

  test('an error page is invalidated at its own name only', () => {
    expect(invalidationPaths(['404.html', 'case-studies/404.html'])).toEqual(['/404.html', '/case-studies/404.html']);
  });

  test('unhashed files are invalidated by their path, hashed assets not at all', () => {
    expect(invalidationPaths(['robots.txt', '404.html', 'assets/runtime-RK5NGXI5.js', 'assets/images/logo-65b7ea6382.svg'])).toEqual(['/404.html', '/robots.txt']);
  });

  test('paths are URL-encoded as CloudFront expects', () => {
    expect(invalidationPaths(['files/annual report.pdf'])).toEqual(['/files/annual%20report.pdf']);
  });

  test('past the cap, one wildcard replaces the list', () => {
    const pages = Array.from({ length: MAX_INVALIDATION_PATHS }, (_, i) => `p${i}.html`);
    expect(invalidationPaths(pages.slice(0, MAX_INVALIDATION_PATHS / 2))).toHaveLength(MAX_INVALIDATION_PATHS);
    expect(invalidationPaths(pages)).toEqual(['/*']);
  });

  test('nothing changed, nothing to invalidate', () => {
    expect(invalidationPaths([])).toEqual([]);
  });
});

describe('listRemote', () => {
  // s3rver's continuation tokens use DES, which Node 20's OpenSSL 3 no longer offers, so paging
  // is checked against a scripted client instead.
  test('follows continuation tokens, strips the prefix, and reads sha256 where the ETag is not an MD5', async () => {
    const sent: Array<{ name: string; input: Record<string, unknown> }> = [];
    const pages = [
      { Contents: [{ Key: 'live/a.html', Size: 1, ETag: `"${'1'.repeat(32)}"` }, { Key: 'live/', Size: 0, ETag: '"x"' }], IsTruncated: true, NextContinuationToken: 't1' },
      { Contents: [{ Key: 'live/big.bin', Size: 9, ETag: `"${'2'.repeat(32)}-3"` }], IsTruncated: false },
    ];
    const client = {
      send: async (command: ListObjectsV2Command | HeadObjectCommand) => {
        sent.push({ name: command.constructor.name, input: command.input as unknown as Record<string, unknown> });
        if (command instanceof HeadObjectCommand) return { Metadata: { sha256: 'f'.repeat(64) } };
        return pages.shift();
      },
    } as unknown as S3Client;

    const objects = await listRemote(client, 'bucket', 'live/');
    expect([...objects.values()]).toEqual([
      { key: 'a.html', size: 1, etag: '1'.repeat(32) },
      { key: 'big.bin', size: 9, etag: `${'2'.repeat(32)}-3`, sha256: 'f'.repeat(64) },
    ]);
    expect(sent.map((s) => [s.name, s.input.ContinuationToken ?? s.input.Key])).toEqual([
      ['ListObjectsV2Command', undefined],
      ['ListObjectsV2Command', 't1'],
      ['HeadObjectCommand', 'live/big.bin'],
    ]);
  });
});
