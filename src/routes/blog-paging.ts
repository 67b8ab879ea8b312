/** Pure choices the blog pages make about posts: paging, related articles, descriptions. */

export const POSTS_PER_PAGE = 6;

/** One page of an article list. Page 1 lives at the list's own URL (/blog); there is no /blog/page/1. */
export interface ListPage<T> {
  number: number;
  url: string;
  items: T[];
}

/** Page `number` of the list at `base`: /blog, /blog/page/2; /blog/category/data-culture/page/2. */
export function listPageUrl(number: number, base = '/blog'): string {
  return number === 1 ? base : `${base}/page/${number}`;
}

export function blogPageUrl(number: number): string {
  return listPageUrl(number);
}

/** Splits posts (already in display order) into pages of the list at `base`; no posts still give one, empty, page 1. */
export function paginate<T>(posts: readonly T[], perPage = POSTS_PER_PAGE, base = '/blog'): ListPage<T>[] {
  if (!Number.isInteger(perPage) || perPage < 1) throw new RangeError(`perPage must be a positive integer, got ${perPage}`);
  const count = Math.max(1, Math.ceil(posts.length / perPage));
  return Array.from({ length: count }, (_, i) => ({
    number: i + 1,
    url: listPageUrl(i + 1, base),
    items: posts.slice(i * perPage, (i + 1) * perPage),
  }));
}

/**
 * The n most recent articles other than the one being read, from `posts` in newestFirst order (as
 * site.posts is). It reads at most n + 1 of them, so an article page costs the same however long the
 * blog grows.
 */
export function continueReading<T extends { slug: string }>(posts: readonly T[], slug: string, n = 2): T[] {
  const out: T[] = [];
  for (let i = 0; i < posts.length && out.length < n; i++) {
    const post = posts[i]!;
    if (post.slug !== slug) out.push(post);
  }
  return out;
}

/**
 * The numbered links a list page shows: the first and last pages, and two either side of the
 * current one. A link to every page would make each list page grow with the blog, and the list
 * pages together with its square.
 */
export function pageLinks(current: number, count: number, base = '/blog', around = 2): Array<{ number: number; url: string }> {
  const numbers = new Set([1, count]);
  for (let n = Math.max(1, current - around); n <= Math.min(count, current + around); n++) numbers.add(n);
  return [...numbers].sort((a, b) => a - b).map((number) => ({ number, url: listPageUrl(number, base) }));
}

/** Whitespace that collapsing changes: any but a single space between words. */
const SPACED = /^\s|\s$|[^\S ]|\s\s/;

/** The first `max` characters of the excerpt (whitespace collapsed), with no space left dangling at the cut. */
export function metaDescription(excerpt: string, max = 140): string {
  // An excerpt already in one line of single spaces (most are) is kept as it is: no copy to make.
  const text = SPACED.test(excerpt) ? excerpt.replace(/\s+/g, ' ').trim() : excerpt;
  // No more UTF-16 units than `max` means no more characters: nothing to cut (the usual case, and cheap).
  if (text.length <= max) return text;
  let end = 0;
  for (let n = 0; n < max && end < text.length; n++) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  return text.slice(0, end).trim();
}
