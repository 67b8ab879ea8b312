import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSite, type Site } from '../../src/content/load.ts';
import { assessmentPageSchema, blogPageSchema, contactPageSchema, thankYouPageSchema } from '../../src/content/insights-schema.ts';
import { blogRoutes } from '../../src/routes/blog.ts';
import { formRoutes } from '../../src/routes/forms.ts';
import { legalRoutes } from '../../src/routes/legal.ts';
import { routes } from '../../src/routes/table.ts';
import { routingTable } from '../../src/routes/routing-table.ts';
import type { Route } from '../../src/routes/table.ts';
import { publishedSite } from '../../src/content/published.ts';
import { sitemapXml } from '../../src/render/feeds.ts';

let site: Site;
let all: Route[];
beforeAll(async () => {
  site = await loadSite(path.resolve('content'));
  all = [...blogRoutes(site), ...formRoutes(site), ...legalRoutes(site)];
});

const route = (url: string): Route => {
  const found = all.find((r) => r.url === url);
  if (!found) throw new Error(`no route ${url}`);
  return found;
};
type Props<T extends Route['template']> = Extract<Route, { template: T }>['props'];
const propsOf = <T extends Route['template']>(url: string, template: T): Props<T> => {
  const r = route(url);
  expect(r.template).toBe(template);
  return r.props as Props<T>;
};

describe('insights routes', () => {
  it('builds the list, every article, the forms and the legal pages', () => {
    const urls = all.map((r) => r.url);
    expect(urls).toEqual(expect.arrayContaining(['/blog', '/blog/page/2', '/contact', '/dialog-assessment', '/thank-you', '/privacy-policy', '/terms-of-service']));
    for (const post of site.posts) expect(urls).toContain(`/blog/${post.slug}`);
    const categories = new Set(site.posts.flatMap((p) => p.categories ?? ['Data']));
    expect(all.filter((r) => r.url.startsWith('/blog/category/'))).toHaveLength(categories.size);
    expect(all).toHaveLength(2 + categories.size + site.posts.length + 5);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('has no /blog/page/1, and every page of the list is a 200 page of the routing table', () => {
    const urls = all.map((r) => r.url);
    expect(urls).not.toContain('/blog/page/1');
    const table = routingTable(routes(site));
    for (const url of ['/blog', '/blog/page/2']) expect(table.pageUrls).toContain(url);
    expect(table.pageUrls).not.toContain('/blog/page/1');
  });

  it('lists posts newest first, six a page, each post once, with every page number', () => {
    const one = propsOf('/blog', 'blogList');
    const two = propsOf('/blog/page/2', 'blogList');
    expect(one.posts).toHaveLength(6);
    expect(two.posts).toHaveLength(site.posts.length - 6);
    const listed = [...one.posts, ...two.posts];
    expect(listed.map((p) => p.slug)).toEqual(site.posts.map((p) => p.slug));
    expect(listed.map((p) => p.date)).toEqual([...listed.map((p) => p.date)].sort().reverse());
    expect([one.current, two.current]).toEqual([1, 2]);
    expect(one.pages).toEqual([{ number: 1, url: '/blog' }, { number: 2, url: '/blog/page/2' }]);
    // The list carries summaries, not whole articles.
    expect(Object.keys(one.posts[0]!)).not.toContain('html');
  });

  it('gives page 2 its own title', () => {
    expect(route('/blog').meta.title).toBe(site.pages.blog.title);
    expect(route('/blog/page/2').meta.title).toBe(`${site.pages.blog.title}, page 2 of 2`);
  });

  it('describes each article by the first 140 characters of its excerpt', () => {
    for (const post of site.posts) {
      const meta = route(`/blog/${post.slug}`).meta;
      expect(meta.description).toBe(post.excerpt.slice(0, 140).trim());
      expect(meta.description.length).toBeLessThanOrEqual(140);
      expect(meta).toMatchObject({ title: post.title, type: 'article', published: post.date, image: post.image?.src ?? '/images/blog-placeholder.svg' });
    }
  });

  it('offers the two most recent other articles to continue reading', () => {
    const [newest, second, third] = site.posts;
    expect(propsOf(`/blog/${newest!.slug}`, 'blogPost').related.map((p) => p.slug)).toEqual([second!.slug, third!.slug]);
    expect(propsOf(`/blog/${third!.slug}`, 'blogPost').related.map((p) => p.slug)).toEqual([newest!.slug, second!.slug]);
  });

  it('passes the article without a body through with empty html', () => {
    const empty = site.posts.filter((p) => p.html.trim() === '');
    expect(empty).toHaveLength(1);
    const props = propsOf(`/blog/${empty[0]!.slug}`, 'blogPost');
    expect(props.post.html.trim()).toBe('');
    expect(props.post.excerpt).toBe(empty[0]!.excerpt);
  });

  it('marks /thank-you noindex and leaves the other pages indexable', () => {
    expect(route('/thank-you').meta.noindex).toBe(true);
    expect(all.filter((r) => r.meta.noindex).map((r) => r.url)).toEqual(['/thank-you']);
  });

  it('keeps every description within search-result length', () => {
    for (const r of all.filter((r) => r.template !== 'blogPost')) {
      expect(r.meta.description.length, r.url).toBeGreaterThanOrEqual(120);
      expect(r.meta.description.length, r.url).toBeLessThanOrEqual(160);
    }
  });
});

describe('legal pages', () => {
  it('list the section anchors of each policy, with the April 2025 date', () => {
    const privacy = propsOf('/privacy-policy', 'legal');
    expect(privacy.updated).toBe('April 2025');
    expect(privacy.toc.length).toBeGreaterThanOrEqual(11);
    for (const entry of privacy.toc) expect(privacy.html).toContain(`id="${entry.id}"`);
    const terms = propsOf('/terms-of-service', 'legal');
    expect(terms.updated).toBe('April 2025');
    expect(terms.toc.map((t) => t.text)).toHaveLength(13);
    terms.toc.forEach((t, i) => expect(t.text.startsWith(`${i + 1}. `), t.text).toBe(true));
    expect(terms.html).toContain('href="/privacy-policy"');
  });
});

describe('insights page schemas', () => {
  /** The dotted paths a parse complains about. */
  const failing = (schema: { safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } } }, data: unknown) => {
    const result = schema.safeParse(data);
    return result.success ? [] : result.error!.issues.map((i) => i.path.join('.'));
  };
  const without = (data: object, key: string) => Object.fromEntries(Object.entries(data).filter(([k]) => k !== key));

  it('accept the real content', () => {
    expect(failing(blogPageSchema, site.pages.blog)).toEqual([]);
    expect(failing(contactPageSchema, site.pages.contact)).toEqual([]);
    expect(failing(assessmentPageSchema, site.pages['dialog-assessment'])).toEqual([]);
    expect(failing(thankYouPageSchema, site.pages['thank-you'])).toEqual([]);
  });

  it('name each missing required field', () => {
    for (const key of Object.keys(site.pages.contact)) expect(failing(contactPageSchema, without(site.pages.contact, key))).toEqual([key]);
    for (const key of Object.keys(site.pages['dialog-assessment'])) expect(failing(assessmentPageSchema, without(site.pages['dialog-assessment'], key))).toEqual([key]);
    for (const key of Object.keys(site.pages['thank-you'])) expect(failing(thankYouPageSchema, without(site.pages['thank-you'], key))).toEqual([key]);
    for (const key of Object.keys(site.pages.blog)) expect(failing(blogPageSchema, without(site.pages.blog, key))).toEqual([key]);
    expect(failing(contactPageSchema, { ...site.pages.contact, form: { heading: 'Send us a message' } })).toEqual(['form.lead']);
  });

  it('refuse a misspelt field and a description search engines would cut', () => {
    expect(failing(blogPageSchema, { ...site.pages.blog, intro: 'x' })).toEqual(['']);
    expect(failing(blogPageSchema, { ...site.pages.blog, description: 'x'.repeat(161) })).toEqual(['description']);
    expect(failing(blogPageSchema, { ...site.pages.blog, description: 'Too short.' })).toEqual(['description']);
  });
});

describe('category pages', () => {
  const categoryPages = (rs: Route[]) => rs.filter((r) => r.url.startsWith('/blog/category/'));

  it('list each category in use, newest first, with their own title and description, and are linked from every label', () => {
    const culture = propsOf('/blog/category/data-culture', 'blogList');
    const expected = site.posts.filter((p) => p.categories?.includes('Data Culture')).map((p) => p.slug);
    expect(expected.length).toBeGreaterThan(1);
    expect(culture.posts.map((p) => p.slug)).toEqual(expected);
    expect(culture).toMatchObject({ category: 'Data Culture', current: 1, pages: [{ number: 1, url: '/blog/category/data-culture' }] });
    expect(culture.hero.heading).toBe('Data Culture');
    expect(culture.feedLink).toBeUndefined();
    const meta = route('/blog/category/data-culture').meta;
    expect(meta.title).toBe('Data Culture: Insights');
    expect(meta.description).toContain('Data Culture');
    expect(new Set(categoryPages(all).map((r) => r.meta.title)).size).toBe(categoryPages(all).length);
    // Every label on every card and article points at a page that exists.
    const urls = new Set(all.map((r) => r.url));
    const labels = all.flatMap((r) => r.template === 'blogList' ? r.props.posts : r.template === 'blogPost' ? [r.props.post, ...r.props.related] : []).flatMap((p) => p.categories);
    expect(labels.length).toBeGreaterThan(20);
    for (const label of labels) expect(urls, label.href).toContain(label.href);
    expect(propsOf('/blog/what-is-data', 'blogPost').post.categories).toEqual([
      { name: 'Data Literacy', href: '/blog/category/data-literacy' },
      { name: 'Data Culture', href: '/blog/category/data-culture' },
    ]);
  });

  it('are paged like /blog: six a page, page 1 at the category, then /page/N, each numbered in its title', () => {
    const many: Site = { ...site, posts: Array.from({ length: 13 }, (_, i) => ({ ...site.posts[i % site.posts.length]!, slug: `note-${String(i).padStart(2, '0')}`, date: `2026-01-${String(28 - i).padStart(2, '0')}`, categories: ['Data Strategy'] })) };
    const lists = blogRoutes(many).filter((r) => r.url.startsWith('/blog/category/data-strategy'));
    expect(lists.map((r) => r.url)).toEqual(['/blog/category/data-strategy', '/blog/category/data-strategy/page/2', '/blog/category/data-strategy/page/3']);
    const props = lists.map((r) => r.props as Props<'blogList'>);
    expect(props.map((p) => p.posts.length)).toEqual([6, 6, 1]);
    expect(props.flatMap((p) => p.posts.map((x) => x.slug))).toEqual(many.posts.map((p) => p.slug));
    expect(props[1]!.pages).toEqual([
      { number: 1, url: '/blog/category/data-strategy' },
      { number: 2, url: '/blog/category/data-strategy/page/2' },
      { number: 3, url: '/blog/category/data-strategy/page/3' },
    ]);
    expect(lists[2]!.meta.title).toBe('Data Strategy: Insights, page 3 of 3');
    // The same numbering as the main list, which holds the same 13 articles.
    expect(blogRoutes(many).filter((r) => r.url.startsWith('/blog/page/')).map((r) => r.url)).toEqual(['/blog/page/2', '/blog/page/3']);
  });

  it('exist only for categories with a published article, and are in the routing table and the sitemap', () => {
    const onlyDraft: Site = { ...site, posts: site.posts.map((p) => p.slug === 'what-is-data' ? { ...p, draft: true, categories: ['Data Literacy'] } : p) };
    const published = routes(publishedSite(onlyDraft, new Date('2026-06-01T00:00:00Z'), 'production').site);
    expect(published.map((r) => r.url)).not.toContain('/blog/category/data-literacy');
    expect(routes(site).map((r) => r.url)).toContain('/blog/category/data-literacy');
    const table = routingTable(routes(site));
    const sitemap = sitemapXml(site, routes(site));
    for (const r of categoryPages(all)) {
      expect(table.pageUrls).toContain(r.url);
      expect(sitemap).toContain(`<loc>https://www.example.com${r.url}</loc>`);
    }
  });

  it("file an article without categories under 'Data'", () => {
    const bare: Site = { ...site, posts: site.posts.map((p, i) => i === 0 ? { ...p, categories: undefined } : p) };
    const data = blogRoutes(bare).find((r) => r.url === '/blog/category/data');
    expect((data?.props as Props<'blogList'>).posts.map((p) => p.slug)).toEqual([site.posts[0]!.slug]);
  });
});
