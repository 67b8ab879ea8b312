/** What every gate hands back: a compact table to print, the failures, and the warnings. */
export interface GateReport {
  gate: string;
  columns: string[];
  rows: string[][];
  /** One line per failure, naming the page and the figure; empty when the gate passed. */
  failures: string[];
  warnings: string[];
  /** One line that sums the gate up (printed under its table). */
  summary: string;
}

export const KB = 1024;
export const fmtKb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** Columns padded to their widest cell; numbers and sizes right-aligned. */
export function formatTable(columns: string[], rows: string[][]): string[] {
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = columns.map((_, i) => rows.length > 0 && rows.every((r) => /^[-\d.,≤<>= ]*(KB|ms|s|%)?$/.test(r[i] ?? '')));
  const line = (cells: string[]) => cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(columns), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)];
}

export function formatGate(report: GateReport): string[] {
  const status = report.failures.length ? 'FAIL' : 'pass';
  return [
    `── ${report.gate} ── ${status}`,
    ...formatTable(report.columns, report.rows),
    ...report.warnings.map((w) => `warning: ${w}`),
    ...report.failures.map((f) => `FAIL: ${f}`),
    report.summary,
    '',
  ];
}

/** The last line of a run: what failed, or that nothing did. */
export function verdict(reports: GateReport[], seconds: number): string {
  const failed = reports.filter((r) => r.failures.length);
  const time = `${seconds.toFixed(0)} s`;
  if (!failed.length) return `check passed: ${reports.map((r) => r.gate).join(', ')} (${time})`;
  return `check FAILED: ${failed.map((r) => `${r.gate} (${r.failures.length} failure${r.failures.length === 1 ? '' : 's'})`).join(', ')}; passed: ${reports.filter((r) => !r.failures.length).map((r) => r.gate).join(', ') || 'none'} (${time})`;
}

/** A gate that could not run at all is a failure, never a silent pass. */
export function crashed(gate: string, error: unknown): GateReport {
  const message = error instanceof Error ? error.message : String(error);
  return { gate, columns: ['gate', 'error'], rows: [[gate, message.split('\n')[0] ?? '']], failures: [`${gate} could not run: ${message}`], warnings: [], summary: `${gate}: did not run` };
}
