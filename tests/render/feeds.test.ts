import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSite, type Site } from '../../src/content/load.ts';
import { newestFirst } from '../../src/content/article-order.ts';
import { atomFeed, FEED_ENTRIES } from '../../src/render/feeds.ts';

let site: Site;
beforeAll(async () => { site = await loadSite(path.resolve('content')); });

describe('the Atom feed', () => {
  it('lists the newest articles, newest first, and no more than a reader needs however long the blog grows', () => {
    const posts = newestFirst(Array.from({ length: FEED_ENTRIES + 25 }, (_, i) => ({
      ...site.posts[0]!, slug: `article-${i}`, title: `Article ${i}`, date: new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10),
    })));
    const feed = atomFeed({ ...site, posts }, new Date('2026-01-01T00:00:00Z'))!;
    const slugs = [...feed.matchAll(/<id>[^<]*\/blog\/(article-\d+)<\/id>/g)].map((m) => m[1]);
    expect(slugs).toHaveLength(FEED_ENTRIES);
    expect(slugs[0]).toBe(`article-${FEED_ENTRIES + 24}`);
    expect(slugs.at(-1)).toBe('article-25');
  });

  it('lists every article of a blog shorter than that', () => {
    const feed = atomFeed(site, new Date('2026-01-01T00:00:00Z'))!;
    expect(feed.match(/<entry>/g)).toHaveLength(site.posts.length);
  });
});
