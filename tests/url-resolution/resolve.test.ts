import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolve, type RoutingTable } from '../../src/url-resolution/resolve.ts';

const table: RoutingTable = {
  pageUrls: ['/', '/about', '/blog', '/blog/page/2', '/blog/what-is-data', '/case-studies/dc-thomson', '/services/data-visualisation'],
  redirects: { '/services/analytics-and-reporting': { to: '/services/data-visualisation', status: 301 } },
  fallbacks: [
    { prefix: '/blog/', redirect: '/blog', status: 302 },
    { prefix: '/case-studies/', file: '/case-studies/404.html', status: 404 },
  ],
  notFound: '/404.html',
};

describe('resolve', () => {
  it.each([
    ['/', { kind: 'file', file: '/index.html', status: 200 }],
    ['/about', { kind: 'file', file: '/about.html', status: 200 }],
    ['/blog', { kind: 'file', file: '/blog.html', status: 200 }],
    ['/blog/what-is-data', { kind: 'file', file: '/blog/what-is-data.html', status: 200 }],
    ['/blog/page/2', { kind: 'file', file: '/blog/page/2.html', status: 200 }],
    ['/assets/site-abc123.css', { kind: 'file', file: '/assets/site-abc123.css', status: 200 }],
    ['/sitemap.xml', { kind: 'file', file: '/sitemap.xml', status: 200 }],
  ])('serves %s from its file', (path, expected) => {
    expect(resolve(path, table)).toEqual(expected);
  });

  it.each([
    ['/about/', '/about'],
    ['/blog/what-is-data///', '/blog/what-is-data'],
    ['/about/index.html', '/about'],
    ['/blog/page/2/index.html', '/blog/page/2'],
    ['/index.html', '/'],
    ['/about.html', '/about'],
    ['/blog.html', '/blog'],
    ['/blog/what-is-data.html', '/blog/what-is-data'],
    ['/blog/page/2.html', '/blog/page/2'],
    ['/about.html/', '/about'],
    ['/about.html/index.html', '/about'],
    ['//about.html', '/about'],
    ['//evil.example/', '/evil.example'],
    ['//evil.example', '/evil.example'],
  ])('normalises %s with a 301 to %s', (path, location) => {
    expect(resolve(path, table)).toEqual({ kind: 'redirect', location, status: 301 });
  });

  it('follows the redirect table', () => {
    expect(resolve('/services/analytics-and-reporting', table)).toEqual({ kind: 'redirect', location: '/services/data-visualisation', status: 301 });
  });

  it('sends an unknown article to /blog with a 302', () => {
    expect(resolve('/blog/no-such-post', table)).toEqual({ kind: 'redirect', location: '/blog', status: 302 });
  });

  it('answers an unknown case study with its not-found page and 404', () => {
    expect(resolve('/case-studies/nobody', table)).toEqual({ kind: 'file', file: '/case-studies/404.html', status: 404 });
  });

  it('answers the error pages\' own files with their status', () => {
    expect(resolve('/404.html', table)).toEqual({ kind: 'file', file: '/404.html', status: 404 });
    expect(resolve('/case-studies/404.html', table)).toEqual({ kind: 'file', file: '/case-studies/404.html', status: 404 });
  });

  it('serves an .html file that is no page\'s as the file it is', () => {
    expect(resolve('/google1234abcd.html', table)).toEqual({ kind: 'file', file: '/google1234abcd.html', status: 200 });
    expect(resolve('/.html', table)).toEqual({ kind: 'file', file: '/.html', status: 200 });
    expect(resolve('/contact.html', table)).toEqual({ kind: 'file', file: '/contact.html', status: 200 });
  });

  it('leaves an .html name of a redirect or an unknown article to the file, as it always did', () => {
    expect(resolve('/services/analytics-and-reporting.html', table)).toEqual({ kind: 'file', file: '/services/analytics-and-reporting.html', status: 200 });
    expect(resolve('/blog/no-such-post.html', table)).toEqual({ kind: 'file', file: '/blog/no-such-post.html', status: 200 });
  });

  it('answers any other unknown path with 404.html and 404', () => {
    expect(resolve('/nowhere', table)).toEqual({ kind: 'file', file: '/404.html', status: 404 });
    expect(resolve('/services/unknown', table)).toEqual({ kind: 'file', file: '/404.html', status: 404 });
  });
});

describe('no redirect leaves the site', () => {
  const ORIGIN = 'https://www.example.com';
  /** Where a browser on one of the site's pages goes when it follows `location`. */
  const followed = (location: string) => new URL(location, `${ORIGIN}/blog/what-is-data`);

  it.each([
    ['/\\evil.com/'],
    ['/\\evil.com'],
    ['/\\/evil.com/'],
    ['https://evil.com/x/'],
    ['http://evil.com'],
    ['//evil.com\\x/'],
    ['/\t/evil.com/'],
    ['/about\n/'],
    ['/a b/'],
    ['*'],
    [''],
  ])('refuses the request target %j with 400', (target) => {
    expect(resolve(target, table)).toEqual({ kind: 'bad-request', status: 400 });
  });

  // Paths made of the pieces that turn a path into another host, and of anything at all.
  const piece = fc.oneof(
    fc.constantFrom('/', '//', '\\', '/\\', '\\/', '.', '..', ':', '@', '?', '#', '%2F', '%5C', '%09', '\t', '\n', '\r', ' ', '\u0000', '\u00a0',
      'evil.com', 'https:', 'http:', 'javascript:', 'index.html', '.html', 'about', 'blog', 'case-studies', 'services', 'what-is-data'),
    fc.string({ unit: 'binary', maxLength: 6 }),
  );
  const target = fc.oneof(
    fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
    fc.array(piece, { maxLength: 8 }).map((parts) => `/${parts.join('')}`),
    fc.string({ unit: 'binary', maxLength: 30 }),
  );

  it('every Location is a same-origin path, whatever the request target', () => {
    fc.assert(fc.property(target, (path) => {
      const answer = resolve(path, table);
      if (answer.kind !== 'redirect') return;
      const location = answer.location;
      expect(location, path).toMatch(/^\/(?![/\\])/);
      // Nothing a browser drops or reads as a slash, and no scheme.
      expect(location, path).toMatch(/^[\x21-\x5b\x5d-\x7e]+$/);
      expect(location, path).not.toMatch(/^[a-z][a-z0-9+.-]*:/i);
      expect(followed(location).origin, path).toBe(ORIGIN);
      // The query string the server appends cannot change that either.
      expect(followed(`${location}?next=//evil.com`).origin, path).toBe(ORIGIN);
    }), { numRuns: 5000 });
  });

  it('still normalises every path a browser sends', () => {
    fc.assert(fc.property(fc.webPath(), (path) => {
      const sent = new URL(`${ORIGIN}${path.startsWith('/') ? '' : '/'}${path}`).pathname;
      expect(resolve(sent, table).kind, sent).not.toBe('bad-request');
    }), { numRuns: 2000 });
  });
});
