import { describe, expect, it } from 'vitest';
import { summary } from '../../src/routes/blog.ts';
import type { Post } from '../../src/content/load.ts';

const post = (words: number, readingTime?: string): Post => ({
  slug: `p${words}`, title: 'T', excerpt: 'E', date: '2026-01-01', faq: [], toc: [], bodyImages: [],
  html: `<p>${Array.from({ length: words }, (_, i) => `word${i}`).join(' ')}</p>`, ...(readingTime ? { readingTime } : {}),
}) as unknown as Post;

describe("an article's reading time", () => {
  it('is counted from its words when the front matter gives none, and kept as written when it does', () => {
    expect(summary(post(90)).readingTime).toBe('1 min read');
    expect(summary(post(1000)).readingTime).toBe('5 min read');
    expect(summary(post(1700)).readingTime).toBe('9 min read');
    expect(summary(post(90, '12 min read')).readingTime).toBe('12 min read');
  });
});
