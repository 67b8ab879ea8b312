import { describe, expect, it } from 'vitest';
import type { RoutingTable } from '../../src/url-resolution/resolve.ts';
import { resolveStaticTarget, resolveTarget } from '../../src/links/target.ts';

const table: RoutingTable = {
  pageUrls: ['/', '/about', '/blog', '/services/data-visualisation', '/caf%C3%A9'],
  redirects: {
    '/services/analytics-and-reporting': { to: '/services/data-visualisation', status: 301 },
    '/old': { to: '/older', status: 301 },
    '/older': { to: '/gone', status: 301 },
    '/loop-a': { to: '/loop-b', status: 301 },
    '/loop-b': { to: '/loop-a', status: 301 },
    '/r1': { to: '/r2', status: 301 }, '/r2': { to: '/r3', status: 301 }, '/r3': { to: '/r4', status: 301 },
    '/r4': { to: '/r5', status: 301 }, '/r5': { to: '/r6', status: 301 }, '/r6': { to: '/about', status: 301 },
    '/shop': { to: 'https://shop.example.net/', status: 302 },
  },
  fallbacks: [
    { prefix: '/blog/', redirect: '/blog', status: 302 },
    { prefix: '/case-studies/', file: '/case-studies/404.html', status: 404 },
  ],
  notFound: '/404.html',
};
const files = new Set(['/index.html', '/about.html', '/blog.html', '/services/data-visualisation.html',
  '/café.html', '/404.html', '/case-studies/404.html', '/assets/site.css', '/images/my photo.jpg']);

const at = (path: string) => resolveTarget(path, table, files);

describe('resolveTarget', () => {
  it('finds pages and files as the routing serves them', () => {
    expect(at('/about')).toEqual({ ok: true, path: '/about', file: '/about.html' });
    expect(at('/')).toEqual({ ok: true, path: '/', file: '/index.html' });
    expect(at('/assets/site.css')).toEqual({ ok: true, path: '/assets/site.css', file: '/assets/site.css' });
    expect(at('/images/my%20photo.jpg')).toMatchObject({ ok: true, file: '/images/my photo.jpg' });
    expect(at('/caf%C3%A9')).toMatchObject({ ok: true, file: '/café.html' });
  });

  it('follows the redirect table to the page it names', () => {
    expect(at('/services/analytics-and-reporting')).toEqual({ ok: true, path: '/services/data-visualisation', file: '/services/data-visualisation.html' });
    expect(at('/r1')).toMatchObject({ ok: false, kind: 'redirect', reason: expect.stringMatching(/^more than 5 redirects/) });
    expect(at('/r2')).toMatchObject({ ok: true, path: '/about' });
    expect(at('/shop')).toEqual({ ok: true, path: 'https://shop.example.net/' });
  });

  it('says where a redirect chain ends badly', () => {
    expect(at('/old')).toEqual({ ok: false, kind: 'not-found', reason: 'redirects to /gone, then 404 (no page)' });
    expect(at('/loop-a')).toEqual({ ok: false, kind: 'redirect', reason: 'redirect loop: /loop-a → /loop-b → /loop-a' });
  });

  it('treats the not-found answers, fallbacks included, as broken', () => {
    expect(at('/servces')).toEqual({ ok: false, kind: 'not-found', reason: '404 (no page)' });
    expect(at('/case-studies/unknown')).toEqual({ ok: false, kind: 'not-found', reason: '404 (no page)' });
    expect(at('/blog/no-such-post')).toEqual({ ok: false, kind: 'not-found', reason: '302 to /blog (no such page)' });
    expect(at('/assets/gone.js')).toEqual({ ok: false, kind: 'missing-file', reason: '404 (no file /assets/gone.js)' });
  });

  it('rejects a trailing slash, and says when the bare URL is missing too', () => {
    expect(at('/about/')).toEqual({ ok: false, kind: 'trailing-slash', reason: "trailing slash: the site's URLs have none" });
    expect(at('/servces/')).toEqual({ ok: false, kind: 'trailing-slash', reason: "trailing slash: the site's URLs have none; and /servces: 404 (no page)" });
    expect(at('/about/index.html')).toEqual({ ok: false, kind: 'non-canonical', reason: '301 to /about (not the canonical URL)' });
  });

  it('rejects a link to a page\'s file, which answers with a redirect to its URL', () => {
    expect(at('/about.html')).toEqual({ ok: false, kind: 'non-canonical', reason: '301 to /about (not the canonical URL)' });
    expect(at('/index.html')).toEqual({ ok: false, kind: 'non-canonical', reason: '301 to / (not the canonical URL)' });
    // The error page's file is no page's: it is there, and answers 404.
    expect(at('/404.html')).toEqual({ ok: false, kind: 'not-found', reason: '404 (no page)' });
  });
});

describe('resolveStaticTarget (a plain static host)', () => {
  const plain = new Set(['/index.html', '/docs/index.html', '/docs/my page.html', '/about.html', '/img/logo.png']);
  const host = (path: string) => resolveStaticTarget(path, plain);

  it('serves files, dir/index.html for dir/, and dir by way of its redirect to dir/', () => {
    expect(host('/')).toEqual({ ok: true, path: '/', file: '/index.html' });
    expect(host('/docs/')).toEqual({ ok: true, path: '/docs/', file: '/docs/index.html' });
    expect(host('/docs')).toEqual({ ok: true, path: '/docs/', file: '/docs/index.html' });
    expect(host('/docs/my%20page.html')).toEqual({ ok: true, path: '/docs/my%20page.html', file: '/docs/my page.html' });
    expect(host('/index.html')).toMatchObject({ ok: true, file: '/index.html' });
  });

  it('finds nothing the files do not hold, and says when only a pretty URL is missing', () => {
    expect(host('/img/')).toEqual({ ok: false, kind: 'missing-file', reason: '404 (no file /img/index.html)' });
    expect(host('/about.html/')).toEqual({ ok: false, kind: 'missing-file', reason: '404 (no file /about.html/index.html)' });
    expect(host('/about')).toEqual({ ok: false, kind: 'missing-file', reason: '404 (no file /about; /about.html exists, which only some hosts serve for /about)' });
  });
});
