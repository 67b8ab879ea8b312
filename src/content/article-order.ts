// The articles' one order, and what one without an image shows: read by the loader, the routes and the templates alike.

/** The placeholder a post without an image shows, and shares. */
export const BLOG_PLACEHOLDER_IMAGE = '/images/blog-placeholder.svg';

/**
 * Newest first by ISO date; equal dates fall back to the slug so the order never depends on input
 * order. The one sort of the articles: everything else reads this order. Plain code-unit comparison,
 * not localeCompare, which costs a collator call per comparison: ISO dates and URL slugs sort the same
 * either way.
 */
export function newestFirst<T extends { slug: string; date: string }>(posts: readonly T[]): T[] {
  return [...posts].sort((a, b) => (a.date === b.date ? (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0) : a.date < b.date ? 1 : -1));
}
