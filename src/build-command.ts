import path from 'node:path';
import { buildSite } from './build.ts';
import { ContentErrors, formatContentError } from './content/errors.ts';
import { formatSummary } from './summary.ts';
import { overridesFromEnv } from './config.ts';
import { BudgetError } from '../quality/budgets.ts';

type Io = { out: (s: string) => void; err: (s: string) => void };

/** `site build`: kept apart from cli.ts so that `site --help` and the other commands never load the build. */
export async function buildCommand(opts: { root: string; out: string; siteUrl?: string }, io: Io): Promise<number> {
  try {
    const overrides = { ...overridesFromEnv(process.env), ...(opts.siteUrl ? { url: opts.siteUrl } : {}) };
    const result = await buildSite({ root: opts.root, outDir: opts.out, overrides });
    io.out(formatSummary(result.summary));
    io.out(`  wrote ${path.relative(process.cwd(), path.resolve(opts.out)) || '.'}/ and, outside it, ${path.relative(process.cwd(), result.metaDir)}/ (routing table, CloudFront functions)`);
    return 0;
  } catch (error) {
    return reportBuildError(error, io.err);
  }
}

export function reportBuildError(error: unknown, err: (s: string) => void): number {
  if (error instanceof ContentErrors) {
    for (const e of error.errors) err(formatContentError(e));
    err(`build stopped: ${error.errors.length} content error${error.errors.length === 1 ? '' : 's'} in ${new Set(error.errors.map((e) => e.file)).size} file(s)`);
    return 1;
  }
  if (error instanceof BudgetError) { for (const line of error.lines) err(line); return 1; }
  err(`build failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
  return 1;
}
