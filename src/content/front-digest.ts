import { hashOf } from '../hash.ts';

/**
 * The digest of a markdown file's front matter as the schema returned it: what the site's inputs
 * hash (routes/route-inputs.ts) takes of an article whose body the build cache keeps apart, in place of
 * its whole front matter written out (ten thousand of them cost every rebuild 50 ms). The build cache
 * keeps it with the checked front matter; a load notes it on the article it makes from that.
 */
export const frontDigest = (data: object): string => hashOf(JSON.stringify(data));

const noted = new WeakMap<object, string>();

/** `digest` is frontDigest of the front matter `article` was made from (its own fields, as the load spread them). */
export function noteFrontDigest(article: object, digest: string): void {
  noted.set(article, digest);
}

/** The digest noted for this very object, if the load noted one (a copy, such as a preview's marked article, has none). */
export const notedFrontDigest = (article: object): string | undefined => noted.get(article);
