/**
 * The one place that decides which articles a build contains. It runs right after load, so every
 * later stage (routes, lists, Continue Reading, feed, sitemap, routing table, link checks) reads only
 * what is published and none of them can forget to filter.
 */
import { postFile, sourceLinks, type Post, type Site } from './load.ts';
import type { ContentError } from './errors.ts';
import { instantOf, londonDateTime, nextChange, publicationStatus, type PublicationStatus } from './publication.ts';

/** `production` keeps only live articles; `preview` (site serve) also keeps drafts and scheduled ones, marked. */
export type BuildMode = 'production' | 'preview';

export interface ArticleFigures {
  live: number;
  draft: number;
  scheduled: number;
  expired: number;
  /** The next moment a rebuild changes what is live (ISO, and in UK time), and what it changes; null when nothing is dated. */
  nextChange: { at: string; local: string; publishes: string[]; expires: string[] } | null;
}

export interface Published {
  site: Site;
  articles: ArticleFigures;
  /** Links from live content to an article this build leaves out: build errors in production, warnings in preview. */
  unpublishedLinks: ContentError[];
}

function why(post: Post, status: PublicationStatus): string {
  if (status === 'draft') return 'it is a draft';
  const at = status === 'scheduled' ? post.publishDate : post.expiryDate;
  const when = at ? londonDateTime(instantOf(at)!) : '';
  return status === 'scheduled' ? `it is scheduled for ${when}` : `it expired at ${when}`;
}

/** The article slug a link points at, if it is /blog/<slug> on this site (root-relative or absolute). */
export function linkedPostSlug(href: string, siteUrl: string): string | undefined {
  let pathname = href;
  if (/^https?:\/\//i.test(href)) {
    try {
      const url = new URL(href);
      if (url.origin !== new URL(siteUrl).origin) return undefined;
      pathname = url.pathname;
    } catch { return undefined; }
  }
  return /^\/blog\/([^/?#]+)\/?(?:[?#].*)?$/.exec(pathname)?.[1];
}

function linkErrors(site: Site, left: Map<string, { post: Post; status: PublicationStatus }>, siteUrl: string): ContentError[] {
  // Every article is live: no link can lead to one left out (and a blog's links are tens of thousands).
  if (!left.size) return [];
  const links = sourceLinks(site);
  const leftFiles = new Set([...left.keys()].map(postFile));
  const errors: ContentError[] = [];
  for (const link of links) {
    if (leftFiles.has(link.file)) continue;
    const slug = linkedPostSlug(link.href, siteUrl);
    const target = slug === undefined ? undefined : left.get(slug);
    if (!target) continue;
    errors.push({
      file: link.file, line: link.line, path: link.path,
      message: `links to /blog/${slug}, which this build leaves out because ${why(target.post, target.status)} (${postFile(slug!)})`,
      hint: 'remove the link until that article is live, or publish the article first',
    });
  }
  return errors;
}

/** The Site as it is published at `now`: a pure function of the loaded content, the clock and the mode. */
export function publishedSite(site: Site, now: Date, mode: BuildMode): Published {
  const articles: ArticleFigures = { live: 0, draft: 0, scheduled: 0, expired: 0, nextChange: null };
  const kept: Post[] = [];
  const left = new Map<string, { post: Post; status: PublicationStatus }>();
  for (const post of site.posts) {
    const status = publicationStatus(post, now);
    articles[status]++;
    if (status === 'live') { kept.push(post); continue; }
    left.set(post.slug, { post, status });
    // Expired articles stay out of a preview too: serve shows what is still to come, not what has gone.
    if (mode === 'preview' && (status === 'draft' || status === 'scheduled')) kept.push({ ...post, preview: status });
  }
  const next = nextChange(site.posts, now);
  if (next) articles.nextChange = { at: next.at.toISOString(), local: londonDateTime(next.at), publishes: next.publishes, expires: next.expires };
  return {
    site: Object.freeze({ ...site, posts: kept }),
    articles,
    unpublishedLinks: linkErrors(site, left, site.settings.url),
  };
}
