import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSite, type Post, type Site } from '../../src/content/load.ts';
import { linkedPostSlug, publishedSite } from '../../src/content/published.ts';
import { formatContentError } from '../../src/content/errors.ts';
import { routes } from '../../src/routes/table.ts';
import { routingTable } from '../../src/routes/routing-table.ts';
import { resolve } from '../../src/url-resolution/resolve.ts';
import { formatArticles } from '../../src/measure/summary.ts';
import { summary } from '../../src/routes/blog.ts';

let real: Site;
beforeAll(async () => { real = await loadSite(path.resolve('content')); });

const JUNE = new Date('2026-06-01T12:00:00Z');

/** The real site with its three newest articles given publication fields, and extra links. */
function withDates(changes: Record<string, Partial<Post>>, links: Site['links'] = []): Site {
  return { ...real, posts: real.posts.map((p) => ({ ...p, ...changes[p.slug] })), links: [...real.links, ...links] };
}

describe('publishedSite', () => {
  const [newest, second, third] = ['data-transformation-before-ai-adoption', 'scotland-data-transformation-readiness', 'how-to-avoid-the-four-data-pitfalls'];
  const site = () => withDates({
    [newest]: { draft: true },
    [second]: { publishDate: '2026-09-24' },
    [third]: { expiryDate: '2026-05-31' },
  });

  it('leaves drafts, scheduled and expired articles out of a production build, in order, and counts them', () => {
    const { site: out, articles } = publishedSite(site(), JUNE, 'production');
    expect(out.posts.map((p) => p.slug)).toEqual(real.posts.slice(3).map((p) => p.slug));
    expect(out.posts.every((p) => p.preview === undefined)).toBe(true);
    expect(articles).toMatchObject({ live: 5, draft: 1, scheduled: 1, expired: 1 });
    expect(articles.nextChange).toEqual({ at: '2026-09-23T23:00:00.000Z', local: '2026-09-24 00:00 Europe/London', publishes: [second], expires: [] });
  });

  it('so no route, list, Continue Reading or routing entry names them, and their URLs redirect to /blog', () => {
    const { site: out } = publishedSite(site(), JUNE, 'production');
    const all = routes(out);
    const text = JSON.stringify(all);
    for (const slug of [newest, second, third]) {
      expect(text).not.toContain(slug);
      expect(resolve(`/blog/${slug}`, routingTable(all))).toEqual({ kind: 'redirect', location: '/blog', status: 302 });
    }
  });

  it('keeps drafts and scheduled articles in a preview, marked, but never expired ones', () => {
    const { site: out } = publishedSite(site(), JUNE, 'preview');
    expect(out.posts.map((p) => p.slug)).toEqual([newest, second, ...real.posts.slice(3).map((p) => p.slug)]);
    expect(out.posts.map((p) => p.preview).slice(0, 3)).toEqual(['draft', 'scheduled', undefined]);
    expect(out.posts.slice(2).every((p) => p.preview === undefined)).toBe(true);
  });

  it('words the banner of each: a draft, a scheduled date, and its time when it has one', () => {
    const { site: out } = publishedSite(site(), JUNE, 'preview');
    const marks = out.posts.slice(0, 2).map((p) => summary(p).preview);
    expect(marks).toEqual([{ status: 'draft', label: 'Draft: not published' }, { status: 'scheduled', label: 'Scheduled for 24 September 2026' }]);
    const timed = publishedSite(withDates({ [newest]: { publishDate: '2026-12-01T09:00:00+00:00' } }), JUNE, 'preview').site.posts[0]!;
    expect(summary(timed).preview).toEqual({ status: 'scheduled', label: 'Scheduled for 1 December 2026 at 09:00' });
    // A production build's cards carry no mark at all.
    expect(publishedSite(site(), JUNE, 'production').site.posts.map((p) => summary(p)).some((c) => 'preview' in c)).toBe(false);
  });

  it('leaves the loaded site untouched', () => {
    const input = site();
    publishedSite(input, JUNE, 'production');
    expect(input.posts).toHaveLength(real.posts.length);
  });

  it('prints the counts and the next change in the summary', () => {
    const { articles } = publishedSite(withDates({ [newest]: { draft: true }, [second]: { publishDate: '2026-12-01T09:00:00+00:00' } }), JUNE, 'production');
    expect(formatArticles(articles)).toEqual([
      '  articles: 6 live, 1 draft, 1 scheduled, 0 expired',
      `  next change: 2026-12-01 09:00 Europe/London, publishes ${second}`,
    ]);
    expect(formatArticles(publishedSite(real, JUNE, 'production').articles)[1]).toBe('  next change: none scheduled');
  });
});

describe('links from live content to unpublished articles', () => {
  const draftLinks = (links: Site['links']) => publishedSite(withDates({ 'what-is-data': { draft: true } }, links), JUNE, 'production').unpublishedLinks;

  it('are errors naming the linking file and line, and the unpublished article file', () => {
    const [error, ...rest] = draftLinks([{ file: 'content/blog/your-data-is-fine.md', line: 42, path: 'body', href: '/blog/what-is-data#a-simple-definition' }]);
    expect(rest).toEqual([]);
    expect(formatContentError(error!)).toBe('content/blog/your-data-is-fine.md:42 body: links to /blog/what-is-data, which this build leaves out because it is a draft (content/blog/what-is-data.md) (hint: remove the link until that article is live, or publish the article first)');
  });

  it('count from YAML pages and absolute addresses on the site too, but not from other sites', () => {
    const errors = draftLinks([
      { file: 'content/pages/home.yaml', line: 7, path: 'cta.link', href: 'https://www.example.com/blog/what-is-data/' },
      { file: 'content/pages/home.yaml', line: 8, path: 'cta.link', href: 'https://elsewhere.example/blog/what-is-data' },
    ]);
    expect(errors.map((e) => `${e.file}:${e.line}`)).toEqual(['content/pages/home.yaml:7']);
  });

  it('are not errors from an article that is itself unpublished, or to a live one', () => {
    expect(draftLinks([
      { file: 'content/blog/what-is-data.md', line: 3, path: 'body', href: '/blog/what-is-data' },
      { file: 'content/blog/your-data-is-fine.md', line: 3, path: 'body', href: '/blog/why-messy-data-is-costing-your-business' },
    ])).toEqual([]);
  });

  it('name the reason for scheduled and expired articles', () => {
    const { unpublishedLinks } = publishedSite(withDates(
      { 'what-is-data': { publishDate: '2026-12-01T09:00:00Z' }, 'your-data-is-fine': { expiryDate: '2026-01-01' } },
      [{ file: 'content/pages/blog.yaml', path: 'x', href: '/blog/what-is-data' }, { file: 'content/pages/blog.yaml', path: 'y', href: '/blog/your-data-is-fine' }],
    ), JUNE, 'production');
    expect(unpublishedLinks.map((e) => e.message)).toEqual([
      'links to /blog/what-is-data, which this build leaves out because it is scheduled for 2026-12-01 09:00 Europe/London (content/blog/what-is-data.md)',
      'links to /blog/your-data-is-fine, which this build leaves out because it expired at 2026-01-01 00:00 Europe/London (content/blog/your-data-is-fine.md)',
    ]);
  });

  it('reads article slugs out of site addresses only', () => {
    expect(linkedPostSlug('/blog/what-is-data?x=1', 'https://www.example.com')).toBe('what-is-data');
    expect(linkedPostSlug('/blog/page/2', 'https://www.example.com')).toBeUndefined();
    expect(linkedPostSlug('/blog/category/data-culture', 'https://www.example.com')).toBeUndefined();
    expect(linkedPostSlug('/blog', 'https://www.example.com')).toBeUndefined();
    expect(linkedPostSlug('mailto:a@b.example', 'https://www.example.com')).toBeUndefined();
  });
});
