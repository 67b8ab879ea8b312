import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { runAxe } from './axe.ts';
import { GUARD_MS, KeptTabs, listen, newContext, pool, VIEWPORTS, type Viewport } from './browser.ts';
import { pixelContrast, undecidedNodes } from './contrast.ts';
import type { OpenState } from './open-states.ts';
import type { PageView } from './page-view.ts';
import type { Target } from './gate-urls.ts';
import { watchNetwork } from './quiet-network.ts';
import { imageSlots } from './runtime.ts';

interface Job { label: string; url: string; status: number; viewport: Viewport; firstVisit: boolean; state?: OpenState }

/**
 * One view: load (as a returning visitor whose cookie choice is stored, unless a first visit is
 * asked for), wait until the network is quiet and the idle islands have woken, count the scripts
 * fetched so far (gzip, as the CDN sends them), measure the images against their slots, then open
 * the state if any, and run axe, settling undecided contrast in pixels. A plain view's tab is kept
 * for the next view at its width; a first visit or an open state has a fresh context of its own.
 */
async function visit(browser: Browser, origin: string, job: Job, consent: string, slotRatio: number, kept: KeptTabs): Promise<PageView> {
  // A plain view never writes the visitor's storage (only the open states do).
  const plain = !job.firstVisit && !job.state;
  const open = async () => (await newContext(browser, job.viewport, job.firstVisit ? undefined : { cookieConsent: consent })).newPage();
  const width = String(job.viewport.width);
  const page = plain ? await kept.take(width, open) : await open();
  const noise = listen(page, job.status);
  const network = watchNetwork(page);
  const sizes = new Map<string, Promise<number>>();
  const imageSizes = new Map<string, Promise<number>>();
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type === 'image' && !imageSizes.has(response.url())) imageSizes.set(response.url(), response.body().then((b) => b.byteLength, () => 0));
    if (type !== 'script' || sizes.has(response.url())) return;
    sizes.set(response.url(), response.body().then((b) => gzipSync(b, { level: 9 }).byteLength, () => 0));
  });
  const view: PageView = {
    label: job.label, url: job.url, viewport: job.viewport, state: job.state?.name, jsBeforeInteraction: 0, scripts: [], imagesBeforeInteraction: 0, imageFiles: [],
    images: { checked: 0, oversized: [] }, violations: [], incomplete: [], contrast: { checked: 0, covered: 0, failing: [] }, noise: { csp: [], consoleErrors: [] },
  };
  try {
    const response = await page.goto(origin + job.url, { waitUntil: 'load' });
    view.status = response?.status();
    if (view.status !== job.status) throw new Error(`answered ${view.status}, expected ${job.status}`);
    // Islands hydrated at idle wake within 2 s at the latest; wait for that, then for their chunks.
    await page.evaluate(() => new Promise<void>((done) => requestIdleCallback(() => done(), { timeout: 2000 })));
    await network.quiet(GUARD_MS);
    view.scripts = [...sizes.keys()].map((u) => new URL(u).pathname);
    view.jsBeforeInteraction = (await Promise.all(sizes.values())).reduce((a, b) => a + b, 0);
    view.imageFiles = [...imageSizes.keys()].map((u) => new URL(u).pathname);
    view.imagesBeforeInteraction = (await Promise.all(imageSizes.values())).reduce((a, b) => a + b, 0);
    view.images = await page.evaluate(imageSlots, slotRatio);
    if (job.state) {
      await job.state.open(page);
      await page.waitForTimeout(300); // let opening transitions settle before contrast is measured
    }
    const axe = await runAxe(page);
    view.violations = axe.violations;
    const undecided = axe.incomplete.filter((r) => r.id === 'color-contrast');
    const pixels = await pixelContrast(page, undecided);
    view.contrast = { checked: pixels.checked, covered: pixels.covered, failing: pixels.failing };
    // What a photograph could not settle stays a warning, node by node; covered text is not read.
    const settled = new Set(undecidedNodes(undecided).map((n) => n.selector).filter((s) => !pixels.unreadable.includes(s)));
    view.incomplete = undecided
      .map((r) => ({ ...r, nodes: r.nodes.filter((n) => !(n.target.length === 1 && settled.has(String(n.target[0])))) }))
      .filter((r) => r.nodes.length > 0);
  } catch (error) {
    view.error = error instanceof Error ? error.message.split('\n')[0] : String(error);
  }
  view.noise = await noise();
  if (plain && !view.error) kept.putBack(width, page);
  else await page.context().close();
  return view;
}

/** Every target at both viewports, then every open state, a few views at a time in one browser. */
export async function sweep(opts: { browser: Browser; origin: string; targets: Target[]; states: OpenState[]; consentVersion: number; slotRatio: number; concurrency?: number }): Promise<PageView[]> {
  const consent = JSON.stringify({ necessary: true, analytics: false, marketing: false, timestamp: new Date(0).toISOString(), version: opts.consentVersion });
  const jobs: Job[] = [
    ...opts.targets.flatMap((t) => VIEWPORTS.map((viewport) => ({ label: t.label, url: t.url, status: t.status, viewport, firstVisit: false }))),
    ...opts.states.flatMap((state) => state.viewports.map((viewport) => ({ label: `${state.url} · ${state.name}`, url: state.url, status: 200, viewport, firstVisit: state.firstVisit ?? false, state }))),
  ];
  const kept = new KeptTabs();
  try {
    return await pool(jobs, opts.concurrency ?? 3, (job) => visit(opts.browser, opts.origin, job, consent, opts.slotRatio, kept));
  } finally {
    await kept.close();
  }
}
