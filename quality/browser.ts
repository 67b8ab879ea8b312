import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Viewport { width: number; height: number }
export const PHONE: Viewport = { width: 375, height: 667 };
export const DESKTOP: Viewport = { width: 1366, height: 768 };
export const VIEWPORTS = [PHONE, DESKTOP] as const;
export const vp = (v: Viewport) => `${v.width}`;

/**
 * The hang guard of every wait on a gate's page (Playwright's own default is 30 s). A view loads,
 * settles and is checked in 1-3 s on a quiet two-core machine; beside the browser tests the sweep's
 * views took 16 s on average (29 November 2026), and one page's wait for a quiet network ran past
 * 30 s. A guard catches a page that never settles, not a slow one.
 */
export const GUARD_MS = 120_000;

/** Debian's Chromium, never a downloaded browser; the flags keep it off the network. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** Runs `work` over the items, `concurrency` at a time, keeping the results in the items' order. */
export async function pool<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** What a page said that a clean page never says: CSP violations and console errors. */
export interface PageNoise { csp: string[]; consoleErrors: string[] }

declare global { interface Window { __cspViolations?: string[] } }

/**
 * A fresh context (empty storage: a first visit, unless `storage` says otherwise) whose pages
 * record every `securitypolicyviolation` and console error. The recorder is an init script,
 * which the page's CSP does not govern.
 */
export async function newContext(browser: Browser, viewport: Viewport, storage?: Record<string, string>): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(GUARD_MS);
  context.setDefaultNavigationTimeout(GUARD_MS);
  // tsx compiles with esbuild's keepNames, which wraps named functions in __name(); the functions
  // handed to page.evaluate carry those calls into the page, so the page needs the helper too.
  await context.addInitScript('globalThis.__name ??= (fn) => fn;');
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations!.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'}${e.sourceFile ? ` (${e.sourceFile}:${e.lineNumber})` : ''}`);
    });
  });
  if (storage) {
    await context.addInitScript((entries: Record<string, string>) => {
      try { for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v); } catch { /* about:blank has no storage */ }
    }, storage);
  }
  return context;
}

/**
 * Turns a tab's HTTP cache off, as DevTools' "Disable cache" does: each load then fetches what a
 * first visit fetches, and every response's body can be read (a cached one's cannot).
 */
async function cacheOff(page: Page): Promise<void> {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('Network.enable');
  await devtools.send('Network.setCacheDisabled', { cacheDisabled: true });
}

/** The page events a view or a test may listen to on a kept tab; all are dropped as it is put back. */
const PAGE_EVENTS = ['console', 'pageerror', 'request', 'requestfinished', 'requestfailed', 'response', 'dialog'] as const;

/**
 * Tabs kept between page loads, by a key (a width, a viewport), each with its HTTP cache off
 * (`cacheOff`). They save Chromium work: a new tab cost 1.0 busy core-seconds, a new context 1.3,
 * a navigation in a kept tab 0.14-0.19 (20 loads each; 30 November 2026).
 */
export class KeptTabs {
  private shelves = new Map<string, Page[]>();

  /** A tab put back under this key, or a new one from `open`. */
  async take(key: string, open: () => Promise<Page>): Promise<Page> {
    const kept = this.shelves.get(key)?.pop();
    if (kept) return kept;
    const page = await open();
    await cacheOff(page);
    return page;
  }

  /** Keeps the tab for the next `take` of this key, its page listeners dropped. */
  putBack(key: string, page: Page): void {
    for (const event of PAGE_EVENTS) page.removeAllListeners(event);
    const shelf = this.shelves.get(key) ?? [];
    shelf.push(page);
    this.shelves.set(key, shelf);
  }

  /** Closes every kept tab's context. */
  async close(): Promise<void> {
    const pages = [...this.shelves.values()].flat();
    this.shelves.clear();
    await Promise.all(pages.map((page) => page.context().close()));
  }
}

/** Start listening before navigation; read once done. A 404 page's own status line is expected. */
export function listen(page: Page, expectStatus = 200): () => Promise<PageNoise> {
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const text = m.text();
    const from = m.location().url;
    const own404 = expectStatus === 404 && /status of 404/.test(text) && from === page.url();
    if (!own404) consoleErrors.push(from && from !== page.url() && !text.includes(from) ? `${text} (${from})` : text);
  });
  page.on('pageerror', (e) => consoleErrors.push(`uncaught: ${e.message}`));
  return async () => ({ csp: await page.evaluate(() => window.__cspViolations ?? []).catch(() => []), consoleErrors });
}
