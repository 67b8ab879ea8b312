import { z } from 'zod';

/** The field rules every content schema shares, so each is written (and worded) once. */

/** Any words: trimmed, never empty. */
export const text = z.string().trim().min(1);

/** A URL slug: what a file name or a link to one may be. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const slug = z.string().regex(SLUG_PATTERN, 'expected a slug of lower-case letters, digits and single hyphens');

/** Search engines show about 155 characters; shorter wastes the space, longer is cut. */
export const metaDescription = text
  .min(120, 'is too short for a meta description: write 120 to 160 characters')
  .max(160, 'is too long for a meta description: write 120 to 160 characters');

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
