import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, Result } from 'axe-core';
import { vp, VIEWPORTS } from './browser.ts';
import type { GateReport } from './report.ts';
import type { PageView } from './page-view.ts';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA (axe tags no rule wcag22a). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

let axeSource: Promise<string> | undefined;
const loadAxe = () => (axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

declare global { interface Window { axe?: { run(context: Document, options: object): Promise<AxeResults> } } }

/**
 * axe in the page. Evaluated through the DevTools protocol, which the page's CSP does not govern,
 * so the site is checked under its real headers (no bypassCSP).
 */
export async function runAxe(page: Page): Promise<Pick<AxeResults, 'violations' | 'incomplete'>> {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(await loadAxe());
  return page.evaluate((tags) => window.axe!.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations', 'incomplete'] }), AXE_TAGS);
}

const describe = (v: PageView, r: Result) =>
  `${v.label} @${vp(v.viewport)}: ${r.id} (${r.impact ?? 'n/a'}) ${r.help}: ${r.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}${r.nodes.length > 3 ? ` and ${r.nodes.length - 3} more` : ''}`;

/** Zero violations of any impact, on every view and open state, at both widths. */
export function axeReport(views: PageView[]): GateReport {
  const labels = [...new Set(views.map((v) => v.label))];
  const cell = (label: string, width: number) => {
    const v = views.find((x) => x.label === label && x.viewport.width === width);
    if (!v) return '-';
    return v.error ? 'error' : String(v.violations.reduce((n, r) => n + r.nodes.length, 0) + v.contrast.failing.length);
  };
  const failures = views.flatMap((v) => [
    ...(v.error ? [`${v.label} @${vp(v.viewport)}: could not check: ${v.error}`] : []),
    ...v.violations.map((r) => describe(v, r)),
    ...v.contrast.failing.map((c) => `${v.label} @${vp(v.viewport)}: color-contrast (measured in pixels) ${c.target}: ${c.ratio}:1 against its background, needs ${c.expected}:1`),
  ]);
  const warnings = views.flatMap((v) => v.incomplete.map((r) => `needs review: ${describe(v, r)}`));
  const sum = (f: (v: PageView) => number) => views.reduce((n, v) => n + f(v), 0);
  return {
    gate: 'accessibility (axe-core, WCAG 2.2 A/AA)',
    columns: ['page or state', `${VIEWPORTS[0].width} px`, `${VIEWPORTS[1].width} px`],
    rows: [['(limit: violating elements)', '0', '0'], ...labels.map((l) => [l, cell(l, VIEWPORTS[0].width), cell(l, VIEWPORTS[1].width)])],
    failures,
    warnings,
    summary: `axe: ${views.filter((v) => !v.error).length} of ${views.length} views checked, ${sum((v) => v.violations.length)} violations; ${sum((v) => v.contrast.checked)} texts over gradients or images measured in pixels (${sum((v) => v.contrast.failing.length)} too faint, ${sum((v) => v.contrast.covered)} under an open dialog skipped), ${warnings.length} left for review`,
  };
}
