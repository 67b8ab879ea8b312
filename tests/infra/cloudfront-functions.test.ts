// The CloudFront Functions the build emits, run as CloudFront runs them: in njs, the engine
// CloudFront Functions are built on, as scripts under 10 KB that import nothing but the runtime's
// `cloudfront` module, called with CloudFront's event shape and reading the build's routing entries
// from a stand-in of the KeyValueStore (tests/url-resolution/njs-runtime.ts). Their answers, with S3
// and the distribution's error responses emulated around them, must be site serve's answers.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { resolve, type RoutingTable } from '../../src/url-resolution/resolve.ts';
import { ERROR_STATUS_HEADER, KVS_IMPORT, viewerRequestFunction, viewerResponseFunction } from '../../src/url-resolution/cloudfront-functions.ts';
import { runtimeProblems } from '../../src/url-resolution/function-runtime.ts';
import { errorStatuses, parseStoreDataFile, rulesOf, STORE_DATA_FILE, storeDataFile, storeEntries, storeProblems } from '../../src/url-resolution/store-data.ts';
import { startServer, type RunningServer } from '../../src/serve/server.ts';
import { few, responseEvent, sweepFunctions, TABLE_OF_URLS } from './functions-sweep.ts';
import { runInNjs, njsVersion, type CfRequest, type CfResponse, type Outcome, type StandInStore, type Value } from '../../src/url-resolution/njs-runtime.ts';
import { deployDirFor } from '../../src/output/layout.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SIZE_LIMIT = 10 * 1024;

let work: string;
let dist: string;
let table: RoutingTable;
let source: { request: string; response: string };
let serve: RunningServer;
let entries: Array<[string, string]>;

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

const requestEvent = (target: string) => {
  const q = target.indexOf('?');
  const request: CfRequest = {
    method: 'GET',
    uri: q === -1 ? target : target.slice(0, q),
    querystring: querystring(q === -1 ? '' : target.slice(q)),
    headers: { host: { value: 'www.example.com' } },
    cookies: {},
  };
  return { version: '1.0', context: { eventType: 'viewer-request' }, viewer: { ip: '192.0.2.1' }, request };
};


interface Answer { status: number; location?: string; body?: string; cacheControl?: string; reads: { request: number; response: number } }

/**
 * The distribution, for many targets at once: viewer request (njs) → S3 through OAC (403 for a
 * missing key) → error responses → viewer response (njs). `bodies`: read each answered file.
 */
async function cdn(targets: readonly string[], store: StandInStore, code = source, bodies = true): Promise<Answer[]> {
  const rules = rulesOf(table);
  const statuses = errorStatuses(rules);
  const requests = await runInNjs(code.request, targets.map(requestEvent), store);
  const toS3: Array<{ i: number; file: string }> = [];
  const answers: Answer[] = [];
  for (const [i, out] of requests.entries()) {
    expect({ target: targets[i], error: out.error }).toEqual({ target: targets[i], error: undefined });
    const result = out.result;
    const reads = { request: out.reads, response: 0 };
    if ('statusCode' in result) {
      // A response the function makes itself: a redirect, or a refusal with an empty body.
      answers.push(result.statusCode >= 300 && result.statusCode < 400
        ? { status: result.statusCode, location: result.headers?.location?.value, cacheControl: result.headers?.['cache-control']?.value, reads }
        : { status: result.statusCode, body: '', reads });
      continue;
    }
    const file = decodeURIComponent(result.uri);
    if (!existsSync(path.join(dist, file))) {
      // CloudFront runs no function on an origin error; the error response gives 404.html its 404.
      answers.push({ status: 404, body: bodies ? await readFile(path.join(dist, '404.html'), 'utf8') : '/404.html', reads });
      continue;
    }
    answers.push({ status: 0, body: file, reads });
    toS3.push({ i, file });
  }
  const responses = await runInNjs<CfResponse>(code.response, toS3.map(({ i, file }) => responseEvent(targets[i]!.split('?')[0]!, statuses.get(file.slice(1)))), store);
  for (const [j, { i, file }] of toS3.entries()) {
    const out = responses[j]!;
    expect({ target: targets[i], error: out.error }).toEqual({ target: targets[i], error: undefined });
    // The status header is the function's to read, never the viewer's to see.
    expect(out.result.headers?.[ERROR_STATUS_HEADER]).toBeUndefined();
    answers[i] = { status: out.result.statusCode, body: bodies ? await readFile(path.join(dist, file), 'utf8') : file, reads: { request: answers[i]!.reads.request, response: out.reads } };
  }
  return answers;
}

const storeOf = (list: Iterable<[string, string]> = entries): StandInStore => ({ entries: list });

/** `site serve`'s answer, asked with the raw path (a URL object would tidy '//' away). */
function served(target: string): Promise<Omit<Answer, 'reads'>> {
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
  entries = parseStoreDataFile(await readFile(path.join(deployDirFor(dist), STORE_DATA_FILE), 'utf8'))!.map((e) => [e.key, e.value]);
  serve = await startServer({ root: ROOT, outDir: dist, port: 0, host: '127.0.0.1', watch: false, prebuilt: true });
});

afterAll(async () => {
  await serve?.close();
  await rm(work, { recursive: true, force: true });
});

describe('the emitted functions fit CloudFront Functions (JavaScript runtime 2.0)', () => {
  test('both are under 10 KB, use only the features the runtime lists, and njs parses and runs them', async () => {
    expect(await njsVersion()).toMatch(/^\d+\.\d+\.\d+$/);
    for (const which of ['request', 'response'] as const) {
      expect(Buffer.byteLength(source[which], 'utf8')).toBeLessThan(SIZE_LIMIT);
      expect(runtimeProblems(source[which], `viewer-${which}.js`)).toEqual([]);
      expect(source[which]).not.toMatch(/\brequire\s*\(|\bmodule\.exports\b|\bprocess\./);
    }
    // The request function imports the runtime's cloudfront module alone, as its first line; the response function reads no store.
    expect(source.request.split('\n')[0]).toBe(KVS_IMPORT);
    expect(source.request.match(/\bimport\b/g)).toHaveLength(1);
    expect(source.response).not.toMatch(/\bimport\b|kvs/);
    const [about] = await cdn(['/about'], storeOf());
    expect(about).toMatchObject({ status: 200 });
  });

  test('no page is in the functions: the store holds them, one entry each, and the functions name none', () => {
    expect(Object.fromEntries(entries)).toEqual(Object.fromEntries(storeEntries(table).map((e) => [e.key, e.value])));
    const article = table.pageUrls.find((p) => p.startsWith('/blog/') && !p.startsWith('/blog/page/'))!;
    for (const code of [source.request, source.response]) {
      expect(code).not.toContain(article);
      expect(code).not.toContain('/about');
    }
  });

  test('store reads per request: the rules, the path, and the page a .html name may be (a miss asks exists()); none on the response side', async () => {
    const reads = { '/about': 2, '/about.html': 4, '/about/': 1, '/blog/no-such-article': 3, '/assets/x.css': 3, '/404.html': 5, '/case-studies/no-such-client': 3 };
    const answers = await cdn(Object.keys(reads), storeOf());
    expect(Object.fromEntries(answers.map((a, i) => [Object.keys(reads)[i], a.reads.request]))).toEqual(reads);
    for (const a of answers) expect(a.reads.response).toBe(0);
  });
});


const digest = (a: Omit<Answer, 'reads'>) => ({ status: a.status, location: a.location, body: a.body === undefined ? undefined : createHash('sha256').update(a.body).digest('hex').slice(0, 12) });

describe('the functions route as site serve does', () => {
  test('every URL in the table gets the same status, redirect and page from the CDN as from site serve', async () => {
    const inner = table.pageUrls.filter((p) => p !== '/');
    const urls = [...TABLE_OF_URLS, ...table.pageUrls, ...inner.map((p) => `${p}/`), ...inner.map((p) => `${p}.html`), ...inner.map((p) => `${p}/index.html`)];
    const fromCdn = await cdn(urls, storeOf());
    for (const [i, url] of urls.entries()) expect({ url, ...digest(fromCdn[i]!) }).toEqual({ url, ...digest(await served(url)) });
  });

  test('the viewer-request answers are src/url-resolution/resolve.ts resolve() answers, query string kept on redirects', async () => {
    const outs = await runInNjs(source.request, TABLE_OF_URLS.map(requestEvent), storeOf());
    for (const [i, url] of TABLE_OF_URLS.entries()) {
      const q = url.indexOf('?');
      const expected = resolve(q === -1 ? url : url.slice(0, q), table);
      const search = q === -1 ? '' : url.slice(q);
      const out = outs[i]!.result;
      if (expected.kind === 'bad-request') {
        expect({ url, status: (out as CfResponse).statusCode }).toEqual({ url, status: 400 });
      } else if (expected.kind === 'redirect') {
        expect({ url, status: (out as CfResponse).statusCode, location: (out as CfResponse).headers?.location?.value })
          .toEqual({ url, status: expected.status, location: expected.location + search });
      } else {
        expect({ url, uri: (out as CfRequest).uri }).toEqual({ url, uri: expected.file });
      }
    }
  });

  test('spot checks of the routing rules, with what a browser may keep', async () => {
    const urls = ['/about/?a=1&b=2', '/blog/no-such-article', '/services/analytics-and-reporting', '//evil.example/', '/case-studies/no-such-client', '/no-such-page', '/about'];
    const [slash, unknown, redirect, evil, caseStudy, missing, about] = await cdn(urls, storeOf());
    expect(slash).toMatchObject({ status: 301, location: '/about?a=1&b=2', cacheControl: 'public, max-age=300' });
    // A fallback: an edge that has not yet seen a new article's key answers so; the browser must not keep it.
    expect(unknown).toMatchObject({ status: 302, location: '/blog', cacheControl: 'no-store' });
    expect(redirect).toMatchObject({ status: 301, location: '/services/data-visualisation', cacheControl: 'public, max-age=300' });
    expect(evil).toMatchObject({ status: 301, location: '/evil.example' });
    expect(caseStudy!.status).toBe(404);
    expect(caseStudy!.body).toBe(await readFile(path.join(dist, 'case-studies/404.html'), 'utf8'));
    expect(missing!.status).toBe(404);
    expect(about!.status).toBe(200);
  });

  test('each redirect status is described as what it is, and a redirect the store holds may be kept a while', async () => {
    const withRedirects: Array<[string, string]> = [...entries, ['/r301', '301 /about'], ['/r302', '302 /about'], ['/r307', '307 /about'], ['/r308', '308 /about']];
    const outs = await runInNjs<CfResponse>(source.request, ['/r301', '/r302', '/r307', '/r308'].map(requestEvent), storeOf(withRedirects));
    expect(outs.map((o) => [o.result.statusCode, o.result.statusDescription, o.result.headers?.['cache-control']?.value])).toEqual([
      [301, 'Moved Permanently', 'public, max-age=300'],
      [302, 'Found', 'public, max-age=300'],
      [307, 'Temporary Redirect', 'public, max-age=300'],
      [308, 'Permanent Redirect', 'public, max-age=300'],
    ]);
  });

  test('a page is its URL alone: the file beside its siblings answers it, and the file\'s own name and the old folder layout redirect to it', async () => {
    const article = table.pageUrls.find((p) => p.startsWith('/blog/') && !p.startsWith('/blog/page/'))!;
    const pages = [['/about', 'about.html'], ['/blog', 'blog.html'], ['/blog/page/2', 'blog/page/2.html'], ['/', 'index.html'], [article, `${article.slice(1)}.html`]] as const;
    const answered = await cdn(pages.map(([url]) => url), storeOf());
    for (const [i, [url, file]] of pages.entries()) {
      expect({ url, status: answered[i]!.status, body: answered[i]!.body }).toEqual({ url, status: 200, body: await readFile(path.join(dist, file), 'utf8') });
    }
    const redirects = [['/about.html', '/about'], [`${article}.html?utm_source=x`, `${article}?utm_source=x`], ['/about/index.html', '/about'], [`${article}/index.html`, article], ['/index.html', '/']] as const;
    const moved = await cdn(redirects.map(([from]) => from), storeOf());
    for (const [i, [from, to]] of redirects.entries()) expect({ from, ...moved[i] }).toMatchObject({ from, status: 301, location: to });
    // The error pages' files are no page's: they answer as themselves, with their status.
    expect((await cdn(['/404.html'], storeOf()))[0]!.status).toBe(404);
    expect(existsSync(path.join(dist, 'about'))).toBe(false);
  });

  test('neither the CDN nor site serve redirects a backslash or an absolute-form target off the site: both answer 400', async () => {
    const targets = ['/\\evil.example/', 'https://evil.example/x/'];
    const answers = await cdn(targets, storeOf());
    for (const [i, target] of targets.entries()) {
      expect({ target, ...(await served(target)) }).toEqual({ target, status: 400, body: '' });
      expect({ target, status: answers[i]!.status, body: answers[i]!.body }).toEqual({ target, status: 400, body: '' });
    }
  });

  test('the response function gives an error page the status its object carries, drops the header, and leaves the rest alone', async () => {
    const event = (statusCode: number, marked?: string) => ({ request: { uri: '/no-such-page', headers: {} }, response: { statusCode, headers: marked ? { [ERROR_STATUS_HEADER]: { value: marked } } : {} } });
    const outs = await runInNjs<CfResponse>(source.response, [event(200), event(200, '404'), event(304, '404'), event(200, 'not a status'), event(200, '200')], storeOf());
    expect(outs.map((o) => [o.result.statusCode, o.result.statusDescription, Object.keys(o.result.headers ?? {}).length, o.reads]))
      .toEqual([[200, undefined, 0, 0], [404, 'Not Found', 0, 0], [304, undefined, 0, 0], [200, undefined, 0, 0], [200, undefined, 0, 0]]);
  });

  test('before the store holds anything (a new distribution, not yet deployed to), every page still answers from its file', async () => {
    const empty = storeOf([]);
    const answered = await cdn(table.pageUrls, empty, source, false);
    for (const [i, url] of table.pageUrls.entries()) expect({ url, status: answered[i]!.status, file: answered[i]!.body }).toEqual({ url, status: 200, file: url === '/' ? '/index.html' : `${url}.html` });
    const [slash, asset, notFound] = await cdn(['/about/', '/robots.txt', '/404.html'], empty, source, false);
    expect(slash).toMatchObject({ status: 301, location: '/about' });
    expect(asset).toMatchObject({ status: 200, body: '/robots.txt' });
    expect(notFound).toMatchObject({ status: 404 });
  });
});

describe('a store read that fails is not a missing key: the function answers by file name and sends nothing a browser keeps', () => {
  const article = () => table.pageUrls.find((p) => p.startsWith('/blog/') && !p.startsWith('/blog/page/'))!;
  const redirectFrom = '/services/analytics-and-reporting';
  const urls = () => ['/about', article(), '/about/', '/blog/no-such-article', redirectFrom, '/case-studies/no-such-client', '/about.html'];

  /** What each answer of a degraded function may be: a page as its file; else nothing kept (no redirect kept, no 404 but the page's own, never a 302 away). */
  function expectDegraded(answers: Answer[]) {
    const [about, live, slash, unknown, redirected, caseStudy, htmlName] = answers;
    expect(about).toMatchObject({ status: 200, body: '/about.html' });
    expect(live).toMatchObject({ status: 200, body: `${article()}.html` });
    // The URL's own tidying does not need the store, but nothing a browser keeps comes out of a failure.
    expect(slash).toMatchObject({ status: 301, location: '/about', cacheControl: 'no-store' });
    // No fallback redirect and no table redirect: those need the store. The not-found page, revalidated on every use.
    for (const a of [unknown, redirected, caseStudy]) expect(a!.status).toBe(404);
    expect(htmlName).toMatchObject({ status: 200, body: '/about.html' });
    for (const a of answers) if (a.status >= 300 && a.status < 400) expect(a.cacheControl).toBe('no-store');
  }

  test('reading the rules fails (get rejects, exists too): pages by file name', async () => {
    expectDegraded(await cdn(urls(), { entries, failGet: ['rules'], failExists: ['rules'] }, source, false));
  });

  test('reading the rules fails, and exists() says the key is there: still a failure, not an absent store', async () => {
    expectDegraded(await cdn(urls(), { entries, failGet: ['rules'] }, source, false));
  });

  test('reading a live page\'s key fails: the page still answers, never the /blog fallback', async () => {
    const answers = await cdn(urls(), { entries, failGet: ['/about', article()], failExists: ['/about', article()] }, source, false);
    expect(answers[0]).toMatchObject({ status: 200, body: '/about.html' });
    expect(answers[1]).toMatchObject({ status: 200, body: `${article()}.html` });
  });

  test('reading an unknown article\'s key fails: no cacheable 302 to /blog', async () => {
    const [unknown] = await cdn(['/blog/no-such-article'], { entries, failGet: ['/blog/no-such-article'], failExists: ['/blog/no-such-article'] }, source, false);
    expect(unknown!.status).not.toBe(302);
    expect(unknown!.cacheControl).toBeUndefined();
  });

  test('the store cannot be read at all: every page is still its file, no redirect is kept', async () => {
    const all = await cdn(table.pageUrls, { entries, failGet: ['*'], failExists: ['*'] }, source, false);
    for (const [i, url] of table.pageUrls.entries()) expect({ url, status: all[i]!.status, file: all[i]!.body }).toEqual({ url, status: 200, file: url === '/' ? '/index.html' : `${url}.html` });
    expectDegraded(await cdn(urls(), { entries, failGet: ['*'], failExists: ['*'] }, source, false));
  });

  test.each([['not JSON', '{"notFound":'], ['not the rules', '{"notFound":404,"fallbacks":"none"}'], ['a fallback without a target', '{"notFound":"/404.html","fallbacks":[{"prefix":"/blog/","status":302}]}']])(
    'a rules value that is %s is treated as an absent store, never a thrown error', async (_what, value) => {
      const bad = entries.map(([k, v]): [string, string] => [k, k === 'rules' ? value : v]);
      const outs = await runInNjs(source.request, urls().map(requestEvent), { entries: bad });
      for (const o of outs) expect(o.error).toBeUndefined();
      expectDegraded(await cdn(urls(), { entries: bad }, source, false));
    });
});

/**
 * 10,000 articles in the store, a covering sample of routes asked: a few of each kind (the first,
 * middle and last pages, articles and list pages, in each of their forms; unknown articles and case
 * studies; the redirects). Every route of the 10,000 is asked by scale/cloudfront-functions.test.ts.
 */
describe('at 10,000 articles the functions still answer as site serve does', () => {
  test('a sample of every kind of route: pages, their trailing-slash, //, file-name and old-layout forms, unknown articles and case studies, 404s, redirects and assets', async () => {
    const { compared } = await sweepFunctions(ROOT, table, 10_000, TABLE_OF_URLS, few, source);
    expect(compared).toBeGreaterThan(100);
  }, 120_000);
});

describe('a content manager on a host name of its own (cms.host)', () => {
  test('its host answers /admin and the assets alone and sends every page to the site; the site sends /admin to it; the store failing sends nothing away', async () => {
    const hosts = { site: 'www.example.com', cms: 'cms.example.com' };
    const withHosts = storeOf([...entries.filter(([k]) => k !== 'rules'), ['rules', JSON.stringify({ ...rulesOf(table), hosts })], ['/admin', 'page']]);
    const cases: Array<[host: string, target: string, expected: { uri?: string; status?: number; location?: string }]> = [
      ['cms.example.com', '/admin', { uri: '/admin.html' }],
      ['cms.example.com', '/admin/', { status: 301, location: '/admin' }],
      ['cms.example.com', '/admin/config.json', { uri: '/admin/config.json' }],
      ['CMS.example.com:443', '/admin/cms.js', { uri: '/admin/cms.js' }],
      ['cms.example.com', '/assets/site.css', { uri: '/assets/site.css' }],
      ['cms.example.com', '/', { status: 301, location: 'https://www.example.com/' }],
      ['cms.example.com', '/about?ref=x', { status: 301, location: 'https://www.example.com/about?ref=x' }],
      ['cms.example.com', '/no-such-page', { status: 301, location: 'https://www.example.com/no-such-page' }],
      ['www.example.com', '/admin', { status: 301, location: 'https://cms.example.com/admin' }],
      ['www.example.com', '/admin/config.json', { status: 301, location: 'https://cms.example.com/admin/config.json' }],
      // The distribution's own name is not the manager's either.
      ['d111111abcdef8.cloudfront.net', '/admin', { status: 301, location: 'https://cms.example.com/admin' }],
      ['www.example.com', '/about', { uri: '/about.html' }],
      ['www.example.com', '/administration', { uri: '/404.html' }],
    ];
    const events = cases.map(([host, target]) => {
      const event = requestEvent(target);
      event.request.headers = { host: { value: host } };
      return event;
    });
    const outs = await runInNjs(source.request, events, withHosts);
    const got = outs.map((o) => {
      const r = o.result as CfRequest & CfResponse;
      return r.statusCode ? { status: r.statusCode, location: r.headers?.location?.value } : { uri: r.uri };
    });
    expect(cases.map(([host, target], i) => ({ host, target, ...got[i] }))).toEqual(cases.map(([host, target, expected]) => ({ host, target, ...expected })));

    // Rules the functions cannot read answer by file name alone, as before: no host is sent away.
    const broken = storeOf([...entries.filter(([k]) => k !== 'rules'), ['rules', JSON.stringify({ ...rulesOf(table), hosts: { site: 1 } })]]);
    const [fallback] = await runInNjs(source.request, [requestEvent('/about')], broken);
    expect((fallback!.result as CfRequest).uri).toBe('/about.html');
  });
});

describe('a pull request\'s preview on a host of its own (pr-<n>.<preview domain>)', () => {
  test('its pages, assets and 404 are its own files, every answer noindex; the public host is untouched; an unknown pull request is a 404', async () => {
    const asset = (await readFile(path.join(dist, 'index.html'), 'utf8')).match(/\/assets\/[\w.-]+\.css/)![0];
    // The store holds the live site's keys and pull request 12's, each behind 'pr-12:'.
    const both = storeOf([...entries, ...entries.map(([k, v]): [string, string] => [`pr-12:${k}`, v])]);
    const at = (host: string, target: string) => {
      const event = requestEvent(target);
      event.request.headers = { host: { value: host } };
      return event;
    };
    const cases: Array<[host: string, target: string]> = [
      ['pr-12.preview.example.com', '/about'],
      ['pr-12.preview.example.com', asset],
      ['pr-12.preview.example.com', '/no-such-page'],
      ['pr-12.preview.example.com', '/about/?a=1'],
      ['PR-12.Preview.example.com:443', '/'],
      ['www.example.com', '/about'],
      ['www.example.com', '/no-such-page'],
      ['pr-99.preview.example.com', '/about'],
      ['pr-012.preview.example.com', '/about'],
    ];
    const outs = await runInNjs(source.request, cases.map(([host, target]) => at(host, target)), both);
    const got = outs.map((o) => {
      expect(o.error).toBeUndefined();
      const r = o.result as CfRequest & CfResponse;
      return r.statusCode
        ? { status: r.statusCode, location: r.headers?.location?.value, robots: r.headers?.['x-robots-tag']?.value, cache: r.headers?.['cache-control']?.value }
        : { uri: r.uri };
    });
    expect(got).toEqual([
      { uri: '/pr-12/about.html' },
      { uri: `/pr-12${asset}` },
      { uri: '/pr-12/404.html' },
      { status: 301, location: '/about?a=1', robots: 'noindex', cache: 'public, max-age=300' },
      { uri: '/pr-12/index.html' },
      { uri: '/about.html' },
      { uri: '/404.html' },
      // No rules under 'pr-99:': no such pull request, or one closed and removed.
      { status: 404, location: undefined, robots: 'noindex', cache: 'no-store' },
      // Not a preview's name: the site's own routing, which has no 'pr-012' either.
      { uri: '/about.html' },
    ]);
    // The unknown pull request costs the one read of its rules (and the exists() a miss asks).
    expect(outs[7]!.reads).toBe(2);

    // What S3 gives for the files, through the response function: noindex on the preview's host alone, the 404 page its 404.
    const respond = (host: string, marked?: string) => ({ request: { uri: '/about', headers: { host: { value: host } } }, response: { statusCode: 200, headers: marked ? { [ERROR_STATUS_HEADER]: { value: marked } } : {} } });
    const responses = await runInNjs<CfResponse>(source.response, [respond('pr-12.preview.example.com'), respond('pr-12.preview.example.com', '404'), respond('www.example.com'), respond('www.example.com', '404')], storeOf([]));
    expect(responses.map((o) => [o.result.statusCode, o.result.headers?.['x-robots-tag']?.value, o.result.headers?.[ERROR_STATUS_HEADER]])).toEqual([
      [200, 'noindex', undefined], [404, 'noindex', undefined], [200, undefined, undefined], [404, undefined, undefined],
    ]);
  });

  test('a preview whose keys cannot be read answers its pages by file name, from its own files', async () => {
    const store: StandInStore = { entries: entries.map(([k, v]): [string, string] => [`pr-12:${k}`, v]), failGet: ['*'], failExists: ['*'] };
    const event = requestEvent('/about');
    event.request.headers = { host: { value: 'pr-12.preview.example.com' } };
    const [out] = await runInNjs(source.request, [event], store);
    expect((out!.result as CfRequest).uri).toBe('/pr-12/about.html');
  });
});
