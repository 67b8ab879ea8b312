import { buildSite, type BuildResult } from '../src/pipeline/build.ts';
import type { PageFigures } from '../src/measure/summary.ts';
import { BudgetError, pageRows, type Budgets } from '../src/measure/budgets.ts';
import type { GateReport } from './report.ts';

/**
 * The page budgets, as `site build` enforces them: build into outDir with the project's
 * budgets.json and tabulate every page's figures. An over-budget build leaves outDir alone but its
 * pages (with their routing table and headers) in its staging folder: `dir` is where the other
 * gates find the pages either way.
 */
export async function buildGate(opts: { root: string; outDir: string; budgets: Budgets }): Promise<{ report: GateReport; result?: BuildResult; dir: string }> {
  let result: BuildResult | undefined;
  let pages: PageFigures[];
  let failures: string[] = [];
  let dir = opts.outDir;
  try {
    result = await buildSite({ root: opts.root, outDir: opts.outDir, budgets: opts.budgets });
    pages = result.summary.perPage;
  } catch (error) {
    if (!(error instanceof BudgetError)) throw error;
    pages = error.pages;
    failures = error.findings.map((f) => `${f.page}: ${f.figure} ${f.value} > ${f.limit}`);
    dir = error.keptAt?.pages ?? dir;
  }
  return { report: budgetReport(pages, opts.budgets, failures), result, dir };
}

export function budgetReport(pages: PageFigures[], budgets: Budgets, failures: string[]): GateReport {
  const sample = pages[0] ? pageRows(pages[0], budgets) : [];
  const columns = ['page', ...sample.map((r) => r.figure)];
  const limits = ['(limit)', ...sample.map((r) => (r.limit.startsWith('exempt') ? `${budgets.page.jsBeforeInteractionKb} KB` : r.limit))];
  const rows = pages.map((p) => [p.url, ...pageRows(p, budgets).map((r) => `${r.over ? '> ' : ''}${r.value}${r.limit.startsWith('exempt') ? ' (exempt)' : ''}`)]);
  const max = (f: (p: PageFigures) => number) => Math.max(0, ...pages.map(f));
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const checked = pages.filter((p) => !budgets.jsBeforeInteractionExempt.includes(p.url));
  return {
    gate: 'budgets (site build)',
    columns,
    rows: [limits, ...rows],
    failures,
    warnings: [],
    summary: `budgets: ${pages.length} pages; largest (gzip) JS before interaction ${kb(max((p) => (checked.includes(p) ? p.jsInitial : 0)))} (exempt pages up to ${kb(max((p) => p.jsInitial))}), JS all ${kb(max((p) => p.jsAll))}, CSS ${kb(max((p) => p.css))}, HTML ${kb(max((p) => p.html))}`,
  };
}
