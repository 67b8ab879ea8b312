/** Pure choices the insights pages make about posts: paging, related articles, descriptions, dates. */

export const POSTS_PER_PAGE = 6;

/** One page of the article list. Page 1 lives at /blog; there is no /blog/page/1. */
export interface ListPage<T> {
  number: number;
  url: string;
  items: T[];
}

export function blogPageUrl(number: number): string {
  return number === 1 ? '/blog' : `/blog/page/${number}`;
}

/** Splits posts (already in display order) into pages; no posts still give one, empty, page 1. */
export function paginate<T>(posts: readonly T[], perPage = POSTS_PER_PAGE): ListPage<T>[] {
  if (!Number.isInteger(perPage) || perPage < 1) throw new RangeError(`perPage must be a positive integer, got ${perPage}`);
  const count = Math.max(1, Math.ceil(posts.length / perPage));
  return Array.from({ length: count }, (_, i) => ({
    number: i + 1,
    url: blogPageUrl(i + 1),
    items: posts.slice(i * perPage, (i + 1) * perPage),
  }));
}

/**
 * Newest first by ISO date; equal dates fall back to the slug so the order never depends on input
 * order. The one sort of the articles: everything else reads this order. Plain code-unit comparison,
 * not localeCompare, which costs a collator call per comparison: ISO dates and URL slugs sort the same
 * either way.
 */
export function newestFirst<T extends { slug: string; date: string }>(posts: readonly T[]): T[] {
  return [...posts].sort((a, b) => (a.date === b.date ? (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0) : a.date < b.date ? 1 : -1));
}

/**
 * The n most recent articles other than the one being read, from `posts` in newestFirst order. It
 * reads at most n + 1 of them, so an article page costs the same however long the blog grows.
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
export function pageLinks(current: number, count: number, around = 2): Array<{ number: number; url: string }> {
  const numbers = new Set([1, count]);
  for (let n = Math.max(1, current - around); n <= Math.min(count, current + around); n++) numbers.add(n);
  return [...numbers].sort((a, b) => a - b).map((number) => ({ number, url: blogPageUrl(number) }));
}

/** The first `max` characters of the excerpt (whitespace collapsed), with no space left dangling at the cut. */
export function metaDescription(excerpt: string, max = 140): string {
  const chars = Array.from(excerpt.replace(/\s+/g, ' ').trim());
  return chars.slice(0, max).join('').trim();
}

const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' });

/** '2025-09-24' → '24 September 2025', read as a UK calendar date whatever the machine's zone. */
export function formatDate(iso: string): string {
  const when = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T12:00:00Z` : iso);
  if (Number.isNaN(when.getTime())) throw new RangeError(`not an ISO date: '${iso}'`);
  return longDate.format(when);
}
