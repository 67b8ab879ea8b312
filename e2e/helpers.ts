import { afterAll, beforeAll, inject } from 'vitest';
import { chromium, type Browser, type Dialog, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../src/serve/server.ts';
import { KeptTabs } from '../quality/browser.ts';

export interface SiteOptions { forms?: boolean; limits?: boolean }

/** The shared production build (made once in global-setup), served on a free loopback port. */
export async function startSite(opts: SiteOptions = {}): Promise<RunningServer & { dir: string }> {
  const dir = inject('distDir');
  // The volume limits (5 posts per address in 10 minutes) are off unless a test is about them:
  // every post here comes from 127.0.0.1.
  const server = await startServer({ root: process.cwd(), outDir: dir, port: 0, host: '127.0.0.1', watch: false, prebuilt: true, forms: opts.forms, formsOptions: { limits: opts.limits ?? false } });
  return Object.assign(server, { dir });
}

/**
 * The suite's one Chromium (started in global-setup), connected to: each file's contexts are its
 * own, and `close()` on a connected browser closes them and disconnects, leaving the browser to
 * the other files.
 */
export async function connectBrowser(): Promise<Browser> {
  const browser = await chromium.connect(inject('browserEndpoint'));
  // Every wait for a page's event (a navigation, an element, a click's target) is a hang guard of
  // WAIT, whatever the machine is doing beside the test; Playwright's own default is 30 s.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(WAIT);
    return context;
  };
  return browser;
}

/** How long a browser test waits for an event before calling it a hang (see e2e/vitest.config.ts). */
export const WAIT = 60_000;

export const PHONE = { width: 375, height: 667 } as const;
export const DESKTOP = { width: 1366, height: 768 } as const;

/**
 * For a promise started from an event handler, where nothing awaits it: a page, context or browser
 * closed meanwhile (the test went on and closed it) leaves nothing to do; any other failure is
 * thrown, unhandled, and fails the run.
 */
export function unlessClosed(error: unknown): void {
  if (!/has been closed/.test(String(error))) throw error;
}

/** Accepts or dismisses a dialog from an event handler (`unlessClosed`). */
export function answer(dialog: Dialog, accept: boolean): void {
  (accept ? dialog.accept() : dialog.dismiss()).catch(unlessClosed);
}

/** Console messages and page errors seen while a test ran, to assert a clean page. */
export function collectConsole(page: Page): { errors: string[]; messages: string[] } {
  const seen = { errors: [] as string[], messages: [] as string[] };
  page.on('console', (m) => { seen.messages.push(`${m.type()}: ${m.text()}`); if (m.type() === 'error') seen.errors.push(m.text()); });
  page.on('pageerror', (e) => seen.errors.push(e.message));
  return seen;
}

export interface SiteAndBrowser {
  site: RunningServer & { dir: string };
  browser: Browser;
  /**
   * A page for a test that only reads the site: it writes no storage, installs no clock, routes
   * nothing and opens no popup. The page is a tab kept between the file's tests at that viewport,
   * its HTTP cache off (`KeptTabs`, which says what a kept tab saves); its `close()` puts it
   * back, the test's page listeners dropped.
   */
  readingPage(viewport?: { width: number; height: number }, options?: { javaScriptEnabled?: boolean }): Promise<Page>;
}

/** Playwright's viewport when none is asked for. */
const DEFAULT_VIEWPORT = { width: 1280, height: 720 } as const;

/**
 * The set-up most browser test files share: the built site served on a free port and one
 * Chromium, started before the file's tests and stopped after. Read `env.site` and `env.browser`
 * inside tests (they are assigned in beforeAll).
 */
export function useSiteAndBrowser(opts: SiteOptions = {}): SiteAndBrowser {
  const env = {} as SiteAndBrowser;
  const kept = new KeptTabs();
  env.readingPage = async (viewport = DEFAULT_VIEWPORT, { javaScriptEnabled = true } = {}) => {
    const key = `${viewport.width}x${viewport.height}${javaScriptEnabled ? '' : ', no script'}`;
    const page = await kept.take(key, () => env.browser.newPage({ viewport, javaScriptEnabled }));
    page.close = async () => kept.putBack(key, page);
    return page;
  };
  beforeAll(async () => {
    [env.site, env.browser] = await Promise.all([startSite(opts), connectBrowser()]);
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.site?.close();
  });
  return env;
}
