import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { HtmlValidate, StaticConfigLoader, type ConfigData } from 'html-validate';
import type { GateReport } from './report.ts';

/**
 * Valid HTML: html-validate over every page of a build, with the project's .htmlvalidate.json
 * (the recommended preset; only the *style* rules are set to the style React writes: `disabled=""`,
 * `hidden=""`, `<img/>` beside the shell's `<meta>`, `fetchPriority`; ids follow HTML's own rule,
 * so a numbered legal section may be `#1-acceptance`). Errors fail the gate; warnings are listed.
 */
export const HTML_CONFIG_FILE = '.htmlvalidate.json';

export async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((f) => f.endsWith('.html')).map((f) => f.split(path.sep).join('/')).sort();
}

export interface HtmlMessage { file: string; line: number; column: number; rule: string; message: string; severity: 'error' | 'warning' }

export async function validateDir(dir: string, config: ConfigData): Promise<{ files: string[]; messages: HtmlMessage[] }> {
  const validator = new HtmlValidate(new StaticConfigLoader(config));
  const files = await htmlFiles(dir);
  const messages: HtmlMessage[] = [];
  for (const file of files) {
    const report = await validator.validateString(await readFile(path.join(dir, file), 'utf8'), file);
    for (const result of report.results) {
      for (const m of result.messages) {
        messages.push({ file, line: m.line, column: m.column, rule: m.ruleId, message: m.message, severity: m.severity >= 2 ? 'error' : 'warning' });
      }
    }
  }
  return { files, messages };
}

export async function loadHtmlConfig(root: string): Promise<ConfigData> {
  return JSON.parse(await readFile(path.join(root, HTML_CONFIG_FILE), 'utf8')) as ConfigData;
}

export async function htmlGate(opts: { dir: string; root: string }): Promise<GateReport> {
  const { files, messages } = await validateDir(opts.dir, await loadHtmlConfig(opts.root));
  const count = (file: string, severity: HtmlMessage['severity']) => messages.filter((m) => m.file === file && m.severity === severity).length;
  const line = (m: HtmlMessage) => `${m.file}:${m.line}:${m.column} ${m.message} (${m.rule})`;
  const errors = messages.filter((m) => m.severity === 'error');
  const warnings = messages.filter((m) => m.severity === 'warning');
  return {
    gate: 'html (html-validate)',
    columns: ['page', 'errors', 'warnings'],
    rows: [['(limit)', '0', '-'], ...files.map((f) => [f, String(count(f, 'error')), String(count(f, 'warning'))])],
    failures: errors.map(line),
    warnings: warnings.map(line),
    summary: `html: ${files.length} pages, ${errors.length} errors, ${warnings.length} warnings`,
  };
}
