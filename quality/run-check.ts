import { existsSync } from 'node:fs';
/**
 * Every quality gate over a fresh production build, each printing a compact table (page, figure,
 * limit) as it finishes, then one last line that says what failed.
 *
 * Order: the build (page budgets); then, side by side, the Nu Html Checker (a Java process of its
 * own, mostly waiting on its JVM), the photo-hero build that Lighthouse needs (photo-hero.ts), and
 * in this process html-validate, check-links and one Chromium for axe, the browser budgets and the
 * CSP watch (none of which measures time); then, once all of those are done, Lighthouse alone, so
 * that its timings have both cores (the home page with a phone photo as its hero).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../src/serve/server.ts';
import { axeReport } from './axe.ts';
import { launchChromium, vp } from './browser.ts';
import { buildGate } from './build-gate.ts';
import { loadBudgets } from '../src/measure/budgets.ts';
import { BUDGETS_FILE } from '../src/measure/budgets-file.ts';
import { fetchHeaders, headersReport, readHeadersFile } from './response-header-checks.ts';
import { htmlGate } from './html.ts';
import { lighthouseReport, runLighthouse } from './lighthouse.ts';
import { linksGate } from './links.ts';
import { OPEN_STATES } from './open-states.ts';
import { servePhotoHero } from './photo-hero.ts';
import { crashed, formatGate, verdict, type GateReport } from './report.ts';
import { readRoutingTable, targets } from './gate-urls.ts';
import { runtimeReport } from './runtime.ts';
import { sweep } from './sweep.ts';
import { vnuGate } from './vnu.ts';

export const GATES = ['budgets', 'html', 'vnu', 'links', 'axe', 'runtime', 'headers', 'lighthouse'] as const;
export type Gate = (typeof GATES)[number];

/**
 * The build lent to other work (`npm test` serves it to the browser tests): `built` hears of its
 * folder once the build gate is done (undefined when the build could not run), and Lighthouse and
 * the folder's removal wait for `back`. `go`, when given, is awaited before the gates after the
 * build start (`npm test` holds them until the machine has room), and `gatesDone` hears when they
 * have all ended, before Lighthouse waits for `back`.
 */
export interface Lend { built(dir: string | undefined): void; back: PromiseLike<unknown>; go?(): PromiseLike<unknown>; gatesDone?(): void }

export async function runCheck(opts: { root: string; gates: Set<Gate>; out: (line: string) => void; lend?: Lend }): Promise<{ reports: GateReport[]; ok: boolean }> {
  const started = Date.now();
  const reports: GateReport[] = [];
  /** Prints a gate's report with the time it took: from `since` until now, or until `until`. */
  const emit = (report: GateReport, since: number, until = Date.now()) => {
    report.summary += ` [${((until - since) / 1000).toFixed(1)} s]`;
    reports.push(report);
    for (const line of formatGate(report)) opts.out(line);
  };
  /** A gate started now, its time its own; `emit` it once awaited. */
  const start = (name: string, fn: () => Promise<GateReport>): Promise<[GateReport, number, number]> => {
    const since = Date.now();
    return fn().then((report) => [report, since, Date.now()], (error: unknown) => [crashed(name, error), since, Date.now()]);
  };
  const gate = async (name: string, fn: () => Promise<GateReport>) => { emit(...(await start(name, fn))); };

  const budgets = await loadBudgets(opts.root);
  if (!budgets) throw new Error(`${BUDGETS_FILE} is missing from ${opts.root}: the page budgets live there`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'site-check-'));
  const out = path.join(work, 'dist');
  let server: RunningServer | undefined;
  let vnu: ReturnType<typeof start> | undefined;
  let photo: Promise<RunningServer | Error> | undefined;
  try {
    const since = Date.now();
    const built = await buildGate({ root: opts.root, outDir: out, budgets }).catch((error: unknown) => ({ report: crashed('build', error), result: undefined, failed: true }));
    if (opts.gates.has('budgets') || 'failed' in built) emit(built.report, since);
    opts.lend?.built('failed' in built ? undefined : built.dir);
    if ('failed' in built) return await finish(); // every other gate needs the build
    // The pages as built: dist/, or where an over-budget build left them.
    const dir = built.dir;
    const consentVersion = built.result?.site.settings.cookiePolicyVersion ?? 1;
    await opts.lend?.go?.();

    // Started now, awaited before Lighthouse: the checker in its own Java process, and the home page
    // with a 4 MB phone photo as its hero, in place of the SVG (the heaviest first screen an author
    // can give it), built and served beside the real site.
    if (opts.gates.has('vnu')) vnu = start('vnu', () => vnuGate({ dir }));
    if (opts.gates.has('lighthouse') && budgets.lighthouse.pages.includes('/')) {
      photo = servePhotoHero({ root: opts.root, work, budgets }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    }
    if (opts.gates.has('html')) await gate('html', () => htmlGate({ dir, root: opts.root }));
    if (opts.gates.has('links')) await gate('links', () => linksGate({ dir }));

    const table = await readRoutingTable(dir);
    const pages = targets(table);
    server = await startServer({ root: opts.root, outDir: dir, port: 0, host: '127.0.0.1', watch: false, prebuilt: true });
    const origin = server.url;

    const wantsBrowser = opts.gates.has('axe') || opts.gates.has('runtime') || opts.gates.has('headers');
    if (wantsBrowser) {
      const since = Date.now();
      const browser = await launchChromium();
      try {
        const views = await sweep({ browser, origin, targets: pages, states: OPEN_STATES, consentVersion, slotRatio: budgets.images.maxPixelsPerSlotPixel })
          .catch((error: unknown) => { emit(crashed('browser sweep (axe, runtime, headers)', error), since); return undefined; });
        if (!views) return await finish();
        if (opts.gates.has('axe')) emit(axeReport(views), since);
        if (opts.gates.has('runtime')) emit(runtimeReport(views, budgets), since);
        if (opts.gates.has('headers')) {
          await gate('headers', async () => {
            const css = (await readdir(path.join(dir, 'assets'))).filter((f) => f.endsWith('.css')).map((f) => `/assets/${f}`);
            // Assets, a redirect and a trailing-slash answer carry the headers too.
            // And the search index's worker, which answers with the search paths' own CSP.
            const search = existsSync(path.join(dir, 'pagefind', 'pagefind-worker.js')) ? ['/pagefind/pagefind-worker.js'] : [];
            const extra = [...css, ...search, ...Object.keys(table.redirects).slice(0, 1), ...pages.filter((p) => p.url !== '/' && p.status === 200).slice(0, 1).map((p) => `${p.url}/`)];
            const answers = await fetchHeaders(origin, pages, extra);
            const noise = views.map((v) => ({ label: v.label, viewport: Number(vp(v.viewport)), noise: v.noise }));
            return headersReport({ expected: await readHeadersFile(dir), answers, noise, labels: new Map(pages.map((p) => [p.url, p.label])) });
          });
        }
      } finally {
        await browser.close();
      }
    }

    if (vnu) { emit(...(await vnu)); vnu = undefined; }
    // The photo-hero build too: it is part of the gates' work, not of Lighthouse's.
    await photo;
    opts.lend?.gatesDone?.();

    await opts.lend?.back;
    if (opts.gates.has('lighthouse')) {
      // Nothing else runs from here on: the photo-hero build is awaited before the first audit.
      await gate('lighthouse', async () => {
        const { pages: urls, runs } = budgets.lighthouse;
        const hero = await photo;
        if (hero instanceof Error) throw hero;
        const home = hero ? [{ label: '/ (photo hero)', url: `${hero.url}/` }] : [];
        const rest = urls.filter((u) => u !== '/').map((u) => ({ label: u, url: origin + u }));
        return lighthouseReport(await runLighthouse({ targets: [...home, ...rest], runs, quietWithinMs: 90_000, limits: budgets.lighthouse }), budgets.lighthouse);
      });
    }
  } finally {
    await server?.close();
    await vnu; // should something above have thrown: the checker still reads the build's pages
    const hero = await photo;
    if (hero && !(hero instanceof Error)) await hero.close();
    await opts.lend?.back;
    await rm(work, { recursive: true, force: true });
  }
  return finish();

  async function finish() {
    // A gate still running when an earlier one ended the check (the sweep could not run) is
    // waited for and reported all the same.
    if (vnu) { emit(...(await vnu)); vnu = undefined; }
    opts.out(verdict(reports, (Date.now() - started) / 1000));
    return { reports, ok: reports.every((r) => r.failures.length === 0) };
  }
}
