/** `site check-links [--dir dist] [--external] [--json]`: the entry the CLI calls. */
import { stat } from 'node:fs/promises';
import { checkSite } from './check.ts';
import { checkExternalUrls, type ExternalOptions } from './external.ts';
import { extractPage } from './extract.ts';
import { buildReport, formatJson, formatText, reportFailed } from './report.ts';
import { loadRoutingTable, pageUrlOf, readBuiltSite, staticUrlOf } from './site.ts';
import type { Page } from './types.ts';

export interface CheckLinksOptions {
  dir: string;
  external: boolean;
  json: boolean;
  /** Where report lines go (stdout by default). */
  out?: (line: string) => void;
  /** Where usage problems go (stderr by default). */
  err?: (line: string) => void;
  /** For tests: how external URLs are fetched. */
  externalOptions?: ExternalOptions;
}

/** Returns the exit code: 0 nothing broken, 1 broken links (or duplicate ids), 2 a usage problem. */
export async function checkLinksCommand(opts: CheckLinksOptions): Promise<number> {
  const out = opts.out ?? ((line: string) => process.stdout.write(line + '\n'));
  const err = opts.err ?? ((line: string) => process.stderr.write(line + '\n'));
  const isDir = await stat(opts.dir).then((s) => s.isDirectory(), () => false);
  if (!isDir) {
    err(`check-links: ${opts.dir} is not a directory (build the site first: site build)`);
    return 2;
  }
  const site = await readBuiltSite(opts.dir);
  if (site.html.length === 0) {
    err(`check-links: no HTML pages under ${opts.dir} (build the site first: site build)`);
    return 2;
  }
  const routing = await loadRoutingTable(opts.dir);
  if ('error' in routing) {
    err(`check-links: ${routing.error}`);
    return 2;
  }
  const urlOf = routing.table ? pageUrlOf(routing.table) : staticUrlOf;
  const pages: Page[] = site.html.map(({ file, text }) => ({ url: urlOf(file), file, scan: extractPage(text) }));
  pages.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)); // report in URL order, home first
  const findings = checkSite(pages, routing.table, site.files);
  const results = opts.external ? await checkExternalUrls(findings.external.map((e) => e.url), opts.externalOptions) : undefined;
  const report = buildReport(findings, results);
  if (opts.json) out(formatJson(report));
  else for (const line of formatText(report, opts.external)) out(line);
  return reportFailed(report) ? 1 : 0;
}
