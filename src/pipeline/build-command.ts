import path from 'node:path';
import type { QuickResult } from './quick-build.ts';
import { startQuick, type QuickStart } from './quick-start.ts';
import { formatSummary, summaryJson } from '../measure/summary.ts';
import { londonDateTime } from '../content/publication.ts';
import { overridesFromEnv } from '../content/settings-from-env.ts';

type Io = { out: (s: string) => void; err: (s: string) => void };

export interface BuildFlags { root: string; out: string; siteUrl?: string; now?: Date; clockFrom: '--now' | 'SITE_NOW'; jsonSummary: boolean; search?: boolean; cms?: boolean;
  /** The whole site, never the quick rebuild. */
  full?: boolean;
  /** Drafts and scheduled articles built too, marked (a pull request's preview): a full build, which `site deploy` puts up only as a preview. */
  drafts?: boolean }

/** `site build`: kept apart from cli.ts so that `site --help` and the other commands never load the build. */
export async function buildCommand(opts: BuildFlags, io: Io, early?: Promise<QuickStart>): Promise<number> {
  try {
    const overrides = { ...overridesFromEnv(process.env), ...(opts.siteUrl ? { url: opts.siteUrl } : {}), ...(opts.search === false ? { search: false } : {}), ...(opts.cms === false ? { cms: undefined } : {}) };
    // Only article bodies changed since the last build: those pages alone (pipeline/quick-build.ts); else the full build.
    const why = process.env.SITE_QUICK_WHY ? (reason: string) => io.err(`  full build: ${reason}`) : undefined;
    const quickOptions = { root: opts.root, outDir: opts.out, overrides, now: opts.now, warn: io.err };
    // Its first steps taken before its modules load (by the CLI, `early`, before it loaded this module): the thread that compares the content's stats answers meanwhile.
    const started = opts.jsonSummary || opts.full || opts.drafts ? undefined : early ?? startQuick(quickOptions);
    started?.catch(() => undefined); // quickBuild says why
    const quick = started && await (await import('./quick-build.ts')).quickBuild(quickOptions, why, started);
    if (quick) {
      io.out(formatQuick(quick));
      if (opts.now) io.out(`  clock: ${londonDateTime(opts.now)} (${opts.clockFrom}), not the real time`);
      io.out(`  wrote ${path.relative(process.cwd(), path.resolve(opts.out)) || '.'}/ and, outside it, ${path.relative(process.cwd(), quick.deployDir)}/ (routing table, CloudFront functions)`);
      return 0;
    }
    // Loaded only now: a quick rebuild needs none of the full build's stages (esbuild's service, search, cards, images).
    const { buildSite } = await import('./build.ts');
    const result = await buildSite({ root: opts.root, outDir: opts.out, overrides, now: opts.now, warn: io.err, ...(opts.drafts ? { preview: true } : {}) });
    if (opts.jsonSummary) { io.out(summaryJson(result.summary)); return 0; }
    io.out(formatSummary(result.summary));
    if (opts.drafts) io.out("  drafts and scheduled articles built too, each marked (--drafts): site deploy puts this build up only as a pull request's preview");
    if (opts.now) io.out(`  clock: ${londonDateTime(opts.now)} (${opts.clockFrom}), not the real time`);
    io.out(`  wrote ${path.relative(process.cwd(), path.resolve(opts.out)) || '.'}/ and, outside it, ${path.relative(process.cwd(), result.deployDir)}/ (routing table, CloudFront functions)`);
    return 0;
  } catch (error) {
    return reportBuildError(error, io.err);
  }
}

/** A quick rebuild's summary: the pages it made and left standing, and its stages' times (as the full build's `time:` line). */
function formatQuick(q: QuickResult): string {
  const articles = q.articles.length === 1 ? `1 article's body changed` : `${q.articles.length} articles' bodies changed`;
  const times = Object.entries(q.stages).map(([name, ms]) => `${name} ${Math.round(ms)} ms`).join(', ');
  return [`built ${q.pages} pages (a quick rebuild: ${articles}; ${q.made} page${q.made === 1 ? '' : 's'} made, the rest stand)`, `  time: ${times}`].join('\n');
}

/**
 * Prints why the build failed; every build failure exits 1. Its words loaded only then: they know
 * every kind of error, and with them the schemas and zod, which a quick rebuild never loads.
 */
export async function reportBuildError(error: unknown, err: (s: string) => void): Promise<number> {
  const { describeBuildError } = await import('./errors.ts');
  for (const line of describeBuildError(error)) err(line);
  return 1;
}
