// The functions over a routing table of `articles` generated articles and the list pages they make
// (/blog/page/2…), rather than a rendered build of that many, which takes minutes (the routing reads
// the table alone, and the table is all a build hands it). The functions are the build's
// generator's, the entries go through the file the build writes and the deploy reads, and every
// answer is compared with resolve(), which is what site serve answers with. In njs, a few thousand
// requests a process. `pick` chooses which of each kind of route is asked: all of them
// (scale/cloudfront-functions.test.ts), or a covering sample (tests/infra/cloudfront-functions.test.ts).
import { expect } from 'vitest';
import { resolve, type RoutingTable } from '../../src/url-resolution/resolve.ts';
import { ERROR_STATUS_HEADER, viewerRequestFunction, viewerResponseFunction } from '../../src/url-resolution/cloudfront-functions.ts';
import { errorStatuses, parseStoreDataFile, rulesOf, storeDataFile, storeEntries, storeProblems } from '../../src/url-resolution/store-data.ts';
import { runInNjs, type CfRequest, type CfResponse } from '../../src/url-resolution/njs-runtime.ts';

/** The response CloudFront hands the viewer-response function for an object: S3's 200, with the error status `site deploy` stored in its metadata. */
export const responseEvent = (uri: string, status: number | undefined) => ({
  version: '1.0',
  context: { eventType: 'viewer-response' },
  viewer: { ip: '192.0.2.1' },
  // AWS: the request as CloudFront received it from the viewer (not the rewritten one).
  request: { method: 'GET', uri, querystring: {}, headers: {}, cookies: {} },
  response: { statusCode: 200, statusDescription: 'OK', headers: { 'content-type': { value: 'text/html; charset=utf-8' }, ...(status === undefined ? {} : { [ERROR_STATUS_HEADER]: { value: String(status) } }) } },
});

// Kinds of URL the routing distinguishes (docs/product-rules.md, 'Pages and routes'); each page of the build is added below.
export const TABLE_OF_URLS = [
  '/', '/index.html', '/about', '/about/', '/about//', '/about/index.html', '/about/?a=1&b=2', '/about/?tag=a&tag=b&flag',
  // A page's file name, and the folder layout builds used to write: both 301 to the page's one URL.
  '/about.html', '/about.html?ref=share', '/about.html/', '/blog.html', '/blog/page/2.html', '/blog/page/2/index.html', '/about/index.html?ref=old',
  '/.html', '/case-studies/404.html',
  '//evil.example/', '/services/', '/blog/', '/blog/page/2', '/blog/page/2/',
  '/services/analytics-and-reporting', '/services/analytics-and-reporting?utm_source=mail',
  '/blog/no-such-article', '/blog/no-such-article?ref=x', '/blog/no/such/thing',
  '/case-studies/no-such-client', '/case-studies/no-such-client/', '/case-studies/',
  '/no-such-page', '/no/such/page', '/favicon.ico', '/assets/no-such-file.js', '/robots.txt', '/sitemap.xml', '/404.html',
  // Longer than any key the store takes: no page (the build refuses a longer URL), never looked up.
  `/blog/${'a-very-long-slug-'.repeat(40)}`, `/${'x'.repeat(600)}`,
  // Targets no redirect may be built from: browsers read '\\' as '/', and an absolute-form target is not a path.
  '/\\evil.example/', '/\\evil.example', '/about/\\', 'https://evil.example/x/', 'http://evil.example', 'https://evil.example/x/?a=1',
];

/** Every one of a kind of route. */
export const all = <T>(list: readonly T[]): T[] => [...list];
/** A few of a kind: its first three, one from the middle and its last three (a long list's ends and inside). */
export const few = <T>(list: readonly T[]): T[] => (list.length <= 7 ? [...list] : [...list.slice(0, 3), list[Math.floor(list.length / 2)]!, ...list.slice(-3)]);

export interface Sweep { compared: number; ms: number; articles: string[]; table: RoutingTable }

/**
 * `root`'s functions over `table` grown to `count` articles: every kind of route the routing
 * distinguishes (`extra`, then each page, its trailing slash, '//', '.html' and old-layout forms,
 * unknown articles with and without the slash, unknown case studies, the error pages, each redirect
 * and its slashed form), `pick`ed of each kind; each answer compared with resolve().
 */
export async function sweepFunctions(root: string, base: RoutingTable, count: number, extra: readonly string[], pick: <T>(list: readonly T[]) => T[], source?: { request: string; response: string }): Promise<Sweep> {
  const started = performance.now();
  const articles = Array.from({ length: count }, (_, i) => `/blog/a-practical-guide-to-data-quality-${String(i + 1).padStart(5, '0')}`);
  const lists = Array.from({ length: Math.ceil(count / 6) - 1 }, (_, i) => `/blog/page/${i + 2}`);
  const table: RoutingTable = { ...base, pageUrls: [...new Set([...base.pageUrls, ...articles, ...lists])] };
  expect(storeProblems(table)).toEqual([]);
  const entries = parseStoreDataFile(storeDataFile(storeEntries(table)))!.map((e): [string, string] => [e.key, e.value]);
  const code = { request: await viewerRequestFunction(root), response: await viewerResponseFunction(root) };
  // The functions hold no page: the same bytes as the small build's.
  if (source) expect(code).toEqual(source);

  // Each kind apart, so that a sample takes some of every kind: the site's own pages, the articles, the list pages.
  const kinds = [base.pageUrls.filter((p) => p !== '/'), articles, lists];
  const redirects = Object.keys(table.redirects);
  const gone = articles.slice(0, 500);
  const urls = [...new Set([
    ...extra.filter((u) => !u.includes('?')), '/',
    ...kinds.flatMap((pages) => [...pick(pages), ...pick(pages).map((p) => `${p}/`), ...pick(pages).map((p) => `${p}//`), ...pick(pages).map((p) => `${p}.html`), ...pick(pages).map((p) => `${p}/index.html`)]),
    ...pick(gone).map((p) => `${p}-gone`), ...pick(gone).map((p) => `${p}-gone/`),
    ...pick(Array.from({ length: 200 }, (_, i) => `/case-studies/no-such-client-${i}`)), '/case-studies/404.html', '/404.html',
    ...pick(redirects), ...pick(redirects).map((p) => `${p}/`),
  ])];
  const statuses = errorStatuses(rulesOf(table));
  const requests = await runInNjs(code.request, urls.map((u) => ({ request: { method: 'GET', uri: u, querystring: {}, headers: {}, cookies: {} } })), { entries });
  const files = requests.flatMap((o, i) => ('uri' in o.result ? [{ i, file: o.result.uri }] : []));
  const responses = await runInNjs<CfResponse>(code.response, files.map(({ i, file }) => responseEvent(urls[i]!, statuses.get(file.slice(1)))), { entries });
  const status = new Map(files.map(({ i }, j) => [i, responses[j]!]));
  let compared = 0;
  for (const [i, url] of urls.entries()) {
    const expected = resolve(url, table);
    const out = requests[i]!;
    expect({ url, error: out.error }).toEqual({ url, error: undefined });
    if (expected.kind === 'bad-request') {
      expect({ url, status: (out.result as CfResponse).statusCode }).toEqual({ url, status: 400 });
    } else if (expected.kind === 'redirect') {
      const r = out.result as CfResponse;
      expect({ url, status: r.statusCode, location: r.headers?.location?.value }).toEqual({ url, status: expected.status, location: expected.location });
    } else {
      // S3 has the file: the response function gives it the status serve gives it, reading nothing.
      const answered = status.get(i)!;
      expect({ url, file: (out.result as CfRequest).uri, status: answered.result.statusCode, reads: answered.reads }).toEqual({ url, file: expected.file, status: expected.status, reads: 0 });
    }
    compared += 1;
  }
  expect(compared).toBe(urls.length);
  // Spot checks of what the comparison covered.
  expect(resolve(`${articles[count - 1]}`, table)).toEqual({ kind: 'file', file: `${articles[count - 1]}.html`, status: 200 });
  expect(resolve(`${articles[0]}-gone`, table)).toEqual({ kind: 'redirect', location: '/blog', status: 302 });
  expect(resolve('/case-studies/no-such-client-7', table)).toEqual({ kind: 'file', file: '/case-studies/404.html', status: 404 });
  expect(resolve(`${articles[5]}/`, table)).toEqual({ kind: 'redirect', location: articles[5], status: 301 });
  return { compared, ms: performance.now() - started, articles, table };
}
