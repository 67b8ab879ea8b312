// What every stage of a build may be handed: the build's options, what it returns, and one run of
// its stages (its settings, resolved once, and the time each stage took). A module of its own, so
// that the stages take these types from here and not from build.ts, which imports them.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Site } from '../content/load.ts';
import type { ContentError } from '../content/errors.ts';
import type { Route } from '../routes/table.ts';
import type { DocumentShell } from '../render/page-output.ts';
import type { BuildSummary } from '../measure/summary.ts';
import type { RoutingTable } from '../url-resolution/resolve.ts';
import type { SettingsOverrides } from '../content/settings-from-env.ts';
import type { Budgets } from '../measure/budgets.ts';
import type { BuildCode } from '../pool/code.ts';
import { CACHE_DIR } from '../output/layout.ts';
import type { BuildSession } from './session.ts';

export interface BuildOptions {
  /** The project folder holding content/, templates/ and islands/. */
  root: string;
  /** The content folder, if not root/content (a test's copy, say). */
  contentDir?: string;
  /** Where image variants (images/) and share cards (cards/) are cached; by default the build cache, root/.site/cache, git-ignored. */
  cacheDir?: string;
  outDir: string;
  /** Where the output trees and the deploy folder go; by default the .site/ beside outDir (see output/layout.ts). */
  family?: string;
  /** Settings that win over content/site.yaml (from flags and the environment). */
  overrides?: SettingsOverrides;
  /** The build's clock, passed in so every stage below is repeatable; it decides which articles are published. */
  now?: Date;
  /** `site serve`'s preview: drafts and scheduled articles are built too, each marked with a banner. */
  preview?: boolean;
  /** Tags `site serve` adds to every page's head. */
  extraHead?: string;
  /** The page budgets to hold the build to; by default the project's budgets.json (none if it has none). */
  budgets?: Budgets | false;
  /** What a long-running `site serve` keeps between its builds. */
  session?: BuildSession;
  /** Below this many markdown files or pages to redo, work stays on the main thread (see pool/build-workers.ts). */
  poolThreshold?: number;
  /** Where a one-line warning goes (a discarded cache); standard error by default. */
  warn?: (line: string) => void;
  /**
   * Called once the site is loaded and its routes planned, before any page renders: what `site serve`
   * needs to answer a save from memory (serve/live-site.ts) while the build goes on. Awaited.
   */
  planned?: (early: PlannedBuild) => void | Promise<void>;
  /**
   * Called as soon as the output is swapped in, before the steps after it (the tree beside it,
   * pruning): `site serve` answers by this build's routing table from the moment its pages are the
   * ones on disk, never the last table over the new pages. Awaited.
   */
  swapped?: (done: PlannedBuild) => void | Promise<void>;
}

/** The build's site, routes and routing table, and its inputs, as they stand before any page renders. */
export type PlannedBuild = Pick<BuildResult, 'site' | 'routes' | 'table' | 'live'>;

export interface BuildResult {
  site: Site; routes: Route[]; table: RoutingTable; summary: BuildSummary; deployDir: string;
  /** Markdown files parsed and pages rendered by this build; the rest came from the cache. */
  redone: { parsed: number; rendered: number; pool: boolean; documents: number;
    /** Routes whose key was worked out from their props, not found by their sources (see RouteSources). */
    keyed: number };
  /** Problems a preview lets through that a production build refuses (links to unpublished articles). */
  warnings: ContentError[];
  /** What `site serve` keeps to answer an article's save without building again (serve/live-site.ts). */
  live: LiveBuild;
}

/** The build's inputs as it held them: the content as loaded (before publishing), its code, the documents' shell. */
export interface LiveBuild {
  loaded: Site; code: BuildCode; shell: DocumentShell; cardsCode: string; contentDir: string; cacheDir: string; now: Date; preview: boolean;
}

/** Entries serve keeps in memory before starting afresh: far more than a site's pages and files, far less than a gigabyte. */
const SESSION_MEMORY_MAX = 20_000;

/** What one run of the stages works with: its settings, resolved once, and the time each stage took. */
export interface Run {
  opts: BuildOptions; stages: Record<string, number>; startedAt: number; now: Date;
  root: string; outDir: string; contentDir: string; cacheDir: string;
  session?: BuildSession; fresh: boolean; warn: (line: string) => void;
}

export function startRun(opts: BuildOptions): Run {
  const root = path.resolve(opts.root);
  const session = opts.session;
  // Read and reset at the start: a template saved while this build runs makes the next one bundle again.
  const fresh = !session || session.codeChanged;
  if (session) session.codeChanged = false;
  if (session && (session.memory?.size ?? 0) > SESSION_MEMORY_MAX) session.memory = undefined;
  if (session) session.memory ??= new Map();
  return {
    opts, stages: {}, startedAt: performance.now(), now: opts.now ?? new Date(), root, outDir: path.resolve(opts.outDir),
    contentDir: path.resolve(opts.contentDir ?? path.join(root, 'content')), cacheDir: path.resolve(opts.cacheDir ?? path.join(root, CACHE_DIR)),
    session, fresh, warn: opts.warn ?? ((line: string) => process.stderr.write(line + '\n')),
  };
}

/** Runs `fn`, adding the time it took to the stage `name` (a stage may run in parts, as `write` and `cards` do). */
export async function timed<T>(stages: Record<string, number>, name: string, fn: () => Promise<T> | T): Promise<T> {
  const start = performance.now();
  try { return await fn(); } finally { stages[name] = (stages[name] ?? 0) + performance.now() - start; }
}
