/** Categories are free text in front matter; each one in use has pages at /blog/category/<slug>. */
import type { ContentError } from './errors.ts';
import { slugify } from './markdown.ts';

/** What an article naming no category is shown under and listed in (the default category a teaser shows). */
export const DEFAULT_CATEGORIES: readonly string[] = ['Data'];

export function categoriesOf(post: { categories?: string[] }): readonly string[] {
  return post.categories?.length ? post.categories : DEFAULT_CATEGORIES;
}

/**
 * A category's part of the URL, by the rule headings get their anchors: lower case, accents and
 * apostrophes dropped, every other run of characters a single hyphen. 'Data & AI' → 'data-ai'.
 */
export function categorySlug(name: string): string {
  let slug = slugs.get(name);
  if (slug === undefined) {
    slug = slugify(name);
    // A blog has a few dozen categories; each teaser of each list asks for its own.
    if (slugs.size < 10_000) slugs.set(name, slug);
  }
  return slug;
}
const slugs = new Map<string, string>();

export function categoryUrl(name: string): string {
  return `/blog/category/${categorySlug(name)}`;
}

/** Where an article names a category, for errors that point at the line. */
export interface CategoryUse { name: string; file: string; line?: number; path: string }

/**
 * Names that would share a URL ('Data Culture' and 'data culture') or make none ('!!!'). The first
 * spelling met wins; each other spelling is an error at its own line naming the first.
 */
export function categoryClashes(uses: readonly CategoryUse[]): ContentError[] {
  const first = new Map<string, CategoryUse>();
  const errors: ContentError[] = [];
  for (const use of uses) {
    const slug = categorySlug(use.name);
    if (!slug) {
      errors.push({ file: use.file, line: use.line, path: use.path, message: `"${use.name}" has no letters or digits to make the category's address from`, hint: 'name the category in words' });
      continue;
    }
    const seen = first.get(slug);
    if (!seen) first.set(slug, use);
    else if (seen.name !== use.name) {
      errors.push({
        file: use.file, line: use.line, path: use.path,
        message: `"${use.name}" and "${seen.name}" (${seen.line ? `${seen.file}:${seen.line}` : seen.file}) would share the address /blog/category/${slug}`,
        hint: `spell the category the same way in every article, e.g. "${seen.name}"`,
      });
    }
  }
  return errors;
}
