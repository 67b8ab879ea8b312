import { describe, expect, it } from 'vitest';
import { categoriesOf, categoryClashes, categorySlug, categoryUrl } from '../../src/content/categories.ts';
import { formatContentError } from '../../src/content/errors.ts';

describe('category addresses', () => {
  it('are lower case, hyphenated, without accents, apostrophes or punctuation', () => {
    expect(categorySlug('Data Strategy')).toBe('data-strategy');
    expect(categorySlug('AI Readiness')).toBe('ai-readiness');
    expect(categorySlug('Data & AI')).toBe('data-ai');
    expect(categorySlug("Leaders' Café")).toBe('leaders-cafe');
    expect(categorySlug('  Data -- Quality  ')).toBe('data-quality');
    expect(categoryUrl('Data Culture')).toBe('/blog/category/data-culture');
  });

  it("file an article that names no category under the cards' default, 'Data'", () => {
    expect(categoriesOf({})).toEqual(['Data']);
    expect(categoriesOf({ categories: [] })).toEqual(['Data']);
    expect(categoriesOf({ categories: ['Leadership'] })).toEqual(['Leadership']);
  });
});

describe('categoryClashes', () => {
  it('reports a second spelling that makes the same address, at its line, naming the first', () => {
    const errors = categoryClashes([
      { name: 'Data Culture', file: 'content/blog/a.md', line: 7, path: 'categories[0]' },
      { name: 'Data Culture', file: 'content/blog/b.md', line: 8, path: 'categories[1]' },
      { name: 'data culture', file: 'content/blog/c.md', line: 9, path: 'categories[0]' },
      { name: 'Data-Culture', file: 'content/blog/d.md', line: 6, path: 'categories[2]' },
    ]);
    expect(errors.map(formatContentError)).toEqual([
      'content/blog/c.md:9 categories[0]: "data culture" and "Data Culture" (content/blog/a.md:7) would share the address /blog/category/data-culture (hint: spell the category the same way in every article, e.g. "Data Culture")',
      'content/blog/d.md:6 categories[2]: "Data-Culture" and "Data Culture" (content/blog/a.md:7) would share the address /blog/category/data-culture (hint: spell the category the same way in every article, e.g. "Data Culture")',
    ]);
  });

  it('reports a name that makes no address', () => {
    const [error] = categoryClashes([{ name: '!!!', file: 'content/blog/a.md', line: 7, path: 'categories[0]' }]);
    expect(error).toMatchObject({ file: 'content/blog/a.md', line: 7, message: '"!!!" has no letters or digits to make the category\'s address from' });
  });

  it('accepts distinct categories', () => {
    expect(categoryClashes([
      { name: 'Data Culture', file: 'a', path: '' },
      { name: 'Data Quality', file: 'a', path: '' },
      { name: 'Data Culture', file: 'b', path: '' },
    ])).toEqual([]);
  });
});
