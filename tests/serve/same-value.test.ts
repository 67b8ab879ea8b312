import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { sameValue } from '../../src/serve/same-value.ts';

describe('sameValue', () => {
  it('tells routes apart as a deep comparison does', () => {
    const card = { slug: 'a', title: 'A', categories: [{ name: 'Data', href: '/blog/category/data' }] };
    expect(sameValue({ props: { posts: [card] }, meta: { title: 'x' } }, { props: { posts: [card] }, meta: { title: 'x' } })).toBe(true);
    expect(sameValue({ props: { posts: [card] } }, { props: { posts: [{ ...card, title: 'B' }] } })).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameValue({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(sameValue([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(sameValue(null, {})).toBe(false);
    expect(sameValue(undefined, { a: 1 })).toBe(false);
  });

  it('agrees with node:util on any JSON value, and on a changed copy of one', () => {
    // Through JSON, as routes are plain data: -0 becomes 0, which === and node:util would tell apart.
    const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    fc.assert(fc.property(json, json, (a, b) => {
      expect(sameValue(a, structuredClone(a))).toBe(true);
      expect(sameValue(a, b)).toBe(isDeepStrictEqual(a, b));
    }));
  });
});
