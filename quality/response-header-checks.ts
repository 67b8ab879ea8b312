import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { HEADERS_FILE, headersFor, parseHeadersFile, type HeadersFile } from '../src/response-headers.ts';
import { deployFilesOf } from '../src/output/layout.ts';
import type { PageNoise } from './browser.ts';
import type { GateReport } from './report.ts';
import type { Target } from './gate-urls.ts';

export async function readHeadersFile(distDir: string): Promise<HeadersFile> {
  return parseHeadersFile(await readFile(path.join(deployFilesOf(distDir), HEADERS_FILE), 'utf8'));
}

/**
 * Each path's own headers must be the default ones but for 'wasm-unsafe-eval' in script-src (the
 * search page's WebAssembly): nothing else may be loosened for a path.
 */
export function pathProblems(file: HeadersFile): string[] {
  const loosened = (csp: string) => csp.replace(/ 'wasm-unsafe-eval'/, '');
  return file.paths.flatMap((entry) => {
    const { 'content-security-policy': csp = '', ...rest } = entry.headers;
    const { 'content-security-policy': site = '', ...siteRest } = file.default;
    const problems = policyProblems(entry.headers);
    if (loosened(csp) !== site) problems.push(`its CSP differs from the default by more than 'wasm-unsafe-eval' in script-src`);
    if (JSON.stringify(rest) !== JSON.stringify(siteRest)) problems.push('its other headers differ from the default');
    return problems.map((p) => `${entry.patterns.join(' ')}: ${p}`);
  });
}

/** Each header of the file that the answer lacks or sends otherwise. */
export function headerMismatches(expected: Record<string, string>, actual: Headers): string[] {
  return Object.entries(expected).flatMap(([name, value]) => {
    const sent = actual.get(name);
    return sent === value ? [] : [sent === null ? `${name} missing` : `${name} differs: sent "${sent}"`];
  });
}

/** What a strict policy must say, whatever else it allows. */
export function policyProblems(headers: Record<string, string>): string[] {
  const csp = headers['content-security-policy'] ?? '';
  const directive = (name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `));
  const problems: string[] = [];
  if (!csp) problems.push('no Content-Security-Policy');
  const scripts = directive('script-src') ?? directive('default-src') ?? '';
  if (/'unsafe-inline'|'unsafe-eval'|\*(\s|$)/.test(scripts)) problems.push(`script-src allows too much: ${scripts}`);
  // Styles come from the site's own stylesheet: never inline style elements or attributes wholesale.
  const styles = directive('style-src') ?? directive('default-src') ?? '';
  if (/'unsafe-inline'|'unsafe-hashes'|\*(\s|$)/.test(styles)) problems.push(`style-src allows too much: ${styles}`);
  if (directive('frame-ancestors') !== "frame-ancestors 'none'") problems.push("frame-ancestors is not 'none'");
  if (!directive('form-action')) problems.push('no form-action');
  const maxAge = Number(/max-age=(\d+)/.exec(headers['strict-transport-security'] ?? '')?.[1] ?? 0);
  if (maxAge < 31_536_000) problems.push('HSTS missing or under a year');
  if (headers['x-content-type-options'] !== 'nosniff') problems.push('X-Content-Type-Options is not nosniff');
  if (headers['referrer-policy'] !== 'strict-origin-when-cross-origin') problems.push('Referrer-Policy is not strict-origin-when-cross-origin');
  if (!headers['permissions-policy']) problems.push('no Permissions-Policy');
  return problems;
}

/** Fetches every target (and an asset) from the running server and compares its headers with the file. */
export async function fetchHeaders(origin: string, targets: Target[], extra: string[]): Promise<Map<string, Headers>> {
  const answers = new Map<string, Headers>();
  for (const url of [...targets.map((t) => t.url), ...extra]) {
    const res = await fetch(origin + url, { redirect: 'manual' });
    await res.arrayBuffer();
    answers.set(url, res.headers);
  }
  return answers;
}

export interface NoiseByPage { label: string; viewport: number; noise: PageNoise }

/** Strict headers: serve sends exactly .site/deploy/headers.json everywhere (each path its own), the policy is strict, and no page breaks it or logs an error. */
export function headersReport(opts: { expected: HeadersFile; answers: Map<string, Headers>; noise: NoiseByPage[]; labels: Map<string, string> }): GateReport {
  const failures: string[] = [...policyProblems(opts.expected.default), ...pathProblems(opts.expected)].map((p) => `${HEADERS_FILE}: ${p}`);
  const rows: string[][] = [['(limit)', 'all', '0', '0']];
  const pages = [...new Set([...opts.answers.keys()])];
  for (const url of pages) {
    const label = opts.labels.get(url) ?? url;
    const expected = headersFor(opts.expected, url.split('?')[0]!);
    const mismatches = headerMismatches(expected, opts.answers.get(url)!);
    const seen = opts.noise.filter((n) => n.label === label);
    const csp = seen.flatMap((n) => n.noise.csp.map((c) => `${label} @${n.viewport}: CSP violation: ${c}`));
    const errors = seen.flatMap((n) => n.noise.consoleErrors.map((c) => `${label} @${n.viewport}: console error: ${c}`));
    failures.push(...mismatches.map((m) => `${url}: ${m}`), ...[...new Set(csp)], ...[...new Set(errors)]);
    rows.push([label, mismatches.length ? `${Object.keys(expected).length - mismatches.length} of ${Object.keys(expected).length}` : 'all', String(new Set(csp).size), String(new Set(errors).size)]);
  }
  // States and views that are not plain pages (open dialogs, say) add their own noise.
  for (const label of new Set(opts.noise.map((n) => n.label))) {
    if ([...opts.labels.values()].includes(label) || pages.includes(label)) continue;
    const seen = opts.noise.filter((n) => n.label === label);
    const csp = [...new Set(seen.flatMap((n) => n.noise.csp.map((c) => `${label} @${n.viewport}: CSP violation: ${c}`)))];
    const errors = [...new Set(seen.flatMap((n) => n.noise.consoleErrors.map((c) => `${label} @${n.viewport}: console error: ${c}`)))];
    failures.push(...csp, ...errors);
    rows.push([label, '-', String(csp.length), String(errors.length)]);
  }
  return {
    gate: 'security headers and CSP',
    columns: ['page', `headers = ${HEADERS_FILE}`, 'CSP violations', 'console errors'],
    rows,
    failures,
    warnings: [],
    summary: `headers: ${opts.answers.size} answers compared with ${HEADERS_FILE} (${Object.keys(opts.expected.default).length} headers${opts.expected.paths.length ? `, ${opts.expected.paths.length} path entr${opts.expected.paths.length === 1 ? 'y' : 'ies'} of their own` : ''}), ${opts.noise.length} page views watched for CSP violations and console errors`,
  };
}
