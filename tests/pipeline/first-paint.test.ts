// What a page's first paint needs arrives with the page: the stylesheet inline (allowed by its hash,
// never by 'unsafe-inline'), and the page compressed as CloudFront sends it, also by `site serve`.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { deployDirFor } from '../../src/output/layout.ts';
import { HEADERS_FILE, headersFor, parseHeadersFile, type HeadersFile } from '../../src/response-headers.ts';
import { startServer, type RunningServer } from '../../src/serve/server.ts';

const ROOT = path.resolve('.');
let work: string;
let dist: string;
let headers: HeadersFile;
let serve: RunningServer;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'site-first-paint-'));
  dist = path.join(work, 'dist');
  await buildSite({ root: ROOT, outDir: dist });
  headers = parseHeadersFile(await readFile(path.join(deployDirFor(dist), HEADERS_FILE), 'utf8'));
  serve = await startServer({ root: ROOT, outDir: dist, port: 0, host: '127.0.0.1', watch: false, prebuilt: true });
}, 120_000);

afterAll(async () => {
  await serve?.close();
  await rm(work, { recursive: true, force: true });
});

/** The HTML files of a build, by their path in it. */
async function listHtml(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

describe('the stylesheet travels in each page', () => {
  it('every page carries the same <style>, whose hash alone the policy allows; no page fetches a stylesheet', async () => {
    const pages = (await listHtml(dist)).filter((file) => !file.startsWith('admin/'));
    expect(pages.length).toBeGreaterThan(30);
    const styles = new Set<string>();
    for (const file of pages) {
      const html = await readFile(path.join(dist, file), 'utf8');
      const head = html.slice(0, html.indexOf('</head>'));
      const found = [...head.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
      expect(found, file).toHaveLength(1);
      expect(html, file).not.toMatch(/<link[^>]+rel="stylesheet"|\sstyle="/);
      styles.add(found[0]!);
    }
    expect(styles.size).toBe(1);
    const [css] = [...styles];
    expect(css).toContain('body{');
    const styleSrc = /(?:^|; )style-src ([^;]*)/.exec(headers.default['content-security-policy']!)![1];
    expect(styleSrc).toBe(`'self' 'sha256-${sha256(css!)}'`);
  });
});

/** One GET with `accept-encoding`: the status, the headers and the body as sent. */
function get(pathname: string, acceptEncoding?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(`${serve.url}${pathname}`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('site serve compresses as the CDN does', () => {
  it('a page: Brotli when the browser takes it, else gzip, else as it is; the same page each way, with its own headers', async () => {
    const plain = await get('/services/data-cleaning');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get('/services/data-cleaning', 'gzip, deflate, br, zstd');
    const gzip = await get('/services/data-cleaning', 'gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    for (const answer of [br, gzip]) {
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.headers['content-security-policy']).toBe(headersFor(headers, '/services/data-cleaning')['content-security-policy']);
    }
  });

  it('scripts and the not-found page too; a file under 1,000 bytes and a JPEG as they are', async () => {
    const html = await readFile(path.join(dist, 'services/data-cleaning.html'), 'utf8');
    const runtime = /<script type="module" src="([^"]+)"/.exec(html)?.[1];
    expect(runtime).toBeDefined();
    expect((await get(runtime!, 'br')).headers['content-encoding']).toBe('br');
    const missing = await get('/no-such-page', 'gzip');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBe('gzip');
    const robots = await get('/robots.txt', 'gzip, br');
    expect(robots.body.length).toBeLessThan(1000);
    expect(robots.headers['content-encoding']).toBeUndefined();
    const jpeg = (await readdir(path.join(dist, 'assets/images'))).find((name) => name.endsWith('.jpg'));
    const photo = await get(`/assets/images/${jpeg}`, 'gzip, br');
    expect(photo.status).toBe(200);
    expect(photo.headers['content-encoding']).toBeUndefined();
  });
});
