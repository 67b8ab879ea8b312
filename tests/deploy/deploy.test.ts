// `site deploy` against s3rver through the real S3 client, with CloudFront's invalidation API
// faked on 127.0.0.1: a first deploy, one changed page, a removed page, and a dry run.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cloudFrontInvalidator } from '../../src/deploy/cdn.ts';
import { deploy, DeployError } from '../../src/deploy/deploy.ts';
import { LIVE_RELOAD_TAG } from '../../src/serve/live-reload.ts';
import { startFakeCloudFront, type FakeCloudFront } from './fake-cloudfront.ts';
import { sealFolder } from './seal-folder.ts';
import { SEAL_FILE } from '../../src/output/seal.ts';
import { startLocalS3, type LocalS3 } from './local-s3.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';
const page = (title: string, assets: string[]) =>
  `<!doctype html><html lang="en-GB"><title>${title}</title>${assets.map((a) => `<script type="module" src="/${a}"></script>`).join('')}<h1>${title}</h1></html>\n`;

/** A small build: pages with pretty URLs, hashed assets, and the unhashed files every build has. */
const FIRST: Record<string, string> = {
  'index.html': page('Home', ['assets/runtime-AB12CD34.js']),
  '404.html': page('Page not found', []),
  'about.html': page('About', ['assets/runtime-AB12CD34.js', 'assets/about-EF56GH78.js']),
  'blog.html': page('Insights', []),
  'blog/what-is-data.html': page('What is data?', []),
  'blog/feed.xml': '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>Insights</title></feed>\n',
  'assets/runtime-AB12CD34.js': 'export const run = 1;\n',
  'assets/about-EF56GH78.js': 'export const about = 1;\n',
  'assets/site-7NOAKD3I.css': 'body{margin:0}\n',
  'assets/images/logo-65b7ea6382.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n',
  'robots.txt': 'User-agent: *\nAllow: /\n',
  'sitemap.xml': '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n',
};

const EXPECTED_HEADERS: Record<string, [string, string]> = {
  'index.html': ['text/html; charset=utf-8', REVALIDATE],
  '404.html': ['text/html; charset=utf-8', REVALIDATE],
  'about.html': ['text/html; charset=utf-8', REVALIDATE],
  'blog.html': ['text/html; charset=utf-8', REVALIDATE],
  'blog/what-is-data.html': ['text/html; charset=utf-8', REVALIDATE],
  'blog/feed.xml': ['application/atom+xml; charset=utf-8', REVALIDATE],
  'assets/runtime-AB12CD34.js': ['text/javascript; charset=utf-8', IMMUTABLE],
  'assets/about-EF56GH78.js': ['text/javascript; charset=utf-8', IMMUTABLE],
  'assets/site-7NOAKD3I.css': ['text/css; charset=utf-8', IMMUTABLE],
  'assets/images/logo-65b7ea6382.svg': ['image/svg+xml', IMMUTABLE],
  'robots.txt': ['text/plain; charset=utf-8', REVALIDATE],
  'sitemap.xml': ['application/xml; charset=utf-8', REVALIDATE],
};

let s3: LocalS3;
let cdn: FakeCloudFront;
let work: string;

async function writeBuild(dir: string, files: Record<string, string>) {
  await rm(dir, { recursive: true, force: true });
  for (const [key, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, key)), { recursive: true });
    await writeFile(path.join(dir, key), body);
  }
  await sealFolder(dir);
}

async function bucketContents(bucket: string): Promise<Record<string, string>> {
  const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket }));
  const out: Record<string, string> = {};
  for (const item of listed.Contents ?? []) {
    const got = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: item.Key! }));
    out[item.Key!] = await got.Body!.transformToString();
  }
  return out;
}

beforeAll(async () => {
  s3 = await startLocalS3(['site', 'dry', 'prefixed', 'layout', 'switch']);
  cdn = await startFakeCloudFront();
  work = await mkdtemp(path.join(tmpdir(), 'site-deploy-'));
});
afterAll(async () => {
  await s3.close();
  await cdn.close();
  await rm(work, { recursive: true, force: true });
});

describe('site deploy to an S3-compatible bucket', () => {
  const dist = () => path.join(work, 'dist');
  const run = (extra: Partial<Parameters<typeof deploy>[0]> = {}) =>
    deploy({ dir: dist(), bucket: 'site', distributionId: 'EDFDVBD6EXAMPLE', s3: s3.client, cdn: cloudFrontInvalidator(cdn.client), ...extra });

  test('the first deploy uploads every file with its Content-Type and Cache-Control', async () => {
    await writeBuild(dist(), FIRST);
    const result = await run();

    expect(result.plan.uploads.map((u) => u.reason)).toEqual(Object.keys(FIRST).map(() => 'new'));
    expect(await bucketContents('site')).toEqual(FIRST);
    for (const [key, [type, cache]] of Object.entries(EXPECTED_HEADERS)) {
      const head = await s3.client.send(new HeadObjectCommand({ Bucket: 'site', Key: key }));
      expect([key, head.ContentType, head.CacheControl]).toEqual([key, type, cache]);
      expect(head.Metadata?.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    // Every page was new to the edge; hashed assets need no invalidation.
    expect(cdn.requests.at(-1)?.distributionId).toBe('EDFDVBD6EXAMPLE');
    expect(cdn.requests.at(-1)?.paths).toEqual(result.invalidation.paths);
    expect(result.invalidation.paths).toContain('/about');
    expect(result.invalidation.paths).not.toContain('/assets/runtime-AB12CD34.js');
  });

  test('HTML is uploaded after the assets it links to', async () => {
    const result = await run({ force: true });
    const keys = result.plan.uploads.map((u) => u.file.key);
    const firstHtml = keys.findIndex((k) => k.endsWith('.html'));
    expect(keys.slice(firstHtml).every((k) => k.endsWith('.html'))).toBe(true);
    expect(keys.slice(0, firstHtml)).toContain('assets/about-EF56GH78.js');
  });

  test('a second deploy with one changed page uploads only it and its new asset, and invalidates only it', async () => {
    const before = cdn.requests.length;
    const changed = { ...FIRST, 'about.html': page('About us', ['assets/runtime-AB12CD34.js', 'assets/about-QR90ST12.js']), 'assets/about-QR90ST12.js': 'export const about = 2;\n' };
    delete (changed as Record<string, string>)['assets/about-EF56GH78.js'];
    await writeBuild(dist(), changed);

    const result = await run();
    expect(result.plan.uploads.map((u) => [u.file.key, u.reason])).toEqual([
      ['assets/about-QR90ST12.js', 'new'],
      ['about.html', 'changed'],
    ]);
    expect(result.plan.deletes).toEqual(['assets/about-EF56GH78.js']);
    expect(await bucketContents('site')).toEqual(changed);
    expect(cdn.requests.length).toBe(before + 1);
    expect(cdn.requests.at(-1)?.paths).toEqual(['/about', '/about.html']);
  });

  test('a page removed from the build is deleted from the bucket and invalidated', async () => {
    const current = await bucketContents('site');
    const next = { ...current };
    delete next['blog/what-is-data.html'];
    await writeBuild(dist(), next);

    const result = await run();
    expect(result.plan.uploads).toEqual([]);
    expect(result.plan.deletes).toEqual(['blog/what-is-data.html']);
    expect(Object.keys(await bucketContents('site')).sort()).toEqual(Object.keys(next).sort());
    expect(cdn.requests.at(-1)?.paths).toEqual(['/blog/what-is-data', '/blog/what-is-data.html']);
  });

  test('an unchanged build uploads, deletes and invalidates nothing', async () => {
    const before = cdn.requests.length;
    const result = await run();
    expect(result.plan.uploads).toEqual([]);
    expect(result.plan.deletes).toEqual([]);
    expect(result.invalidation.paths).toEqual([]);
    expect(cdn.requests.length).toBe(before);
  });

  test('--dry-run plans against the bucket and changes nothing', async () => {
    await writeBuild(dist(), FIRST);
    await run({ bucket: 'dry' });
    await writeBuild(dist(), { ...FIRST, 'index.html': page('Home, new', []), 'contact.html': page('Contact', []) });
    const stored = await bucketContents('dry');
    const requests = cdn.requests.length;

    const result = await run({ bucket: 'dry', dryRun: true });
    expect(result.dryRun).toBe(true);
    expect(result.plan.uploads.map((u) => [u.file.key, u.reason])).toEqual([['contact.html', 'new'], ['index.html', 'changed']]);
    expect(result.invalidation.paths).toEqual(['/', '/contact', '/contact.html', '/index.html']);
    expect(await bucketContents('dry')).toEqual(stored);
    expect(cdn.requests.length).toBe(requests);
  });

  test('a prefix keeps the deploy, and its deletions, inside that folder of the bucket', async () => {
    await writeBuild(dist(), FIRST);
    await run({ bucket: 'prefixed', prefix: '/staging/' });
    await run({ bucket: 'prefixed', prefix: 'preview' });
    const keys = Object.keys(await bucketContents('prefixed')).sort();
    expect(keys).toEqual([...Object.keys(FIRST).map((k) => `staging/${k}`), ...Object.keys(FIRST).map((k) => `preview/${k}`)].sort());

    await writeBuild(dist(), { ...FIRST, 'robots.txt': 'User-agent: *\nDisallow: /\n' });
    const result = await run({ bucket: 'prefixed', prefix: 'preview' });
    expect(result.plan.uploads.map((u) => u.file.key)).toEqual(['robots.txt']);
    expect(result.plan.deletes).toEqual([]);
    expect(cdn.requests.at(-1)?.paths).toEqual(['/robots.txt']);
  });

  test('the first deploy of the file-per-page layout, over a bucket in the old folder layout, leaves only the new keys and tells the CDN about both', async () => {
    // What builds used to write: every page but the home page as <url>/index.html.
    const folders = Object.fromEntries(Object.entries(FIRST).map(([key, body]) =>
      [key.endsWith('.html') && key !== 'index.html' && key !== '404.html' ? `${key.slice(0, -'.html'.length)}/index.html` : key, body]));
    expect(Object.keys(folders)).toContain('blog/what-is-data/index.html');
    await writeBuild(dist(), folders);
    await run({ bucket: 'layout' });
    expect(await bucketContents('layout')).toEqual(folders);

    await writeBuild(dist(), FIRST);
    const result = await run({ bucket: 'layout' });
    expect(result.plan.uploads.map((u) => [u.file.key, u.reason])).toEqual([['about.html', 'new'], ['blog.html', 'new'], ['blog/what-is-data.html', 'new']]);
    expect(result.plan.deletes).toEqual(['about/index.html', 'blog/index.html', 'blog/what-is-data/index.html']);
    expect(await bucketContents('layout')).toEqual(FIRST);
    // The new files, and the old ones the edge may still hold: the URLs are the same.
    expect(cdn.requests.at(-1)?.paths).toEqual([
      '/about', '/about.html', '/about/index.html', '/blog', '/blog.html', '/blog/index.html',
      '/blog/what-is-data', '/blog/what-is-data.html', '/blog/what-is-data/index.html',
    ]);
  });

  test('--keep-stale puts the new files up beside the old ones and deletes nothing; the next deploy deletes them', async () => {
    const folders = Object.fromEntries(Object.entries(FIRST).map(([key, body]) =>
      [key.endsWith('.html') && key !== 'index.html' && key !== '404.html' ? `${key.slice(0, -'.html'.length)}/index.html` : key, body]));
    await writeBuild(dist(), folders);
    await run({ bucket: 'switch' });
    await writeBuild(dist(), FIRST);

    const kept = await run({ bucket: 'switch', keepStale: true });
    expect(kept.plan.deletes).toEqual([]);
    expect(kept.plan.kept).toEqual(['about/index.html', 'blog/index.html', 'blog/what-is-data/index.html']);
    // Both layouts answer: the routing of either finds its file.
    expect(await bucketContents('switch')).toEqual({ ...folders, ...FIRST });
    // The old files are as they were: only the new ones are news to the edge.
    expect(kept.invalidation.paths).toEqual(['/about', '/about.html', '/blog', '/blog.html', '/blog/what-is-data', '/blog/what-is-data.html']);

    const next = await run({ bucket: 'switch' });
    expect(next.plan.uploads).toEqual([]);
    expect(next.plan.deletes).toEqual(['about/index.html', 'blog/index.html', 'blog/what-is-data/index.html']);
    expect(await bucketContents('switch')).toEqual(FIRST);
    expect(next.invalidation.paths).toEqual(['/about', '/about/index.html', '/blog', '/blog/index.html', '/blog/what-is-data', '/blog/what-is-data/index.html']);
  });

  test('a folder that is not a build is refused before anything is listed or deleted', async () => {
    const empty = path.join(work, 'empty');
    await mkdir(empty, { recursive: true });
    const before = await bucketContents('site');
    await expect(run({ dir: empty })).rejects.toThrow(DeployError);
    await expect(run({ dir: empty })).rejects.toThrow(/index\.html is missing/);
    expect(await bucketContents('site')).toEqual(before);
  });

  test('a folder whose pages carry site serve\'s live-reload script is refused, with one line saying so, before the bucket is touched', async () => {
    // A client that fails any request: the refusal must come first.
    const untouched = { send: () => Promise.reject(new Error('the bucket was asked')) } as unknown as S3Client;
    const dev = Object.fromEntries(Object.entries(FIRST).map(([key, body]) => [key, key.endsWith('.html') ? body.replace('<title>', `${LIVE_RELOAD_TAG}<title>`) : body]));
    await writeBuild(dist(), dev);
    for (const dryRun of [false, true]) {
      const refused = await run({ dryRun, s3: untouched }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DeployError);
      expect((refused as Error).message).toBe(`404.html and 4 other pages in ${dist()} carry the development markup of \`site serve\` (its live-reload script): deploy the output of \`site build\` instead`);
    }
    // One such page is enough to refuse the whole folder.
    await writeBuild(dist(), { ...FIRST, 'about.html': dev['about.html']! });
    await expect(run({ s3: untouched })).rejects.toThrow(/^about\.html in .* carries the development markup of `site serve`/);
    // The same build without it goes up.
    await writeBuild(dist(), FIRST);
    await expect(run()).resolves.toMatchObject({ dryRun: false });
  });

  test('a folder no complete build produced is refused with one line, before the bucket is asked anything', async () => {
    const untouched = { send: () => Promise.reject(new Error('the bucket was asked')) } as unknown as S3Client;
    await writeBuild(dist(), FIRST);
    await rm(path.join(dist(), SEAL_FILE));
    for (const dryRun of [false, true]) {
      const refused = await run({ dryRun, s3: untouched }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DeployError);
      expect((refused as Error).message).toBe(`${dist()} has no .site-build.json, so no complete \`site build\` made it (a build that fails or is stopped leaves none): run \`site build\` and deploy its output`);
    }
    // A manifest edited by hand (its list no longer matches its digest) proves nothing either.
    await writeBuild(dist(), FIRST);
    const seal = JSON.parse(await readFile(path.join(dist(), SEAL_FILE), 'utf8')) as { list: Array<[string, number, string]> };
    seal.list.push(['extra.html', 1, 'a'.repeat(64)]);
    await writeFile(path.join(dist(), SEAL_FILE), JSON.stringify(seal));
    await expect(run({ s3: untouched })).rejects.toThrow(/\.site-build\.json is damaged: run `site build` again$/);
  });

  test('a build changed by hand after it was made is refused, naming the file, before the bucket is asked anything', async () => {
    const untouched = { send: () => Promise.reject(new Error('the bucket was asked')) } as unknown as S3Client;
    const refusal = async (damage: () => Promise<void>) => {
      await writeBuild(dist(), FIRST);
      await damage();
      const refused = await run({ dryRun: true, s3: untouched }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DeployError);
      return (refused as Error).message;
    };
    const about = path.join(dist(), 'about.html');
    expect(await refusal(() => rm(about))).toMatch(/^about\.html is missing from .* \(11 of the 12 files the build wrote are there\): the folder has changed since build \S+ made it: run `site build` again$/);
    expect(await refusal(() => writeFile(path.join(dist(), 'stray.html'), '<p>left here</p>'))).toMatch(/^stray\.html in .* was not written by the build: the folder has changed since build/);
    expect(await refusal(async () => writeFile(about, (await readFile(about, 'utf8')).slice(0, 10)))).toMatch(new RegExp(`^about\\.html in .* is 10 bytes, the build wrote ${Buffer.byteLength(FIRST['about.html']!)} bytes: the folder has changed since build`));
    // Same size, other bytes.
    expect(await refusal(async () => writeFile(about, (await readFile(about, 'utf8')).replace('About', 'Abuot')))).toMatch(/^about\.html in .* is not what the build wrote/);
    // Untouched, it goes up.
    await writeBuild(dist(), FIRST);
    await expect(run()).resolves.toMatchObject({ dryRun: false });
  });

  test('the uploaded bytes are the built bytes, binary included', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 128, 10, 13]);
    await writeBuild(dist(), FIRST);
    await writeFile(path.join(dist(), 'assets/images/og-5e4ce06203.png'), png);
    await sealFolder(dist());
    await run();
    const got = await s3.client.send(new GetObjectCommand({ Bucket: 'site', Key: 'assets/images/og-5e4ce06203.png' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(png)).toBe(true);
    expect(got.ContentType).toBe('image/png');
    expect(await readFile(path.join(dist(), 'assets/images/og-5e4ce06203.png'))).toEqual(png);
  });
});
