// The CloudFront Functions the build emits, run as CloudFront runs them: scripts under 10 KB that
// import nothing but the runtime's `cloudfront` module, called with CloudFront's event shape and
// reading the build's routing entries from a stand-in of the KeyValueStore. Their answers, with S3
// and the distribution's error responses emulated around them, must be site serve's answers.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { resolve, type RoutingTable } from '../../src/url-resolution/resolve.ts';
import { viewerRequestFunction, viewerResponseFunction } from '../../src/url-resolution/cloudfront-functions.ts';
import { parseStoreDataFile, STORE_DATA_FILE, storeDataFile, storeEntries, storeProblems } from '../../src/url-resolution/store-data.ts';
import { startServer, type RunningServer } from '../../src/serve/server.ts';
import { loadFunction, standInStore, type CfRequest, type CfResponse, type Handler, type StandInStore, type Value } from '../url-resolution/cloudfront-runtime.ts';
import { deployDirFor } from '../../src/output/layout.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SIZE_LIMIT = 10 * 1024;

let work: string;
let dist: string;
let table: RoutingTable;
let source: { request: string; response: string };
let viewerRequest: Handler;
let viewerResponse: Handler;
let serve: RunningServer;
let store: StandInStore;

/** CloudFront's querystring object: one field per name, repeats in multiValue, values as sent. */
function querystring(search: string): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const pair of search.replace(/^\?/, '').split('&').filter(Boolean)) {
    const eq = pair.indexOf('=');
    const [name, value] = eq === -1 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    const existing = out[name];
    if (!existing) out[name] = { value };
    else out[name] = { value: existing.value, multiValue: [...(existing.multiValue ?? [{ value: existing.value }]), { value }] };
  }
  return out;
}

interface Answer { status: number; location?: string; body?: string }

/** The distribution: viewer request → S3 through OAC (403 for a missing key) → error responses → viewer response. */
async function cdn(target: string): Promise<Answer> {
  const q = target.indexOf('?');
  const request: CfRequest = {
    method: 'GET',
    uri: q === -1 ? target : target.slice(0, q),
    querystring: querystring(q === -1 ? '' : target.slice(q)),
    headers: { host: { value: 'www.example.com' } },
    cookies: {},
  };
  const event = { version: '1.0', context: { eventType: 'viewer-request' }, viewer: { ip: '192.0.2.1' }, request };
  const out = await viewerRequest(event);
  if ('statusCode' in out) {
    // A response the function makes itself: a redirect, or a refusal with an empty body.
    if (out.statusCode >= 300 && out.statusCode < 400) return { status: out.statusCode, location: out.headers?.location?.value };
    return { status: out.statusCode, body: '' };
  }
  const file = path.join(dist, decodeURIComponent(out.uri));
  if (!existsSync(file)) {
    // CloudFront runs no function on an origin error; the error response gives 404.html its 404.
    return { status: 404, body: await readFile(path.join(dist, '404.html'), 'utf8') };
  }
  const response = await viewerResponse({ version: '1.0', context: { eventType: 'viewer-response' }, request: out, response: { statusCode: 200, statusDescription: 'OK', headers: {} } }) as CfResponse;
  return { status: response.statusCode, body: await readFile(file, 'utf8') };
}

/** `site serve`'s answer, asked with the raw path (a URL object would tidy '//' away). */
function served(target: string): Promise<Answer> {
  const { port, hostname } = new URL(serve.url);
  return new Promise((ok, fail) => {
    http.get({ host: hostname, port, path: target }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) ok({ status, location: res.headers.location });
        else ok({ status, body: Buffer.concat(chunks).toString('utf8') });
      });
    }).on('error', fail);
  });
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'site-cf-functions-'));
  dist = path.join(work, 'dist');
  await buildSite({ root: ROOT, outDir: dist });
  table = JSON.parse(await readFile(path.join(deployDirFor(dist), 'routing.json'), 'utf8')) as RoutingTable;
  source = {
    request: await readFile(path.join(deployDirFor(dist), 'cloudfront/viewer-request.js'), 'utf8'),
    response: await readFile(path.join(deployDirFor(dist), 'cloudfront/viewer-response.js'), 'utf8'),
  };
  const entries = parseStoreDataFile(await readFile(path.join(deployDirFor(dist), STORE_DATA_FILE), 'utf8'))!;
  store = standInStore(entries.map((e) => [e.key, e.value]));
  viewerRequest = loadFunction(source.request, 'viewer-request.js', store);
  viewerResponse = loadFunction(source.response, 'viewer-response.js', store);
  serve = await startServer({ root: ROOT, outDir: dist, port: 0, host: '127.0.0.1', watch: false, prebuilt: true });
}, 60_000);

afterAll(async () => {
  await serve?.close();
  await rm(work, { recursive: true, force: true });
});

describe('the emitted functions fit CloudFront Functions (JavaScript runtime 2.0)', () => {
  test.each(['request', 'response'] as const)('viewer-%s.js is under 10 KB and imports the runtime\'s cloudfront module alone', (which) => {
    const code = source[which];
    expect(Buffer.byteLength(code, 'utf8')).toBeLessThan(SIZE_LIMIT);
    const [first, ...rest] = code.split('\n');
    expect(first).toBe("import cf from 'cloudfront';");
    // Past that line a classic script: another import or an export would not even parse here.
    expect(() => new vm.Script(rest.join('\n'))).not.toThrow();
    expect(rest.join('\n')).not.toMatch(/\brequire\s*\(|\bimport\b|\bmodule\.exports\b|\bprocess\./);
  });

  test('no page is in the functions: the store holds them, one entry each, and the functions name none', () => {
    expect(Object.fromEntries(store.entries)).toEqual(Object.fromEntries(storeEntries(table).map((e) => [e.key, e.value])));
    const article = table.pageUrls.find((p) => p.startsWith('/blog/') && !p.startsWith('/blog/page/'))!;
    for (const code of [source.request, source.response]) {
      expect(code).not.toContain(article);
      expect(code).not.toContain('/about');
    }
  });

  test('a request reads at most three entries of the store: the rules, the path, and the page a .html name may be', async () => {
    const reads = { '/about': 2, '/about.html': 3, '/about/': 1, '/blog/no-such-article': 2, '/assets/x.css': 2 };
    for (const [url, expected] of Object.entries(reads)) {
      const before = store.reads;
      await viewerRequest({ request: { method: 'GET', uri: url, querystring: {}, headers: {}, cookies: {} } });
      expect({ url, reads: store.reads - before }).toEqual({ url, reads: expected });
    }
  });
});

// Kinds of URL the routing distinguishes (docs/product-rules.md, 'Pages and routes'); each page of the build is added below.
const TABLE_OF_URLS = [
  '/', '/index.html', '/about', '/about/', '/about//', '/about/index.html', '/about/?a=1&b=2', '/about/?tag=a&tag=b&flag',
  // A page's file name, and the folder layout builds used to write: both 301 to the page's one URL.
  '/about.html', '/about.html?ref=share', '/about.html/', '/blog.html', '/blog/page/2.html', '/blog/page/2/index.html', '/about/index.html?ref=old',
  '/.html', '/case-studies/404.html',
  '//evil.example/', '/services/', '/blog/', '/blog/page/2', '/blog/page/2/',
  '/services/analytics-and-reporting', '/services/analytics-and-reporting?utm_source=mail',
  '/blog/no-such-article', '/blog/no-such-article?ref=x', '/blog/no/such/thing',
  '/case-studies/no-such-client', '/case-studies/no-such-client/', '/case-studies/',
  '/no-such-page', '/no/such/page', '/favicon.ico', '/assets/no-such-file.js', '/robots.txt', '/sitemap.xml', '/404.html',
  // Targets no redirect may be built from: browsers read '\\' as '/', and an absolute-form target is not a path.
  '/\\evil.example/', '/\\evil.example', '/about/\\', 'https://evil.example/x/', 'http://evil.example', 'https://evil.example/x/?a=1',
];

describe('the functions route as site serve does', () => {
  test('every URL in the table gets the same status, redirect and page from the CDN as from site serve', async () => {
    const inner = table.pageUrls.filter((p) => p !== '/');
    const urls = [...TABLE_OF_URLS, ...table.pageUrls, ...inner.map((p) => `${p}/`), ...inner.map((p) => `${p}.html`), ...inner.map((p) => `${p}/index.html`)];
    const digest = (a: Answer) => ({ ...a, body: a.body === undefined ? undefined : createHash('sha256').update(a.body).digest('hex').slice(0, 12) });
    for (const url of urls) {
      const [fromCdn, fromServe] = await Promise.all([cdn(url), served(url)]);
      expect({ url, ...digest(fromCdn) }).toEqual({ url, ...digest(fromServe) });
    }
  });

  test('the viewer-request answers are src/url-resolution/resolve.ts resolve() answers, query string kept on redirects', async () => {
    for (const url of TABLE_OF_URLS) {
      const q = url.indexOf('?');
      const pathname = q === -1 ? url : url.slice(0, q);
      const search = q === -1 ? '' : url.slice(q);
      const expected = resolve(pathname, table);
      const out = await viewerRequest({ request: { method: 'GET', uri: pathname, querystring: querystring(search), headers: {}, cookies: {} } });
      if (expected.kind === 'bad-request') {
        expect({ url, status: (out as CfResponse).statusCode }).toEqual({ url, status: 400 });
      } else if (expected.kind === 'redirect') {
        expect({ url, status: (out as CfResponse).statusCode, location: (out as CfResponse).headers?.location?.value })
          .toEqual({ url, status: expected.status, location: expected.location + search });
      } else {
        const req = out as CfRequest;
        expect({ url, uri: req.uri, marked: req.headers['x-site-status']?.value })
          .toEqual({ url, uri: expected.file, marked: expected.status === 200 ? undefined : String(expected.status) });
      }
    }
  });

  test('spot checks of the routing rules', async () => {
    expect(await cdn('/about/?a=1&b=2')).toEqual({ status: 301, location: '/about?a=1&b=2' });
    expect(await cdn('/blog/no-such-article')).toEqual({ status: 302, location: '/blog' });
    expect(await cdn('/services/analytics-and-reporting')).toEqual({ status: 301, location: '/services/data-visualisation' });
    expect(await cdn('//evil.example/')).toEqual({ status: 301, location: '/evil.example' });
    const caseStudy = await cdn('/case-studies/no-such-client');
    expect(caseStudy.status).toBe(404);
    expect(caseStudy.body).toBe(await readFile(path.join(dist, 'case-studies/404.html'), 'utf8'));
    expect((await cdn('/no-such-page')).status).toBe(404);
    expect((await cdn('/about')).status).toBe(200);
  });

  test('a page is its URL alone: the file beside its siblings answers it, and the file\'s own name and the old folder layout redirect to it', async () => {
    const pages = [['/about', 'about.html'], ['/blog', 'blog.html'], ['/blog/page/2', 'blog/page/2.html'], ['/', 'index.html']] as const;
    for (const [url, file] of pages) {
      expect({ url, ...(await cdn(url)) }).toEqual({ url, status: 200, body: await readFile(path.join(dist, file), 'utf8') });
    }
    const article = table.pageUrls.find((p) => p.startsWith('/blog/') && !p.startsWith('/blog/page/'))!;
    expect((await cdn(article)).body).toBe(await readFile(path.join(dist, `${article.slice(1)}.html`), 'utf8'));
    expect(await cdn('/about.html')).toEqual({ status: 301, location: '/about' });
    expect(await cdn(`${article}.html?utm_source=x`)).toEqual({ status: 301, location: `${article}?utm_source=x` });
    expect(await cdn('/about/index.html')).toEqual({ status: 301, location: '/about' });
    expect(await cdn(`${article}/index.html`)).toEqual({ status: 301, location: article });
    expect(await cdn('/index.html')).toEqual({ status: 301, location: '/' });
    // The error pages' files are no page's: they answer as themselves.
    expect((await cdn('/404.html')).status).toBe(404);
    expect(existsSync(path.join(dist, 'about'))).toBe(false);
  });

  test('neither the CDN nor site serve redirects a backslash or an absolute-form target off the site: both answer 400', async () => {
    for (const target of ['/\\evil.example/', 'https://evil.example/x/']) {
      expect({ target, ...(await served(target)) }).toEqual({ target, status: 400, body: '' });
      expect({ target, ...(await cdn(target)) }).toEqual({ target, status: 400, body: '' });
    }
  });

  test('the response function gives error pages their status, and leaves pages and non-200 answers alone', async () => {
    const respond = async (marked: string | undefined, statusCode: number, uri = '/about.html') =>
      ((await viewerResponse({ request: { uri, headers: marked ? { 'x-site-status': { value: marked } } : {} }, response: { statusCode, headers: {} } })) as CfResponse).statusCode;
    expect(await respond(undefined, 200)).toBe(200);
    expect(await respond('404', 200)).toBe(404);
    expect(await respond('404', 304)).toBe(304);
    // Should CloudFront not pass the marker on, the status is worked out from the URI it sees.
    expect(await respond(undefined, 200, '/404.html')).toBe(404);
    expect(await respond(undefined, 200, '/case-studies/404.html')).toBe(404);
    expect(await respond(undefined, 200, '/no-such-page')).toBe(404);
    expect(await respond(undefined, 200, '/about')).toBe(200);
  });

  test('before the store holds anything (a new distribution, not yet deployed to), every page still answers from its file', async () => {
    const empty = standInStore();
    const request = loadFunction(source.request, 'viewer-request.js', empty);
    const response = loadFunction(source.response, 'viewer-response.js', empty);
    for (const url of table.pageUrls) {
      const out = (await request({ request: { method: 'GET', uri: url, querystring: {}, headers: {}, cookies: {} } })) as CfRequest;
      expect({ url, uri: out.uri, marked: out.headers['x-site-status'] }).toEqual({ url, uri: url === '/' ? '/index.html' : `${url}.html`, marked: undefined });
      expect(existsSync(path.join(dist, decodeURIComponent(out.uri)))).toBe(true);
      const answered = (await response({ request: out, response: { statusCode: 200, headers: {} } })) as CfResponse;
      expect(answered.statusCode).toBe(200);
    }
    expect(((await request({ request: { uri: '/about/', querystring: {}, headers: {} } })) as CfResponse).statusCode).toBe(301);
    expect(((await request({ request: { uri: '/assets/x.css', querystring: {}, headers: {} } })) as CfRequest).uri).toBe('/assets/x.css');
    expect(((await request({ request: { uri: '/404.html', querystring: {}, headers: {} } })) as CfRequest).headers['x-site-status']).toEqual({ value: '404' });
  });
});

/**
 * 10,000 articles: the site's own routing table with 10,000 generated article URLs and the list
 * pages they make (/blog/page/2…), rather than a rendered 10,000-article build, which takes minutes
 * (the routing reads the table alone, and the table is all a build hands it). The functions are the
 * build's generator's, the entries go through the file the build writes and the deploy reads, and
 * every answer is compared with resolve(), which is what site serve answers with.
 */
describe('at 10,000 articles the functions still answer as site serve does', () => {
  test('every page, its trailing-slash, file-name and old-layout forms, unknown articles and case studies, redirects and assets', async () => {
    const articles = Array.from({ length: 10_000 }, (_, i) => `/blog/a-practical-guide-to-data-quality-${String(i + 1).padStart(5, '0')}`);
    const lists = Array.from({ length: Math.ceil(10_000 / 6) - 1 }, (_, i) => `/blog/page/${i + 2}`);
    const big: RoutingTable = { ...table, pageUrls: [...new Set([...table.pageUrls, ...articles, ...lists])] };
    expect(storeProblems(big)).toEqual([]);
    const entries = parseStoreDataFile(storeDataFile(storeEntries(big)))!;
    const bigStore = standInStore(entries.map((e) => [e.key, e.value]));
    const code = { request: await viewerRequestFunction(ROOT), response: await viewerResponseFunction(ROOT) };
    // The functions hold no page: the same bytes as the 8-article build's.
    expect(code).toEqual(source);
    const request = loadFunction(code.request, 'viewer-request.js', bigStore);
    const response = loadFunction(code.response, 'viewer-response.js', bigStore);

    const inner = big.pageUrls.filter((p) => p !== '/');
    const urls = [
      ...TABLE_OF_URLS.filter((u) => !u.includes('?')),
      ...big.pageUrls, ...inner.map((p) => `${p}/`), ...inner.map((p) => `${p}//`), ...inner.map((p) => `${p}.html`), ...inner.map((p) => `${p}/index.html`),
      ...articles.slice(0, 500).map((p) => `${p}-gone`), ...articles.slice(0, 500).map((p) => `${p}-gone/`),
      ...Array.from({ length: 200 }, (_, i) => `/case-studies/no-such-client-${i}`), '/case-studies/404.html', '/404.html',
      ...Object.keys(big.redirects), ...Object.keys(big.redirects).map((p) => `${p}/`),
    ];
    let checked = 0;
    for (const url of urls) {
      const expected = resolve(url, big);
      const out = await request({ request: { method: 'GET', uri: url, querystring: {}, headers: {}, cookies: {} } });
      if (expected.kind === 'bad-request') {
        expect({ url, status: (out as CfResponse).statusCode }).toEqual({ url, status: 400 });
      } else if (expected.kind === 'redirect') {
        expect({ url, status: (out as CfResponse).statusCode, location: (out as CfResponse).headers?.location?.value }).toEqual({ url, status: expected.status, location: expected.location });
      } else {
        const req = out as CfRequest;
        // S3 has the file: the response function gives it the status serve gives it.
        const answered = (await response({ request: req, response: { statusCode: 200, headers: {} } })) as CfResponse;
        expect({ url, file: req.uri, status: answered.statusCode }).toEqual({ url, file: expected.file, status: expected.status });
      }
      checked += 1;
    }
    expect(checked).toBeGreaterThan(55_000);
    // Spot checks of what the comparison covered.
    expect(resolve(`${articles[9_999]}`, big)).toEqual({ kind: 'file', file: `${articles[9_999]}.html`, status: 200 });
    expect(resolve(`${articles[0]}-gone`, big)).toEqual({ kind: 'redirect', location: '/blog', status: 302 });
    expect(resolve('/case-studies/no-such-client-7', big)).toEqual({ kind: 'file', file: '/case-studies/404.html', status: 404 });
    expect(resolve(`${articles[5]}/`, big)).toEqual({ kind: 'redirect', location: articles[5], status: 301 });
  }, 120_000);
});
