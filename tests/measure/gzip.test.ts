/**
 * Pages are measured at gzip level 1 and budgets.json's verdicts taken at level 9: the two must agree
 * on every page, the real site's and a large blog's, at any limit.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { checkBudgets, parseBudgets, withExactHtml, type Budgets } from '../../src/measure/budgets.ts';
import { exactGzipSize, LEVEL_MARGIN, needsExactGzip, pageGzipSize } from '../../src/measure/gzip.ts';
import type { PageFigures } from '../../src/measure/summary.ts';
// @ts-expect-error: a plain .mjs script of the bench, without types
import { writeArticles } from '../../scripts/bench-articles.mjs';
import { fixtureProject, type FixtureProject } from '../support/fixture-project.ts';

const budgets = parseBudgets(await readFile('budgets.json', 'utf8'));
interface Page { url: string; bytes: Buffer; fast: number; exact: number }

/** Every HTML document a clean build of the project writes, with its gzip sizes at both levels. */
async function builtPages(project: FixtureProject): Promise<Page[]> {
  const out = path.join(project.root, 'dist');
  await buildSite({ root: project.root, outDir: out, budgets: false, now: new Date('2026-06-01T12:00:00Z') });
  const files = (await readdir(out, { recursive: true })).filter((f) => f.endsWith('.html'));
  return Promise.all(files.map(async (file) => {
    const bytes = await readFile(path.join(out, file));
    return { url: `/${file}`, bytes, fast: pageGzipSize(bytes), exact: exactGzipSize(bytes) };
  }));
}

const figures = (p: Page): PageFigures => ({ url: p.url, html: p.fast, css: 0, jsInitial: 0, jsAll: 0, renderBlockingScripts: 0, imagesWithoutSize: 0, imagesBeforeInteraction: 0, eagerImages: [], largest: [] });
const withHtmlLimit = (bytes: number): Budgets => ({ ...budgets, page: { ...budgets.page, htmlKb: bytes / 1024 } });

/** The pages over an HTML limit of `limit` bytes as the build decides, and how many it gzipped again at level 9 to decide. */
async function overAt(pages: Page[], limit: number) {
  const b = withHtmlLimit(limit);
  let regzipped = 0;
  const byUrl = new Map(pages.map((p) => [p.url, p.bytes]));
  const checked = await withExactHtml(pages.map(figures), b, async (url) => { regzipped++; return byUrl.get(url)!; });
  return { over: new Set(checkBudgets(checked, b).filter((f) => f.figure === 'HTML').map((f) => f.page)), regzipped };
}

/** Limits right at pages' level-9 and level-1 sizes and a byte below: where a verdict could tip. */
function edgeLimits(pages: Page[], most = 40): number[] {
  const step = Math.max(1, Math.floor(pages.length / most));
  return [...new Set(pages.filter((_, i) => i % step === 0).flatMap((p) => [p.exact, p.exact - 1, p.fast, p.fast - 1]))];
}

async function expectVerdictsAgree(pages: Page[], most?: number) {
  for (const p of pages) expect(p.exact, p.url).toBeLessThanOrEqual(p.fast * (1 + LEVEL_MARGIN));
  for (const limit of edgeLimits(pages, most)) {
    const { over } = await overAt(pages, limit);
    for (const p of pages) expect(over.has(p.url), `${p.url} at a limit of ${limit} bytes (level 9: ${p.exact}, level 1: ${p.fast})`).toBe(p.exact > limit);
  }
}

const projects: FixtureProject[] = [];
let site: Page[];
let blog: Page[];

beforeAll(async () => {
  const real = await fixtureProject('site-gzip-', { seeded: true });
  const large = await fixtureProject('site-gzip-blog-', { seeded: true });
  projects.push(real, large);
  site = await builtPages(real);
  await writeArticles(path.join(large.root, 'content', 'blog'), 300);
  blog = await builtPages(large);
}, 240_000);
afterAll(() => Promise.all(projects.map((p) => p.remove())));

describe('gzip figures and budget verdicts', () => {
  it("agree with level 9 on every page of the real site, at limits where a verdict could tip", async () => {
    expect(site.length).toBeGreaterThan(30);
    await expectVerdictsAgree(site);
  });

  // Every page's two sizes are checked against the margin; the verdicts at a dozen limits, each one
  // gzipping again every page near it (a deadline, not a timing assertion: a loaded machine is slow).
  it('agree with level 9 on every page of a blog with 300 more articles', async () => {
    expect(blog.length).toBeGreaterThan(site.length + 300);
    await expectVerdictsAgree(blog, 12);
  });

  it("gzip no page again at level 9 when every page is well within budgets.json's limit", async () => {
    const limit = budgets.page.htmlKb * 1024;
    const pages = [...site, ...blog];
    expect(pages.every((p) => !needsExactGzip(p.fast, limit))).toBe(true);
    const { over, regzipped } = await overAt(pages, limit);
    expect([over.size, regzipped]).toEqual([0, 0]);
  });

  it('report the level-9 size of a page near its limit, and decide by it', async () => {
    const page = [...site].sort((a, b) => b.fast - a.fast)[0]!;
    // A limit between the two sizes: over at level 1, within at level 9.
    const limit = Math.floor((page.fast + page.exact) / 2);
    const b = withHtmlLimit(limit);
    const [checked] = await withExactHtml([figures(page)], b, async () => page.bytes);
    expect(checked!.htmlExact).toBe(page.exact);
    expect(checkBudgets([checked!], b)).toEqual([]);
  });
});
