import type * as LH from 'lighthouse/types/lh.js';
import { navigationGather } from 'lighthouse/core/gather/navigation-runner.js';
import { Runner } from 'lighthouse/core/runner.js';
import * as chromeLauncher from 'chrome-launcher';
import { readFileSync } from 'node:fs';
import { cpuGroup, type CpuGroup } from './cpu-priority.ts';
import { processTree } from './process-tree.mjs';
import { CHROMIUM } from './browser.ts';
import { busyCores } from './cores.ts';
import type { Budgets } from '../src/measure/budgets.ts';
import type { GateReport } from './report.ts';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

/**
 * Headless, and nothing that reaches the network by itself. One renderer process at most, so that
 * Lighthouse's page commits in the renderer `warmRenderer` started (see there).
 */
export const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--renderer-process-limit=1'];

export interface LighthouseRun {
  /** Every category in a page's first run; performance alone in the others. */
  scores: Partial<Record<Category, number>>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's measure of the host's CPU in this run (higher is faster; its 4× slowdown assumes 1,500–2,000). */
  benchmarkIndex: number;
  /** The CPU slowdown the run simulated (`cpuSlowdownFor` its benchmark index). */
  cpuSlowdown: number;
  /** What the run waited for before it started: '' when the machine was quiet at once (`waitForQuiet`). */
  waited?: string;
  /** Audits that cost a category points: 'accessibility: image-alt'. */
  failing: string[];
}

export interface LighthousePage { url: string; runs: LighthouseRun[]; median: { scores: Record<Category, number>; lcpMs: number; tbtMs: number; cls: number }; failing: string[] }

/** A page to audit: its label in the report, and its full address. */
export interface LighthouseTarget { label: string; url: string }

export const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * The CPU slowdown a run simulates, from the speed Lighthouse measured of the host as the run
 * began (its benchmark index). Lighthouse's default, 4×, is calibrated for a host in its high-end
 * desktop band (an index of 1,500–2,000) and applies the same factor to any host, so a host that
 * other work has slowed to half its speed was simulated as a phone twice as slow as the one meant.
 * Here a host at or above the band's floor keeps the default; one below it is slowed less, in
 * proportion to its index, so that it simulates the phone a 1,500 host does under 4×. Never below
 * 1×: a host slower than that phone is measured as it is.
 */
export const DEFAULT_SLOWDOWN = 4;
export const CALIBRATED_INDEX = 1_500;
export function cpuSlowdownFor(benchmarkIndex: number): number {
  if (!(benchmarkIndex > 0)) return DEFAULT_SLOWDOWN;
  return Math.max(1, Math.min(DEFAULT_SLOWDOWN, (DEFAULT_SLOWDOWN * benchmarkIndex) / CALIBRATED_INDEX));
}

/**
 * Audits left out of every run. `bf-cache` weighs nothing in any score (a diagnostic of the
 * performance category), and its gatherer navigates away from the page and back after the trace
 * has ended: half a second of every run (0.52–0.54 s, 1 December 2026) that decides nothing here.
 */
export const SKIPPED_AUDITS = ['bf-cache'] as const;

/**
 * One Lighthouse run: the page is loaded and traced once, unthrottled as simulated throttling
 * does, then audited with the CPU slowdown its host's benchmark index calls for (`cpuSlowdownFor`).
 * (`lighthouse()` does the same two steps with one slowdown fixed beforehand; the gathered
 * settings are the audit's settings, so the slowdown is set on both.) Chromium now and then fails
 * to record a trace (NO_NAVSTART, say): that is the tool, not the page, so such a run is tried
 * again, twice at most.
 */
async function audit(url: string, port: number, categories: readonly Category[], attempts = 3): Promise<LH.Result> {
  for (let attempt = 1; ; attempt++) {
    const { artifacts, runnerOptions } = await navigationGather(undefined, url, { flags: { port, output: 'json', logLevel: 'error', onlyCategories: [...categories], disableFullPageScreenshot: true, skipAudits: [...SKIPPED_AUDITS] } });
    const settings = runnerOptions.resolvedConfig.settings;
    if (artifacts.settings !== settings) throw new Error('Lighthouse gathered with settings other than those it audits with');
    settings.throttling = { ...settings.throttling, cpuSlowdownMultiplier: cpuSlowdownFor(artifacts.BenchmarkIndex) };
    const result = await Runner.audit(artifacts, runnerOptions);
    const error = result ? result.lhr.runtimeError : { code: 'NO_RESULT', message: 'Lighthouse returned nothing' };
    if (result && !error) return result.lhr;
    if (attempt >= attempts) throw new Error(`Lighthouse could not audit ${url}: ${error?.message ?? 'no result'} (${error?.code ?? ''})`);
  }
}

function readRun(lhr: LH.Result, categories: readonly Category[]): LighthouseRun {
  const scores: LighthouseRun['scores'] = {};
  for (const c of categories) scores[c] = Math.round((lhr.categories[c]?.score ?? 0) * 100);
  const failing = categories.flatMap((c) => (lhr.categories[c]?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1 && lhr.audits[ref.id]?.scoreDisplayMode !== 'informative')
    .map((ref) => `${c}: ${ref.id}${lhr.audits[ref.id]?.displayValue ? ` (${lhr.audits[ref.id]!.displayValue})` : ''}`));
  return {
    scores,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    cpuSlowdown: lhr.configSettings.throttling.cpuSlowdownMultiplier ?? NaN,
    failing,
  };
}

/**
 * The default (mobile) configuration: a mid-range phone on a slow 4G connection, simulated.
 * Runs one after another, each in a Chromium of its own, so that runs never compete for the two
 * cores.
 *
 * The runs go round the pages (every page once, then every page again) rather than page by page:
 * the simulation scales the main thread's observed tasks, so a minute in which the shared machine
 * is slow would otherwise land on all of one page's runs, and its median with them. Performance is
 * the median of `runs`; accessibility, best practices and SEO do not change from run to run, so
 * they are audited once, in the first round. With `limits`, a page's runs end once the verdict on
 * them is settled (`settled`): three runs of five that all meet the limits leave nothing to decide. With `quietWithinMs`, each run first waits for a
 * quiet machine (`waitForQuiet`), all the waits together that long at most, so that a machine that
 * other work keeps busy all along delays the gate once, not once a run.
 */
export async function runLighthouse(opts: { targets: LighthouseTarget[]; runs: number; log?: (line: string) => void; quietWithinMs?: number; limits?: Budgets['lighthouse'] }): Promise<LighthousePage[]> {
  const runs = new Map<string, LighthouseRun[]>(opts.targets.map((t) => [t.label, []]));
  let waitLeft = opts.quietWithinMs ?? 0;
  const groups = await chromiumGroups(`site-lighthouse-${process.pid}-${++groupCount}`);
  let unfavoured: string | undefined;
  const favour = async (pid: number | undefined) => {
    const why = pid === undefined ? 'Chromium has no process id' : await groups.add(pid);
    if (why && !unfavoured) opts.log?.(`lighthouse: Chromium's CPU weights could not all be set, so other work may hold its renderer off a core: ${(unfavoured = why)}`);
  };
  try {
    for (let round = 0; round < opts.runs; round++) {
      const categories = round === 0 ? CATEGORIES : (['performance'] as const);
      for (const target of opts.targets) {
        if (opts.limits && settled(runs.get(target.label)!, opts.runs, opts.limits)) continue;
        const waitStarted = Date.now();
        const quiet = waitLeft > 0 ? await waitForQuiet(waitLeft) : '';
        waitLeft -= Date.now() - waitStarted;
        const started = Date.now();
        const run = await warmRenderer(target.url, favour, async (port) => readRun(await audit(target.url, port, categories), categories));
        runs.get(target.label)!.push(quiet ? { ...run, waited: quiet.replace(/^; /, '') } : run);
        opts.log?.(`lighthouse ${target.label} run ${round + 1}/${opts.runs}: ${categories.map((c) => run.scores[c]).join('/')}, TBT ${Math.round(run.tbtMs)} ms, CPU index ${Math.round(run.benchmarkIndex)}, slowdown ${run.cpuSlowdown.toFixed(1)}× (${((Date.now() - started) / 1000).toFixed(1)} s${quiet})`);
      }
    }
  } finally {
    await groups.remove();
  }
  return opts.targets.map(({ label }) => {
    const own = runs.get(label)!;
    const m = (f: (r: LighthouseRun) => number) => median(own.map(f));
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, c === 'performance' ? m((r) => r.scores.performance ?? 0) : own[0]!.scores[c] ?? 0])) as Record<Category, number>;
    return { url: label, runs: own, median: { scores, lcpMs: m((r) => r.lcpMs), tbtMs: m((r) => r.tbtMs), cls: m((r) => r.cls) }, failing: [...new Set(own.flatMap((r) => r.failing))] };
  });
}

/**
 * Whether the verdict of `total` runs is already known from those done: with an odd number of runs,
 * a median meets its limit exactly when a majority of the runs do, so once a majority of a page's
 * runs meet the performance and TBT limits, or a majority misses one of them, the runs left cannot
 * change the verdict. (With an even number the median is a mean of two, and every run counts.)
 */
export function settled(done: readonly LighthouseRun[], total: number, limits: Pick<Budgets['lighthouse'], 'minScores' | 'maxTotalBlockingTimeMs'>): boolean {
  if (total % 2 === 0) return done.length >= total;
  const majority = (total + 1) / 2;
  const decided = (meets: (r: LighthouseRun) => boolean) => {
    const met = done.filter(meets).length;
    return met >= majority || done.length - met >= majority;
  };
  return decided((r) => (r.scores.performance ?? 0) >= limits.minScores.performance) && decided((r) => r.tbtMs <= limits.maxTotalBlockingTimeMs);
}

/**
 * The weights of each run's Chromium against any other process (1,024 each), where the machine
 * lets them be set (quality/cpu-priority.ts). The simulation scales the main-thread tasks it
 * observes by the slowdown it derives from the CPU index it measured, so a renderer that another
 * process holds off a core is charged that wait, four times over, as the page's blocking time.
 *
 * - Chromium as a whole weighs ten times any other process. Beside `stress-ng --cpu 1` on two
 *   cores, with equal weights, TBT runs of one page spread from 23 to 667 ms (29 November 2026).
 * - Its renderers weigh ten times that again, in a group of their own. Chromium runs its browser
 *   and GPU processes at nice -8 and its renderers at 0 (nice does not reach them: Chromium sets
 *   it itself), so in one group the page's main thread yielded to the browser's own tracing work.
 *   Beside `stress-ng --cpu 1`, 32 loads of `/services/data-cleaning` each way (1 December 2026),
 *   the renderer's main thread waited for a core 497 ms a load on average (up to 1,970 ms) with
 *   one group, and 191 ms (113–233) with two; runs with any blocking time fell from 14 to 4.
 * - Not real-time priority: the renderer under SCHED_FIFO waited 0–3 ms, but the group's
 *   real-time budget cut long stretches of script short, Lighthouse's CPU index fell from about
 *   2,500 to 660–1,100, and `cpuSlowdownFor` would then have simulated a faster phone.
 */
const BROWSER_SHARES = 10_240;
const RENDERER_SHARES = 102_400;
let groupCount = 0;

/**
 * The CPU groups of one Chromium: `add` moves the browser and every process it has started into
 * a group of BROWSER_SHARES, then the zygote that forks its renderers (and the renderers it has
 * forked) into one of RENDERER_SHARES, so that every renderer it forks from then on starts there.
 * Says why not, where it could not.
 */
export async function chromiumGroups(name: string, controller?: string): Promise<CpuGroup> {
  const browser = await cpuGroup(name, BROWSER_SHARES, controller);
  const renderers = await cpuGroup(`${name}-renderers`, RENDERER_SHARES, controller);
  return {
    async add(pid) {
      const why = await browser.add(pid);
      if (why) return why;
      const zygote = processTree(pid).find((p) => {
        const args = commandLine(p);
        return args.includes('--type=zygote') && !args.includes('--no-zygote-sandbox');
      });
      return zygote === undefined ? `no renderer zygote among Chromium ${pid}'s processes` : renderers.add(zygote);
    },
    async remove() {
      await renderers.remove();
      await browser.remove();
    },
  };
}

/** A process's arguments, or none if it has ended. (Chromium's child processes rewrite theirs as one string, separated by spaces.) */
function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
  } catch {
    return [];
  }
}

/**
 * Waits, `limitMs` at most, until other work keeps less than half a core busy: the simulation
 * scales the main-thread tasks it observes, so a run beside a busy process (a test runner's
 * Chromium still closing, a build) measures that process as the page's. Says what it waited for.
 */
export async function waitForQuiet(limitMs: number, sampleMs = 500): Promise<string> {
  const started = Date.now();
  for (;;) {
    const busy = await busyCores(sampleMs);
    if (busy === undefined || busy < 0.5) return Date.now() - started > sampleMs * 1.5 ? `; waited ${((Date.now() - started) / 1000).toFixed(1)} s for a quiet machine` : '';
    if (Date.now() - started >= limitMs) return `; ran beside ${busy.toFixed(1)} busy cores after waiting ${Math.round(limitMs / 1000)} s`;
  }
}

/**
 * A Chromium of its own for one run, whose renderer for the site is already running when
 * Lighthouse navigates: a first tab opens the site's robots.txt, and with one renderer at most
 * the audited page commits in that process.
 *
 * Why: on this kind of machine (a small VM, two cores) a renderer started by the audited
 * navigation itself spends 60–110 ms of main thread creating its first JavaScript context
 * (DocumentLoader::CommitNavigation, LocalWindowProxy::Initialize), and the simulation counts
 * four times that as blocking time. That is the browser starting, not the page: a two-element
 * test page measured a median of 81 ms of Total Blocking Time (12–144, 5 runs) without the first
 * tab and 37 ms (1–96) with it. A phone's Chrome keeps a spare renderer running for the same
 * reason. Why not one Chromium for every run: the renderer would then carry the previous page's
 * heap, and V8 collected it (a 55 ms major GC) in the middle of the next page's load.
 *
 * It does not always hold: beside `stress-ng --cpu 1` (1 December 2026) the audited page committed
 * in a renderer started during Lighthouse's own navigation in 20 of 32 loads, and in 6 of 8 when
 * Lighthouse was given the robots.txt tab itself to navigate. With the renderers' own CPU group
 * (`chromiumGroups`), 3 of those 20 runs had any blocking time (107 ms in all) against 1 of the 12
 * in the warm renderer (29 ms): within the limit either way, so it is left as it is.
 */
async function warmRenderer<T>(pageUrl: string, favour: (pid: number | undefined) => Promise<void>, run: (port: number) => Promise<T>): Promise<T> {
  // chrome-launcher polls for the DevTools port every 500 ms unless told: a start of 0.3 s then waited 0.5 s,
  // one of 0.6 s a whole second. Every 50 ms instead, for a minute at most (its own limit is 25 s).
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent', connectionPollInterval: 50, maxConnectionRetries: 1_200 });
  try {
    // Before any tab opens: the renderers Chromium starts from now on are in their group too.
    await favour(chrome.pid);
    const first = new URL('/robots.txt', pageUrl).href;
    const opened = await fetch(`http://127.0.0.1:${chrome.port}/json/new?${first}`, { method: 'PUT' });
    if (!opened.ok) throw new Error(`Chromium would not open ${first}: ${opened.status} ${await opened.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    return await run(chrome.port);
  } finally {
    chrome.kill();
  }
}

export function lighthouseReport(pages: LighthousePage[], budgets: Budgets['lighthouse']): GateReport {
  const failures: string[] = [];
  const warnings: string[] = [];
  for (const p of pages) {
    for (const c of CATEGORIES) {
      if (p.median.scores[c] < budgets.minScores[c]) failures.push(`${p.url}: ${c} ${p.median.scores[c]} < ${budgets.minScores[c]} (${c === 'performance' ? `median of ${p.runs.length}` : 'first run'}; points lost on ${p.failing.filter((f) => f.startsWith(c)).join(', ') || 'metrics'})`);
    }
    if (p.median.tbtMs > budgets.maxTotalBlockingTimeMs) failures.push(`${p.url}: Total Blocking Time ${Math.round(p.median.tbtMs)} ms > ${budgets.maxTotalBlockingTimeMs} ms (runs ${p.runs.map((r) => Math.round(r.tbtMs)).join(', ')} ms; CPU index ${p.runs.map((r) => Math.round(r.benchmarkIndex)).join(', ')}; slowdown ${p.runs.map((r) => `${r.cpuSlowdown.toFixed(1)}×`).join(', ')})`);
    if (!failures.some((f) => f.startsWith(`${p.url}:`))) warnings.push(...p.failing.filter((f) => !f.startsWith('performance')).map((f) => `${p.url}: below 1 in some run: ${f}`));
  }
  const ms = (n: number) => `${Math.round(n)} ms`;
  return {
    gate: `Lighthouse (mobile, performance the median of ${runCounts(pages)})`,
    columns: ['page', 'perf', 'a11y', 'best pr.', 'SEO', 'LCP', 'TBT', 'CLS'],
    rows: [
      ['(limit)', `≥ ${budgets.minScores.performance}`, `≥ ${budgets.minScores.accessibility}`, `≥ ${budgets.minScores['best-practices']}`, `≥ ${budgets.minScores.seo}`, '-', `≤ ${budgets.maxTotalBlockingTimeMs} ms`, '-'],
      ...pages.map((p) => [p.url, ...CATEGORIES.map((c) => String(p.median.scores[c])), ms(p.median.lcpMs), ms(p.median.tbtMs), p.median.cls.toFixed(3)]),
    ],
    failures,
    warnings,
    summary: `lighthouse: ${pages.length} pages × ${runCounts(pages)} runs${waits(pages)}`,
  };
}

/** How many runs each page had: '5', or '3–5' where some pages' verdicts were settled sooner. */
function runCounts(pages: LighthousePage[]): string {
  if (!pages.length) return '0';
  const counts = pages.map((p) => p.runs.length);
  const [least, most] = [Math.min(...counts), Math.max(...counts)];
  return least === most ? String(most) : `${least}–${most}`;
}

/** The runs that waited for a quiet machine, or ran beside a busy one, for the gate's summary line. */
function waits(pages: LighthousePage[]): string {
  const all = pages.flatMap((p) => p.runs.filter((r) => r.waited).map((r) => `${p.url}: ${r.waited}`));
  return all.length ? `; ${all.join('; ')}` : '';
}
