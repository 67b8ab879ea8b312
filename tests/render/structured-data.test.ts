import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSite, type Site } from '../../src/content/load.ts';
import { publishedSite } from '../../src/content/published.ts';
import { routes } from '../../src/routes/table.ts';
import type { Route } from '../../src/routes/table.ts';
import { planCards } from '../../src/cards/plan.ts';
import { render } from '../../src/render/server-entry.tsx';
import { shareLinks } from '../../templates/pages/blog/share-links.ts';

/** The head and body of every page as the build renders them, share cards planned, from the real content. */
let site: Site;
let planned: Route[];
beforeAll(async () => {
  site = publishedSite(await loadSite(path.resolve('content')), new Date('2026-06-01T12:00:00Z'), 'production').site;
  planned = planCards(site, routes(site), path.resolve('content'), 'code').routes;
});

const rendered = (url: string) => {
  const route = planned.find((r) => r.url === url);
  if (!route) throw new Error(`no route ${url}`);
  return render(route, { settings: site.settings, images: site.images, url, year: 2026 });
};
/** The JSON-LD blocks of a head, parsed, in their order. */
const jsonLdOf = (head: string) => [...head.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(([, text]) => JSON.parse(text!) as Record<string, unknown>);
const absolute = (p: string) => new URL(p, site.settings.url).href;

describe("an article's structured data", () => {
  it('is an Article of absolute addresses, its image the share card, then the FAQPage of the three questions the page shows', () => {
    expect(site.posts.length).toBeGreaterThan(3);
    for (const post of site.posts) {
      const { route, head } = rendered(`/blog/${post.slug}`);
      const [article, faq, ...more] = jsonLdOf(head);
      expect(more).toEqual([]);
      const organisation = { '@type': 'Organization', name: site.settings.name, url: absolute('/'), logo: { '@type': 'ImageObject', url: absolute(site.images[site.settings.logo!]!.src) } };
      expect(article).toEqual({
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: post.title,
        description: route.meta.description,
        datePublished: post.date,
        dateModified: post.date,
        author: organisation,
        publisher: organisation,
        image: [absolute(route.meta.shareImage!.src)],
        mainEntityOfPage: { '@type': 'WebPage', '@id': absolute(`/blog/${post.slug}`).replace(/\/$/, '') },
        ...(post.categories?.length ? { keywords: post.categories.join(', ') } : {}),
      });
      expect((article!.image as string[])[0]).toMatch(/^https:\/\/[^/]+\/og\/.+\.png$/);
      expect(faq).toEqual({
        '@context': 'https://schema.org',
        '@type': 'FAQPage',
        mainEntity: post.faq.map((f) => ({ '@type': 'Question', name: f.question, acceptedAnswer: { '@type': 'Answer', text: f.answer } })),
      });
      expect(post.faq).toHaveLength(3);
    }
  });

  it('cannot close its script element, whatever the content says', () => {
    const post = site.posts[0]!;
    const route = planned.find((r) => r.url === `/blog/${post.slug}`)!;
    const hostile = { ...route, meta: { ...route.meta, title: '</script><script>alert(1)</script>' } } as Route;
    const { head } = render(hostile, { settings: site.settings, images: site.images, url: route.url, year: 2026 });
    expect(head).not.toContain('</script><script>alert(1)');
    expect(jsonLdOf(head)[0]).toMatchObject({ headline: '</script><script>alert(1)</script>' });
  });
});

describe('other pages', () => {
  it("gives each service page its Service, then the FAQPage of the five questions it shows", () => {
    for (const service of site.collections.services) {
      const blocks = jsonLdOf(rendered(`/services/${service.slug}`).head);
      expect(blocks.map((b) => b['@type'])).toEqual(['Service', 'FAQPage']);
      expect((blocks[1]!.mainEntity as Array<{ name: string }>).map((q) => q.name)).toEqual(service.faq.items.map((q) => q.question));
    }
  });

  it("gives each case study its Article, with its share card as the image", () => {
    expect(site.caseStudies.length).toBeGreaterThan(0);
    for (const study of site.caseStudies) {
      const { route, head } = rendered(`/case-studies/${study.slug}`);
      const blocks = jsonLdOf(head);
      expect(blocks.map((b) => b['@type'])).toEqual(['Article']);
      expect(blocks[0]).toMatchObject({ headline: study.title, image: [absolute(route.meta.shareImage!.src)] });
    }
  });

  it('gives a page that declares none no structured data', () => {
    expect(jsonLdOf(rendered('/contact').head)).toEqual([]);
  });
});

describe("an article's share links", () => {
  it('share its own address by e-mail, LinkedIn and X, encoded', () => {
    const links = shareLinks('https://www.example.com', '/blog/what-is-data', 'What Is Data? A Guide & More');
    expect(links.email).toBe('mailto:?subject=What%20Is%20Data%3F%20A%20Guide%20%26%20More&body=What%20Is%20Data%3F%20A%20Guide%20%26%20More%0A%0Ahttps%3A%2F%2Fwww.example.com%2Fblog%2Fwhat-is-data');
    expect(links.linkedin).toBe('https://www.linkedin.com/sharing/share-offsite/?url=https%3A%2F%2Fwww.example.com%2Fblog%2Fwhat-is-data');
    const x = new URL(links.x);
    expect(x.origin + x.pathname).toBe('https://twitter.com/intent/tweet');
    expect(x.searchParams.get('url')).toBe('https://www.example.com/blog/what-is-data');
    expect(x.searchParams.get('text')).toBe('What Is Data? A Guide & More');
  });

  it('are on every article page, for that article', () => {
    for (const post of site.posts) {
      const { body } = rendered(`/blog/${post.slug}`);
      const links = shareLinks(site.settings.url, `/blog/${post.slug}`, post.title);
      for (const href of [links.email, links.linkedin, links.x]) expect(body, post.slug).toContain(`href="${href.replace(/&/g, '&amp;')}"`);
    }
  });
});
