import type { Post, SiteContent } from '../content/load.ts';
import { markedKey } from '../body-marker.ts';
import { hashOf } from '../hash.ts';
import { frontDigest, notedFrontDigest } from '../content/front-digest.ts';

/**
 * What every route is made from, but the article bodies, as one hash: the site the routes read
 * (SiteContent: every file's data, articles without the bodies kept in the build cache) and the code
 * that turns it into routes (`code`: the generator's own, the share cards' plan). A route's props are
 * a pure function of these and, for an article's page alone, of that article's body, which its
 * marker names (see body-marker.ts); tests/routes/route-inputs.test.ts holds the routes to that.
 * With it a rebuild knows, without writing out a route's props, that they are the last build's.
 */
export function siteInputsHash(site: SiteContent, ...code: string[]): string {
  const { settings, pages, collections, posts, caseStudies, legal, images } = site;
  return hashOf(...code, JSON.stringify({ settings, pages, collections, posts: posts.map(withoutBody), caseStudies, legal, images }));
}

/**
 * An article as its list cards, neighbours and feed see it: where a marker names its body, the body
 * (and what is read from it) left out, and its front matter as its digest (noted by the load, or else
 * worked out here alike: tests/cache/checked-front.test.ts holds the two together).
 */
function withoutBody(post: Post): unknown {
  if (markedKey(post.html) === undefined) return post;
  const noted = notedFrontDigest(post);
  if (noted !== undefined) return [post.slug, post.preview ?? null, noted];
  const { html: _html, toc: _toc, bodyImages: _images, slug, preview, ...front } = post;
  return [slug, preview ?? null, frontDigest(front)];
}
