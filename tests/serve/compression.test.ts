// site serve sends a page compressed as CloudFront does, so that a page weighs locally (and in the
// Lighthouse gate) what a visitor downloads.
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
  work = await mkdtemp(path.join(tmpdir(), 'site-compression-'));
  dist = path.join(work, 'dist');
  await buildSite({ root: ROOT, outDir: dist });
  headers = parseHeadersFile(await readFile(path.join(deployDirFor(dist), HEADERS_FILE), 'utf8'));
  serve = await startServer({ root: ROOT, outDir: dist, port: 0, host: '127.0.0.1', watch: false, prebuilt: true });
});

afterAll(async () => {
  await serve?.close();
  await rm(work, { recursive: true, force: true });
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

  it('the stylesheet, scripts and the not-found page too; a file under 1,000 bytes and a JPEG as they are', async () => {
    const html = await readFile(path.join(dist, 'services/data-cleaning.html'), 'utf8');
    const runtime = /<script type="module" src="([^"]+)"/.exec(html)?.[1];
    const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1];
    expect([runtime, stylesheet]).toEqual([expect.stringMatching(/^\/assets\/.+\.js$/), expect.stringMatching(/^\/assets\/.+\.css$/)]);
    expect((await get(runtime!, 'br')).headers['content-encoding']).toBe('br');
    const css = await get(stylesheet!, 'gzip, br');
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
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
