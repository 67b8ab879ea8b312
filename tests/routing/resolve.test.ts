import { describe, expect, it } from 'vitest';
import { resolve, type RoutingTable } from '../../src/routing/resolve.ts';

const table: RoutingTable = {
  pages: ['/', '/about', '/blog', '/blog/page/2', '/blog/what-is-data', '/case-studies/dc-thomson', '/services/data-visualisation'],
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
    ['/about', { kind: 'file', file: '/about/index.html', status: 200 }],
    ['/blog/page/2', { kind: 'file', file: '/blog/page/2/index.html', status: 200 }],
    ['/assets/site-abc123.css', { kind: 'file', file: '/assets/site-abc123.css', status: 200 }],
    ['/sitemap.xml', { kind: 'file', file: '/sitemap.xml', status: 200 }],
  ])('serves %s from its file', (path, expected) => {
    expect(resolve(path, table)).toEqual(expected);
  });

  it.each([
    ['/about/', '/about'],
    ['/blog/what-is-data///', '/blog/what-is-data'],
    ['/about/index.html', '/about'],
    ['/index.html', '/'],
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

  it('answers any other unknown path with 404.html and 404', () => {
    expect(resolve('/nowhere', table)).toEqual({ kind: 'file', file: '/404.html', status: 404 });
    expect(resolve('/services/unknown', table)).toEqual({ kind: 'file', file: '/404.html', status: 404 });
  });
});
