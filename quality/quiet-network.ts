import type { Page, Request } from 'playwright-core';

/** How long no request may be in flight before the network counts as quiet (Playwright's `networkidle` uses the same). */
export const QUIET_MS = 500;

export interface NetworkWatch {
  /** Resolves once no request has been in flight for `QUIET_MS`; rejects after `guardMs`, naming the requests unanswered. */
  quiet(guardMs: number): Promise<void>;
}

/**
 * Watches a page's requests from now on (start it before navigating). This stands in for
 * `waitForLoadState('networkidle')`, which in Playwright 1.65 can lose the state for good: once
 * `networkidle` is recorded, a request that starts and ends stops its timer without restarting
 * it, and the next lifecycle event (a late `load`, a frame's) then drops the state, so the wait
 * runs out on a page long quiet. Here the count is the page's own request events, and every
 * request's end restarts the timer. An event stream (live reload) never ends and is not counted;
 * nor is the favicon, which Chromium may leave open, as Playwright does.
 */
export function watchNetwork(page: Page): NetworkWatch {
  const inFlight = new Set<Request>();
  let changed = () => {};
  const counted = (r: Request) => r.resourceType() !== 'eventsource' && !new URL(r.url()).pathname.endsWith('/favicon.ico');
  page.on('request', (r) => { if (counted(r)) { inFlight.add(r); changed(); } });
  const end = (r: Request) => { if (inFlight.delete(r)) changed(); };
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  return {
    quiet(guardMs) {
      return new Promise<void>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const guard = setTimeout(() => {
          clearTimeout(timer);
          changed = () => {};
          reject(new Error(`the network was not quiet for ${QUIET_MS} ms within ${guardMs} ms; requests unanswered: ${[...inFlight].map((r) => r.url()).join(', ') || 'none'}`));
        }, guardMs);
        changed = () => {
          clearTimeout(timer);
          if (inFlight.size > 0) return;
          timer = setTimeout(() => {
            clearTimeout(guard);
            changed = () => {};
            resolve();
          }, QUIET_MS);
        };
        changed();
      });
    },
  };
}
