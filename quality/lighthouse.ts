import lighthouse from 'lighthouse';
import type * as LH from 'lighthouse/types/lh.js';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM } from './browser.ts';
import type { Budgets } from '../src/measure/budgets.ts';
import type { GateReport } from './report.ts';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

/** The flags the brief fixes: headless, and nothing that reaches the network by itself. */
export const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface LighthouseRun {
  scores: Record<Category, number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Audits that cost a category points: 'accessibility: image-alt'. */
  failing: string[];
}

export interface LighthousePage { url: string; runs: LighthouseRun[]; median: Omit<LighthouseRun, 'failing'>; failing: string[] }

export const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * One Lighthouse run. Chromium now and then fails to record a trace (NO_NAVSTART, say): that is
 * the tool, not the page, so such a run is tried again, twice at most.
 */
async function audit(url: string, port: number, attempts = 3): Promise<LH.Result> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], disableFullPageScreenshot: true });
    const error = result ? result.lhr.runtimeError : { code: 'NO_RESULT', message: 'Lighthouse returned nothing' };
    if (result && !error) return result.lhr;
    if (attempt >= attempts) throw new Error(`Lighthouse could not audit ${url}: ${error?.message ?? 'no result'} (${error?.code ?? ''})`);
  }
}

/**
 * The default (mobile) configuration: a mid-range phone on a slow 4G connection, simulated.
 * Runs one after another in one Chromium, so that runs never compete for the two cores.
 */
export async function runLighthouse(opts: { origin: string; pages: string[]; runs: number; log?: (line: string) => void }): Promise<LighthousePage[]> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const results: LighthousePage[] = [];
    for (const url of opts.pages) {
      const runs: LighthouseRun[] = [];
      for (let i = 0; i < opts.runs; i++) {
        const started = Date.now();
        const lhr = await audit(opts.origin + url, chrome.port);
        const score = (c: Category) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
        const failing = CATEGORIES.flatMap((c) => (lhr.categories[c]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1 && lhr.audits[ref.id]?.scoreDisplayMode !== 'informative')
          .map((ref) => `${c}: ${ref.id}${lhr.audits[ref.id]?.displayValue ? ` (${lhr.audits[ref.id]!.displayValue})` : ''}`));
        runs.push({
          scores: { performance: score('performance'), accessibility: score('accessibility'), 'best-practices': score('best-practices'), seo: score('seo') },
          lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
          tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
          cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
          failing,
        });
        opts.log?.(`lighthouse ${url} run ${i + 1}/${opts.runs}: ${CATEGORIES.map((c) => runs.at(-1)!.scores[c]).join('/')} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
      const m = (f: (r: LighthouseRun) => number) => median(runs.map(f));
      results.push({
        url,
        runs,
        median: {
          scores: { performance: m((r) => r.scores.performance), accessibility: m((r) => r.scores.accessibility), 'best-practices': m((r) => r.scores['best-practices']), seo: m((r) => r.scores.seo) },
          lcpMs: m((r) => r.lcpMs), tbtMs: m((r) => r.tbtMs), cls: m((r) => r.cls),
        },
        failing: [...new Set(runs.flatMap((r) => r.failing))],
      });
    }
    return results;
  } finally {
    chrome.kill();
  }
}

export function lighthouseReport(pages: LighthousePage[], budgets: Budgets['lighthouse']): GateReport {
  const failures: string[] = [];
  const warnings: string[] = [];
  for (const p of pages) {
    for (const c of CATEGORIES) {
      if (p.median.scores[c] < budgets.minScores[c]) failures.push(`${p.url}: ${c} ${p.median.scores[c]} < ${budgets.minScores[c]} (median of ${p.runs.length}; points lost on ${p.failing.filter((f) => f.startsWith(c)).join(', ') || 'metrics'})`);
    }
    if (p.median.tbtMs > budgets.maxTotalBlockingTimeMs) failures.push(`${p.url}: Total Blocking Time ${Math.round(p.median.tbtMs)} ms > ${budgets.maxTotalBlockingTimeMs} ms`);
    if (!failures.some((f) => f.startsWith(`${p.url}:`))) warnings.push(...p.failing.filter((f) => !f.startsWith('performance')).map((f) => `${p.url}: below 1 in some run: ${f}`));
  }
  const ms = (n: number) => `${Math.round(n)} ms`;
  return {
    gate: `Lighthouse (mobile, median of ${pages[0]?.runs.length ?? 0})`,
    columns: ['page', 'perf', 'a11y', 'best pr.', 'SEO', 'LCP', 'TBT', 'CLS'],
    rows: [
      ['(limit)', `≥ ${budgets.minScores.performance}`, `≥ ${budgets.minScores.accessibility}`, `≥ ${budgets.minScores['best-practices']}`, `≥ ${budgets.minScores.seo}`, '-', `≤ ${budgets.maxTotalBlockingTimeMs} ms`, '-'],
      ...pages.map((p) => [p.url, ...CATEGORIES.map((c) => String(p.median.scores[c])), ms(p.median.lcpMs), ms(p.median.tbtMs), p.median.cls.toFixed(3)]),
    ],
    failures,
    warnings,
    summary: `lighthouse: ${pages.length} pages × ${pages[0]?.runs.length ?? 0} runs`,
  };
}
