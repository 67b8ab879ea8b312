/** Findings → the lines a person reads, or the one JSON object CI reads. */
import path from 'node:path';
import { DEPLOY_DIR } from '../output/layout.ts';
import { groupDuplicateIds, groupLayoutProblems } from './group.ts';
import type { DuplicateId, ExternalResult, Findings, GroupedProblem, Problem } from './types.ts';

export interface Report {
  staticHost: boolean;
  pages: number;
  internal: number;
  external: Array<{ url: string; pages: number; ok?: boolean; status?: number; error?: string }>;
  broken: Problem[];
  grouped: GroupedProblem[];
  duplicateIds: DuplicateId[];
}

/** External failures become per-page problems, so a failing footer link is grouped like any other. */
export function externalProblems(findings: Findings, results: Map<string, ExternalResult>): Problem[] {
  const problems: Problem[] = [];
  for (const link of findings.external) {
    const r = results.get(link.url);
    if (!r || r.ok) continue;
    const reason = r.status !== undefined ? `${r.status} (external)` : `${r.error ?? 'failed'} (external)`;
    for (const page of link.pages) problems.push({ page, link: link.url, reason, kind: 'external' });
  }
  return problems;
}

export function buildReport(findings: Findings, results?: Map<string, ExternalResult>): Report {
  const problems = results ? [...findings.problems, ...externalProblems(findings, results)] : findings.problems;
  const { broken, grouped } = groupLayoutProblems(problems, findings.linkPages, findings.pages);
  const external = findings.external.map((link) => {
    const r = results?.get(link.url);
    return { url: link.url, pages: link.pages.length, ...(r && { ok: r.ok, status: r.status, error: r.error }) };
  });
  return { staticHost: findings.staticHost, pages: findings.pages, internal: findings.internal, external, broken, grouped, duplicateIds: findings.duplicateIds };
}

export function reportFailed(report: Report): boolean {
  return report.broken.length + report.grouped.length + report.duplicateIds.length > 0;
}

function plural(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`;
}

function onPages(count: number, total: number): string {
  return count === total ? `on all ${total} pages` : `on ${count} of ${total} pages`;
}

export function formatText(report: Report, fetched: boolean): string[] {
  const lines: string[] = [];
  for (const g of report.grouped) lines.push(`in the layout (${onPages(g.pages, report.pages)}): ${g.link} → ${g.reason}`);
  for (const b of report.broken) lines.push(`${b.page}: ${b.link} → ${b.reason}`);
  const dups = groupDuplicateIds(report.duplicateIds, report.pages);
  for (const d of dups.layout) lines.push(`in the layout (${onPages(d.pages, report.pages)}): duplicate id "${d.id}"`);
  for (const d of dups.perPage) lines.push(`${d.page}: duplicate id "${d.id}" (${d.count} elements)`);
  const failedExternal = report.external.filter((e) => e.ok === false).length;
  const externalNote = fetched ? `fetched, ${failedExternal} failed` : 'not fetched';
  const broken = report.broken.length + report.grouped.length;
  const dupCount = dups.layout.length + dups.perPage.length;
  lines.push(
    `checked ${plural(report.pages, 'page')}, ${plural(report.internal, 'internal link')}, ` +
      `${plural(report.external.length, 'external link')} (${externalNote}); ${broken} broken` +
      (dupCount ? `, ${plural(dupCount, 'duplicate id')}` : '') +
      (report.staticHost ? ` (no ${path.join(DEPLOY_DIR, 'routing.json')}: resolved as a plain static host)` : ''),
  );
  return lines;
}

export function formatJson(report: Report): string {
  return JSON.stringify(report, null, 2);
}
