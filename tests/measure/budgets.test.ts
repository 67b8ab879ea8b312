import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { reportBuildError } from '../../src/pipeline/build-command.ts';
import type { PageFigures } from '../../src/measure/summary.ts';
import { BudgetError, checkBudgets, markupFigures, pageRows, parseBudgets } from '../../src/measure/budgets.ts';

const root = process.cwd();
const budgets = parseBudgets(await readFile(path.join(root, 'budgets.json'), 'utf8'));
const KB = 1024;
const figures = (over: Partial<PageFigures>): PageFigures => ({ url: '/about', html: 6 * KB, css: 7 * KB, jsInitial: 1 * KB, jsAll: 70 * KB, renderBlockingScripts: 0, imagesWithoutSize: 0, imagesBeforeInteraction: 0, eagerImages: [], largest: [], ...over });

describe('budgets.json', () => {
  it("is the one file of limits, and holds the product's ceilings or tighter", () => {
    expect(budgets.page.jsBeforeInteractionKb).toBeLessThanOrEqual(10);
    expect(budgets.page.jsAllKb).toBeLessThanOrEqual(90);
    expect(budgets.page.cssKb).toBeLessThanOrEqual(20);
    expect(budgets.page.htmlKb).toBeLessThanOrEqual(60);
    expect(budgets.page.renderBlockingScripts).toBe(0);
    // The form pages wake their forms on interaction, so no page is exempt from the JS-before-interaction limit.
    expect(budgets.jsBeforeInteractionExempt).toEqual([]);
    expect(budgets.lighthouse.minScores).toEqual({ performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 });
    expect(budgets.lighthouse.maxTotalBlockingTimeMs).toBeLessThanOrEqual(100);
  });

  it('says which field is wrong when the file is', () => {
    expect(() => parseBudgets('{"page":{}}', 'budgets.json')).toThrow(/budgets\.json: page\.jsBeforeInteractionKb: /);
    expect(() => parseBudgets('{', 'budgets.json')).toThrow(/budgets\.json: not valid JSON/);
  });
});

describe('the figures the build reads from a page', () => {
  it('counts classic scripts in the head as render-blocking, not module, async or deferred ones', () => {
    const html = '<html><head><script src="/a.js"></script><script type="module" src="/b.js"></script><script defer src="/c.js"></script><script>inline()</script></head><body><script src="/late.js"></script></body></html>';
    expect(markupFigures(html).renderBlockingScripts).toBe(1);
  });

  it('counts images that reserve no slot', () => {
    expect(markupFigures('<head></head><img src="/a.png" alt="" width="10" height="10"><img src="/b.png" alt=""><img alt="" src="/c.png" width="4">').imagesWithoutSize).toBe(2);
  });
});

describe('checking pages against the budgets', () => {
  it('names the page, the figure, its value and the limit of everything over budget', () => {
    const found = checkBudgets([
      figures({ url: '/fine' }),
      figures({ url: '/heavy', jsInitial: 63 * KB, css: 25 * KB }),
      figures({ url: '/blocking', renderBlockingScripts: 1 }),
    ], budgets);
    expect(found).toEqual([
      { page: '/heavy', figure: 'JS before interaction', value: '63.0 KB', limit: `${budgets.page.jsBeforeInteractionKb} KB` },
      { page: '/heavy', figure: 'CSS', value: '25.0 KB', limit: `${budgets.page.cssKb} KB` },
      { page: '/blocking', figure: 'render-blocking scripts', value: '1', limit: '0' },
    ]);
  });

  it("shows, of a page's images, the one nearest its slot's limit, the first of equals", () => {
    const image = (src: string, slot: 'hero' | 'card' | 'icon', kb: number) => ({ src, slot, url: `/images/${src}`, bytes: kb * KB });
    const rowOf = (largest: ReturnType<typeof image>[]) => pageRows(figures({ largest }), budgets).find((r) => r.figure === 'largest image file');
    // 300 of 400 KB is 75 %; 90 of 100 KB, 90 %; 10 of 20 KB, 50 %.
    expect(rowOf([image('a.jpg', 'hero', 300), image('b.jpg', 'card', 90), image('c.svg', 'icon', 10)])).toMatchObject({ value: '90.0 KB (card)', limit: '100 KB', over: false });
    expect(rowOf([image('a.jpg', 'hero', 200), image('b.jpg', 'card', 50)])).toMatchObject({ value: '200.0 KB (hero)' });
    expect(rowOf([image('a.jpg', 'card', 120), image('b.jpg', 'hero', 600)])).toMatchObject({ value: '600.0 KB (hero)', over: true });
    expect(rowOf([])).toMatchObject({ value: '-', over: false });
  });

  it('holds the form pages to the JS-before-interaction limit too', () => {
    expect(checkBudgets([figures({ url: '/contact', jsInitial: 80 * KB })], budgets).map((f) => f.figure)).toEqual(['JS before interaction']);
  });

  it('an exempt page is held to TBT instead of the before-interaction limit, but not spared the rest', () => {
    const exempting = { ...budgets, jsBeforeInteractionExempt: ['/contact'] };
    expect(checkBudgets([figures({ url: '/contact', jsInitial: 80 * KB })], exempting)).toEqual([]);
    expect(checkBudgets([figures({ url: '/contact', jsAll: 200 * KB })], exempting).map((f) => f.figure)).toEqual(['JS all']);
  });
});

describe('site build with a page over budget', () => {
  it('writes the pages beside dist/ to inspect, then fails naming each page and figure and where the pages are, and the CLI exits 1', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'quality-budget-'));
    const outDir = path.join(dir, 'dist');
    try {
      const tight = { ...budgets, page: { ...budgets.page, jsAllKb: 1 } };
      const error = await buildSite({ root, outDir, budgets: tight }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(BudgetError);
      const findings = (error as BudgetError).findings;
      expect(findings.map((f) => f.page)).toContain('/');
      expect(findings.every((f) => f.figure === 'JS all' && f.limit === '1 KB')).toBe(true);
      // A build over budget is a failed build: dist/ is not there (or keeps the last one that passed).
      expect(existsSync(outDir)).toBe(false);

      const lines: string[] = [];
      expect(await reportBuildError(error, (l) => lines.push(l))).toBe(1);
      expect(lines).toContainEqual(expect.stringMatching(/^\/: JS all is \d+\.\d KB, over the budget of 1 KB$/));
      expect(lines.at(-2)).toMatch(/^build failed: \d+ figures over budget on \d+ pages \(sizes gzip, HTML at level 9; limits in budgets\.json\)$/);
      const kept = /^(.+)\/ is unchanged \(the last build that passed\); this build's pages are in (.+)\/ to inspect$/.exec(lines.at(-1)!);
      expect(path.resolve(kept![1]!)).toBe(outDir);
      await expect(readFile(path.resolve(kept![2]!, 'index.html'), 'utf8')).resolves.toContain('<html');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('passes with the project budgets, and says so in its summary', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'quality-budget-'));
    try {
      const result = await buildSite({ root, outDir: path.join(dir, 'dist') });
      expect(result.summary.budgetsChecked).toBe(true);
      expect(result.summary.perPage.map((p) => p.url)).toContain('/contact');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
