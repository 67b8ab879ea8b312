// The field rules every content schema shares, so each is written (and worded) once.
import { z } from 'zod';

/** Any words: trimmed, never empty. */
export const text = z.string().trim().min(1);

/** A URL slug: what a file name or a link to one may be. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const slug = z.string().regex(SLUG_PATTERN, 'expected a slug of lower-case letters, digits and single hyphens');

/** Search engines show about 155 characters; shorter wastes the space, longer is cut. */
export const metaDescription = text
  .min(120, 'is too short for a meta description: write 120 to 160 characters')
  .max(160, 'is too long for a meta description: write 120 to 160 characters');

/** The longest excerpt: it opens the article and its feed entry whole, and is cut to three lines on the article's card. */
export const EXCERPT_MAX = 300;
export const excerpt = text.max(EXCERPT_MAX, `is too long: an excerpt is at most ${EXCERPT_MAX} characters`);
