import { checkLinksCommand } from '../src/links/command.ts';
import type { Report } from '../src/links/report.ts';
import { loadRoutingTable, pageUrlOf, staticUrlOf } from '../src/links/site.ts';
import { htmlFiles } from './html.ts';
import type { GateReport } from './report.ts';

/** No broken links: `site check-links` over the build (its JSON report), tabulated per page. */
export async function linksGate(opts: { dir: string }): Promise<GateReport> {
  const lines: string[] = [];
  const problems: string[] = [];
  const code = await checkLinksCommand({ dir: opts.dir, external: false, json: true, out: (l) => lines.push(l), err: (l) => problems.push(l) });
  if (code === 2) throw new Error(problems.join('; ') || 'check-links could not read the build');
  const report = JSON.parse(lines.join('\n')) as Report;
  const perPage = new Map<string, number>();
  for (const b of report.broken) perPage.set(b.page, (perPage.get(b.page) ?? 0) + 1);
  for (const d of report.duplicateIds) perPage.set(d.page, (perPage.get(d.page) ?? 0) + 1);
  // Each page by the URL the report names it by (see links/command.ts).
  const routing = await loadRoutingTable(opts.dir);
  const urlOf = 'table' in routing && routing.table ? pageUrlOf(routing.table) : staticUrlOf;
  const pages = (await htmlFiles(opts.dir)).map((f) => urlOf('/' + f));
  const failures = [
    ...report.grouped.map((g) => `in the layout (${g.pages} pages): ${g.link} → ${g.reason}`),
    ...report.broken.map((b) => `${b.page}: ${b.link} → ${b.reason}`),
    ...report.duplicateIds.map((d) => `${d.page}: duplicate id "${d.id}"`),
  ];
  return {
    gate: 'links (site check-links)',
    columns: ['page', 'broken'],
    rows: [['(limit)', '0'], ...(report.grouped.length ? [['(layout, every page)', String(report.grouped.length)]] : []), ...pages.map((p) => [p, String(perPage.get(p) ?? 0)])],
    failures,
    warnings: [],
    summary: `links: ${report.pages} pages, ${report.internal} internal links, ${report.external.length} external (not fetched); ${report.broken.length + report.grouped.length} broken, ${report.duplicateIds.length} duplicate ids`,
  };
}
