import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSite, type Post, type Site } from '../../src/content/load.ts';
import { newestFirst } from '../../src/content/article-order.ts';
import { routes } from '../../src/routes/table.ts';
import { routingTable } from '../../src/routes/routing-table.ts';
import { atomFeed, sitemapXml } from '../../src/render/feeds.ts';

/**
 * The shape of the build's cost as the blog grows, counted rather than timed so that a noisy machine
 * cannot hide a quadratic: how often articles are read while they are sorted and while the route
 * table, sitemap and feed are made, and how much the route table holds, for 2,000 and 20,000 stub
 * articles (in three categories, each with its own list pages). Linear work grows ten-fold; a
 * per-page walk of every article would grow a hundred-fold.
 */
const SMALL = 2_000;
const LARGE = 20_000;

function stubs(n: number): Post[] {
  // Deterministic, out of order, with shared dates so that the slug breaks ties.
  return Array.from({ length: n }, (_, i) => {
    const day = (i * 7919) % 3650;
    const date = new Date(Date.UTC(2016, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
    return {
      slug: `article-${String(i).padStart(5, '0')}`, title: `Article ${i}`, excerpt: `What article ${i} is about, in a sentence or two.`,
      date, readingTime: '5 min read', categories: [['Data Strategy', 'Data Culture', 'AI Readiness'][i % 3]!],
      faq: [1, 2, 3].map((q) => ({ question: `Question ${q}?`, answer: `Answer ${q}.` })),
      html: `<p>Article ${i}.</p>\n`, toc: [], bodyImages: [],
    };
  });
}

/** Every read of an article's field, or of an article from the list, counts one visit; past `budget` it throws, so a quadratic fails fast. */
function counting(posts: Post[], budget: number) {
  const counter = { visits: 0 };
  const visit = () => { if (++counter.visits > budget) throw new Error(`more than ${budget} visits of the articles: the work is no longer linear`); };
  const wrapped = posts.map((p) => new Proxy(p, { get: (t, k, r) => { visit(); return Reflect.get(t, k, r); } }));
  const list = new Proxy(wrapped, { get: (t, k, r) => { if (typeof k === 'string' && /^\d+$/.test(k)) visit(); return Reflect.get(t, k, r); } });
  return { list, counter };
}

/** Values held by the route table's props, shared objects counted each time they appear. */
function size(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + size(v), 1);
  if (value && typeof value === 'object') return Object.values(value).reduce((n: number, v) => n + size(v), 1);
  return 1;
}

let site: Site;
beforeAll(async () => { site = await loadSite(path.resolve('content')); });

// Budgets well past today's cost (about 40 visits an article to sort 2,000, 60 for the routes), so
// that a quadratic throws early instead of running for minutes.
const SORT_BUDGET = (n: number) => 8 * n * Math.log2(n);
const ROUTE_BUDGET = (n: number) => 200 * n;

type Measure = ReturnType<typeof measure>;
function measure(n: number) {
  const sort = counting(stubs(n), SORT_BUDGET(n));
  const sorted = newestFirst(sort.list);
  const pages = counting(newestFirst(stubs(n)), ROUTE_BUDGET(n));
  const big: Site = { ...site, posts: pages.list };
  const all = routes(big);
  routingTable(all);
  sitemapXml(big, all);
  atomFeed(big, new Date(0));
  return { sorted, sortVisits: sort.counter.visits, routeVisits: pages.counter.visits, routes: all.length, size: size(all.map((r) => r.props)) };
}

describe('the cost of a growing blog', () => {
  // Measured once for both tests; a budget overrun fails each test rather than being skipped.
  let measured: { small: Measure; large: Measure } | Error | undefined;
  const sizes = () => {
    try { measured ??= { small: measure(SMALL), large: measure(LARGE) }; } catch (error) { measured = error as Error; }
    if (measured instanceof Error) throw measured;
    return measured;
  };

  it('sorts the articles once, in n log n', () => {
    const { small, large } = sizes();
    expect(large.sorted.map((p) => p.slug)).toEqual(newestFirst(stubs(LARGE)).map((p) => p.slug));
    // n log n: 10 × log(20,000) / log(2,000) ≈ 13.
    expect(large.sortVisits / small.sortVisits).toBeLessThan(14);
  });

  it('builds the route table, sitemap and feed in linear work and size', () => {
    const { small, large } = sizes();
    expect(large.routes).toBeGreaterThan(LARGE);
    expect(large.routeVisits / small.routeVisits).toBeLessThan(11);
    expect(large.size / small.size).toBeLessThan(11);
  });
});
