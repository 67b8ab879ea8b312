import { describe, expect, it } from 'vitest';
import { absoluteUrl } from '../../src/url-resolution/absolute-url.ts';

describe('absoluteUrl', () => {
  it('puts a site path under the site URL without a trailing slash, as every internal link is written', () => {
    expect(absoluteUrl('https://www.example.com', '/blog/what-is-data')).toBe('https://www.example.com/blog/what-is-data');
    expect(absoluteUrl('https://www.example.com/', '/about/')).toBe('https://www.example.com/about');
  });

  it('keeps the slash of the home page, which has no other form', () => {
    expect(absoluteUrl('https://www.example.com', '/')).toBe('https://www.example.com/');
  });
});

describe('absoluteUrl, joined as text where it can be', () => {
  const slow = (siteUrl: string, path: string) => {
    const url = new URL(path, siteUrl).href;
    return path === '/' ? url : url.replace(/\/$/, '');
  };
  const sites = ['https://www.example.com', 'https://www.example.com/', 'HTTPS://WWW.Example.COM', 'https://example.com:443', 'http://localhost:8080', 'https://xn--bcher-kva.example', 'https://www.example.com/base/', 'https://user@example.com', 'https://example.com/?q=1'];
  const paths = ['/', '/blog', '/blog/', '/blog/what-is-data', '/og/home-a00eade2721e.png', '/images/a.b.webp', '/blog/./x', '/blog/../x', '/.well-known/x', '//evil.example/x', '/a//b', '/a%20b', '/a b', '/café', '/a?b=1', '/a#b', 'relative', '/~user/', '/a_b-c~d/e.f'];

  it('gives what the URL parser gives, for plain and awkward paths under every kind of site URL', () => {
    for (const site of sites) for (const path of paths) expect(absoluteUrl(site, path), `${site} + ${path}`).toBe(slow(site, path));
  });

  it('gives what the URL parser gives for random paths of URL characters', () => {
    const alphabet = 'aZ09-._~/%?#:@!$&()*+,;= é';
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    // A path the parser refuses ('//:', a bad host) is refused alike.
    const outcome = (join: () => string) => { try { return join(); } catch (error) { return `throws ${(error as Error).name}`; } };
    let joined = 0;
    for (let n = 0; n < 3000; n++) {
      const path = '/' + Array.from({ length: 1 + Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      const expected = outcome(() => slow('https://www.example.com', path));
      if (!expected.startsWith('throws')) joined++;
      expect(outcome(() => absoluteUrl('https://www.example.com', path)), path).toBe(expected);
    }
    expect(joined).toBeGreaterThan(2000);
  });
});
