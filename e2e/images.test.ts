import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../src/pipeline/build.ts';
import { startServer, type RunningServer } from '../src/serve/server.ts';
import { photoHeroContent } from '../quality/photo-fixture.ts';
import { watchNetwork } from '../quality/quiet-network.ts';
import { DESKTOP, PHONE, WAIT, connectBrowser } from './helpers.ts';

/** The site with a 4 MB phone photo as the home hero, built once and served on a free port. */
let work: string;
let server: RunningServer;
let browser: Browser;
let photoBytes: number;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'site-e2e-photo-'));
  const content = await photoHeroContent(process.cwd(), work);
  photoBytes = content.photoBytes;
  const outDir = path.join(work, 'dist');
  await buildSite({ root: process.cwd(), contentDir: content.contentDir, outDir, budgets: false });
  [server, browser] = await Promise.all([
    startServer({ root: process.cwd(), outDir, port: 0, host: '127.0.0.1', watch: false, prebuilt: true }),
    connectBrowser(),
  ]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

interface Visit { images: Array<{ path: string; bytes: number }>; lcp: { url: string; tag: string } }

/** The home page on a screen: every image fetched until the network is quiet (no interaction), and the LCP entry. */
async function visitHome(viewport: { width: number; height: number }, deviceScaleFactor: number): Promise<Visit> {
  const context = await browser.newContext({ viewport, deviceScaleFactor });
  const page = await context.newPage();
  const network = watchNetwork(page);
  const fetched: Array<Promise<{ path: string; bytes: number }>> = [];
  page.on('response', (r) => {
    if (r.request().resourceType() !== 'image') return;
    const body = r.body().then((b) => ({ path: new URL(r.url()).pathname, bytes: b.length }));
    // A response that comes after the images are counted is read from a closed context: only the
    // counted ones are awaited (and fail the test if unreadable), the late one's failure is moot.
    body.catch(() => undefined);
    fetched.push(body);
  });
  await page.goto(server.url + '/', { waitUntil: 'load' });
  await network.quiet(WAIT);
  // The network going quiet does not mean the hero is painted: a loaded machine may still be decoding the AVIF,
  // and until it paints, the text above it is the largest thing on screen. Chromium queues an image's LCP entry
  // only when the compositor reports the frame presented, which on a busy machine can come after any fixed number
  // of frames. So the page waits for an entry naming the hero; if none comes within WAIT / 2 (a hang guard), the
  // last entry is returned and the assertion below says what was the LCP instead.
  const lcp = await page.evaluate(async (wait) => {
    const hero = [...document.images].filter((img) => img.currentSrc.includes('/hero-photo-'));
    await Promise.all(hero.map((img) => img.decode().catch(() => undefined)));
    const heroUrls = new Set(hero.map((img) => img.currentSrc));
    return await new Promise<{ url: string; tag: string }>((done) => {
      let last: { url: string; tag: string } = { url: '', tag: '' };
      const guard = setTimeout(() => done(last), wait);
      new PerformanceObserver((list, observer) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { url: string; element: Element | null }>) {
          last = { url: new URL(entry.url || location.href).pathname, tag: entry.element?.tagName ?? '' };
          if (heroUrls.has(entry.url)) {
            clearTimeout(guard);
            observer.disconnect();
            done(last);
            return;
          }
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
  }, WAIT / 2);
  const images = await Promise.all(fetched);
  await context.close();
  return { images, lcp };
}

describe('a phone photo as the home hero, in Chromium', () => {
  it('costs a 375 px phone (2× density) one small AVIF, fetched once through the preload, and it is the LCP', async () => {
    const { images, lcp } = await visitHome(PHONE, 2);
    const hero = images.filter((i) => i.path.includes('/hero-photo-'));
    expect(hero.map((i) => i.path)).toEqual([expect.stringMatching(/^\/assets\/images\/hero-photo-750-\w{10}\.avif$/)]);
    expect(lcp).toEqual({ url: hero[0]!.path, tag: 'IMG' });
    const total = images.reduce((n, i) => n + i.bytes, 0);
    // The figure for the report: what the phone downloads against what the author dropped in.
    console.log(`fixture photo ${photoBytes} bytes; a 375 px phone at 2x downloads ${hero[0]!.bytes} bytes of it (${images.length} images, ${total} bytes in all before interaction)`);
    expect(hero[0]!.bytes).toBeLessThan(photoBytes / 50);
  });

  it('costs a 1366 px desktop (1×) the 1440 px AVIF, once', async () => {
    const { images, lcp } = await visitHome(DESKTOP, 1);
    const hero = images.filter((i) => i.path.includes('/hero-photo-'));
    expect(hero.map((i) => i.path)).toEqual([expect.stringMatching(/^\/assets\/images\/hero-photo-1440-\w{10}\.avif$/)]);
    expect(lcp.url).toBe(hero[0]!.path);
  });
});
