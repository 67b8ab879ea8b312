import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSite, type Post, type Site } from '../../src/content/load.ts';
import { publishedSite } from '../../src/content/published.ts';
import { bodyMarker } from '../../src/body-marker.ts';
import { routeBodyKey } from '../../src/render/article-body.ts';
import { routes } from '../../src/routes/table.ts';
import { siteInputsHash } from '../../src/routes/route-inputs.ts';

// A rebuild takes a route's key from the last build while the route's inputs are unchanged: the
// site but the article bodies (siteInputsHash), and for an article's page that article's body. That is
// exact only if no route reads another article's body, or anything of its own body but through the
// marker's key. These tests hold every route of the real site to it.

let site: Site;
beforeAll(async () => {
  site = publishedSite(await loadSite(path.resolve('content')), new Date('2026-06-01T12:00:00Z'), 'production').site;
});

/** The site as a build sees it: each article's body in the cache, named by a marker; `tag` makes another body (of the article `only`, or of every one). */
function withBodies(from: Site, tag: string, only?: string): Site {
  const posts = from.posts.map((post): Post => {
    const t = only === undefined || post.slug === only ? tag : 'a';
    return {
      ...post,
      html: bodyMarker(`${t}-${post.slug}`),
      toc: [{ depth: 2, id: `${t}-heading`, text: `A heading of body ${t}` }],
      bodyImages: t === 'a' ? [] : [{ src: '/images/logo.svg', slot: 'body', priority: false }],
    };
  });
  return { ...from, posts };
}

const byUrl = (site: Site) => new Map(routes(site).map((r) => [r.url, JSON.stringify(r)]));

describe("a route's inputs", () => {
  it("another body for one article changes that article's page alone, and not the site's inputs hash", () => {
    const a = withBodies(site, 'a');
    const before = byUrl(a);
    expect(site.posts.length).toBeGreaterThan(3);
    for (const post of site.posts) {
      const b = withBodies(site, 'b', post.slug);
      expect(siteInputsHash(b, 'code')).toBe(siteInputsHash(a, 'code'));
      const after = byUrl(b);
      expect([...after.keys()]).toEqual([...before.keys()]);
      expect([...after.keys()].filter((url) => after.get(url) !== before.get(url))).toEqual([`/blog/${post.slug}`]);
    }
  });

  it("names each article page's own body, and no other route's", () => {
    const marked = withBodies(site, 'a');
    for (const route of routes(marked)) {
      const slug = route.url.startsWith('/blog/') ? route.url.slice('/blog/'.length) : undefined;
      const own = marked.posts.some((p) => p.slug === slug);
      expect(routeBodyKey(route)).toBe(own ? `a-${slug}` : undefined);
    }
  });

  it('changes with anything else an article, a page or the settings hold, and with the code', () => {
    const base = withBodies(site, 'a');
    const source = siteInputsHash(base, 'code');
    const retitled = { ...base, posts: base.posts.map((p, i) => (i === 0 ? { ...p, title: `${p.title}, again` } : p)) };
    expect(siteInputsHash(retitled, 'code')).not.toBe(source);
    expect(siteInputsHash({ ...base, settings: { ...base.settings, name: 'Another Name' } }, 'code')).not.toBe(source);
    expect(siteInputsHash({ ...base, pages: { ...base.pages, home: { ...base.pages.home, title: 'Another title' } } }, 'code')).not.toBe(source);
    expect(siteInputsHash(base, 'other code')).not.toBe(source);
  });

  it('takes in an article body that is no marker (a site loaded without the build cache) whole', () => {
    const inline = { ...site, posts: site.posts.map((p, i) => (i === 0 ? { ...p, html: `${p.html}<p>More.</p>` } : p)) };
    expect(siteInputsHash(inline, 'code')).not.toBe(siteInputsHash(site, 'code'));
  });
});
