import { describe, expect, it } from 'vitest';
import { blogPageUrl, continueReading, metaDescription, pageLinks, paginate } from '../../src/routes/blog-paging.ts';
import { newestFirst } from '../../src/content/article-order.ts';
import { formatDate } from '../../src/routes/date-label.ts';

/** n posts, newest first, one a day back from 2025-10-31. */
function posts(n: number) {
  return Array.from({ length: n }, (_, i) => ({ slug: `post-${i + 1}`, date: `2025-10-${String(31 - i).padStart(2, '0')}` }));
}

describe('paginate', () => {
  it.each([
    [0, [0]],
    [1, [1]],
    [6, [6]],
    [7, [6, 1]],
    [12, [6, 6]],
    [13, [6, 6, 1]],
  ])('puts %i posts on pages of %j', (n, sizes) => {
    expect(paginate(posts(n)).map((p) => p.items.length)).toEqual(sizes);
  });

  it('numbers pages from 1, with page 1 at /blog and no /blog/page/1', () => {
    const pages = paginate(posts(13));
    expect(pages.map((p) => [p.number, p.url])).toEqual([[1, '/blog'], [2, '/blog/page/2'], [3, '/blog/page/3']]);
    expect(pages.map((p) => p.url)).not.toContain('/blog/page/1');
    expect(blogPageUrl(1)).toBe('/blog');
  });

  it('keeps the order it is given, every post exactly once', () => {
    const all = posts(13);
    expect(paginate(all).flatMap((p) => p.items)).toEqual(all);
  });

  it('takes another page size and refuses a meaningless one', () => {
    expect(paginate(posts(5), 2).map((p) => p.items.length)).toEqual([2, 2, 1]);
    expect(() => paginate(posts(5), 0)).toThrow(RangeError);
  });
});

describe('continueReading', () => {
  const all = posts(8);

  it('gives the two most recent other articles, newest first', () => {
    expect(continueReading(all, 'post-5').map((p) => p.slug)).toEqual(['post-1', 'post-2']);
  });

  it('leaves out the article being read, even when it is the newest', () => {
    expect(continueReading(all, 'post-1').map((p) => p.slug)).toEqual(['post-2', 'post-3']);
    expect(continueReading(all, 'post-2').map((p) => p.slug)).toEqual(['post-1', 'post-3']);
  });

  it('reads the order newestFirst gives, whatever order the posts came in', () => {
    const shuffled = [all[6]!, all[2]!, all[7]!, all[0]!, all[4]!];
    expect(continueReading(newestFirst(shuffled), 'post-8').map((p) => p.slug)).toEqual(['post-1', 'post-3']);
  });

  it('looks at no more than n + 1 posts, however many there are', () => {
    const many = posts(20);
    let reads = 0;
    const counted = new Proxy(many, { get: (t, k, r) => { if (typeof k === 'string' && /^\d+$/.test(k)) reads++; return Reflect.get(t, k, r); } });
    expect(continueReading(counted, 'post-2').map((p) => p.slug)).toEqual(['post-1', 'post-3']);
    expect(reads).toBeLessThanOrEqual(3);
  });

  it('gives fewer when there are fewer others, and n of them when asked', () => {
    expect(continueReading(posts(2), 'post-1').map((p) => p.slug)).toEqual(['post-2']);
    expect(continueReading(posts(1), 'post-1')).toEqual([]);
    expect(continueReading(all, 'post-1', 3)).toHaveLength(3);
  });

  it('breaks a tie on date by slug, so the choice is stable', () => {
    const tied = [{ slug: 'b', date: '2025-01-01' }, { slug: 'a', date: '2025-01-01' }, { slug: 'c', date: '2024-01-01' }];
    expect(newestFirst(tied).map((p) => p.slug)).toEqual(['a', 'b', 'c']);
  });
});

describe('pageLinks', () => {
  const numbers = (current: number, count: number) => pageLinks(current, count).map((l) => l.number);

  it('links every page of a short list', () => {
    expect(numbers(1, 1)).toEqual([1]);
    expect(numbers(2, 2)).toEqual([1, 2]);
    expect(numbers(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('links the first, the last and two either side of the current page of a long list', () => {
    expect(numbers(1, 400)).toEqual([1, 2, 3, 400]);
    expect(numbers(200, 400)).toEqual([1, 198, 199, 200, 201, 202, 400]);
    expect(numbers(400, 400)).toEqual([1, 398, 399, 400]);
  });

  it('links the pages of a category list under its own address', () => {
    const base = '/blog/category/data-culture';
    expect(pageLinks(3, 9, base)[0]).toEqual({ number: 1, url: base });
    expect(pageLinks(3, 9, base).at(-1)).toEqual({ number: 9, url: `${base}/page/9` });
  });

  it('gives each link the page URL, with page 1 at /blog', () => {
    expect(pageLinks(3, 9)[0]).toEqual({ number: 1, url: '/blog' });
    expect(pageLinks(3, 9).at(-1)).toEqual({ number: 9, url: '/blog/page/9' });
  });
});

describe('metaDescription', () => {
  const long = 'AI is only as good as the data you feed it. Before investing in AI tools, check your organisation for these five warning signs that your data isn\'t ready.';

  it('is exactly the first 140 characters of a longer excerpt', () => {
    expect(long.length).toBeGreaterThan(140);
    expect(metaDescription(long)).toBe(long.slice(0, 140));
    expect(metaDescription(long)).toHaveLength(140);
  });

  it('counts characters, not UTF-16 units, and never cuts one in half', () => {
    const astral = `${'📊'.repeat(139)}ab`;
    expect(metaDescription(astral)).toBe(`${'📊'.repeat(139)}a`);
    expect([...metaDescription(`${'a'.repeat(139)}📊📊`)]).toHaveLength(140);
    expect(metaDescription(`${'a'.repeat(139)}📊📊`).endsWith('📊')).toBe(true);
  });

  it('collapses every kind and run of whitespace as the slow rule does, and keeps single-spaced text as it is', () => {
    const slow = (text: string) => text.replace(/\s+/g, ' ').trim();
    const spaces = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', ' \n '];
    for (const space of spaces) {
      for (const text of [`a${space}b`, `${space}a b`, `a b${space}`, `${space}`, `a${space}${space}b c`]) expect(metaDescription(text), JSON.stringify(text)).toBe(slow(text));
    }
    expect(metaDescription('Plain words, one space apart.')).toBe('Plain words, one space apart.');
  });

  it('returns a shorter excerpt whole', () => {
    expect(metaDescription('Short and to the point.')).toBe('Short and to the point.');
  });

  it('returns an excerpt of exactly 140 characters whole', () => {
    const exact = 'x'.repeat(140);
    expect(metaDescription(exact)).toBe(exact);
  });

  it('trims a space left at the cut, and whitespace around the excerpt', () => {
    const cutAtSpace = `${'a'.repeat(139)} and more`;
    expect(metaDescription(cutAtSpace)).toBe('a'.repeat(139));
    expect(metaDescription('  padded excerpt \n')).toBe('padded excerpt');
  });

  it('collapses line breaks from folded YAML into single spaces', () => {
    expect(metaDescription('one\n  two\tthree')).toBe('one two three');
  });

  it('takes another maximum', () => {
    expect(metaDescription('abcdef', 3)).toBe('abc');
  });
});

describe('formatDate', () => {
  it('writes an ISO date the UK way', () => {
    expect(formatDate('2025-09-24')).toBe('24 September 2025');
    expect(formatDate('2025-08-27')).toBe('27 August 2025');
  });

  it('keeps the calendar date in both GMT and BST months', () => {
    expect(formatDate('2025-01-01')).toBe('1 January 2025');
    expect(formatDate('2025-03-30')).toBe('30 March 2025');
    expect(formatDate('2025-10-26')).toBe('26 October 2025');
    expect(formatDate('2025-12-31')).toBe('31 December 2025');
  });

  it('reads a full timestamp in London time', () => {
    expect(formatDate('2025-06-30T23:30:00Z')).toBe('1 July 2025');
  });

  it('refuses what is not a date', () => {
    expect(() => formatDate('next Tuesday')).toThrow(RangeError);
  });
});
