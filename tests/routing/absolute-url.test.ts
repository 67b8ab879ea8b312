import { describe, expect, it } from 'vitest';
import { absoluteUrl } from '../../src/routing/absolute-url.ts';

describe('absoluteUrl', () => {
  it('puts a site path under the site URL without a trailing slash, as every internal link is written', () => {
    expect(absoluteUrl('https://www.example.com', '/blog/what-is-data')).toBe('https://www.example.com/blog/what-is-data');
    expect(absoluteUrl('https://www.example.com/', '/about/')).toBe('https://www.example.com/about');
  });

  it('keeps the slash of the home page, which has no other form', () => {
    expect(absoluteUrl('https://www.example.com', '/')).toBe('https://www.example.com/');
  });
});
