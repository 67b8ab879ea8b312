import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/server.ts';
import { axeReport } from '../../quality/axe.ts';
import { launchChromium } from '../../quality/browser.ts';
import { parseBudgets, type Budgets } from '../../src/measure/budgets.ts';
import { fetchHeaders, headersReport, readHeadersFile } from '../../quality/response-header-checks.ts';
import { htmlGate } from '../../quality/html.ts';
import { linksGate } from '../../quality/links.ts';
import type { GateReport } from '../../quality/report.ts';
import { readRoutingTable, targets } from '../../quality/gate-urls.ts';
import { runtimeReport } from '../../quality/runtime.ts';
import type { PageView } from '../../quality/page-view.ts';
import { sweep } from '../../quality/sweep.ts';
import { vnuGate } from '../../quality/vnu.ts';
import { writeBrokenSite } from './broken-site.ts';

const root = process.cwd();
let dist: string;
let budgets: Budgets;

/** The failures a gate reported about one page (its URL or its file). */
const about = (report: GateReport, page: string) => report.failures.filter((f) => f.startsWith(`${page}:`) || f.startsWith(`${page} @`) || f.startsWith(`${page.slice(1)}.html:`));

beforeAll(async () => {
  dist = await writeBrokenSite();
  budgets = parseBudgets(await readFile(path.join(root, 'budgets.json'), 'utf8'));
});

afterAll(async () => {
  await rm(path.dirname(dist), { recursive: true, force: true });
});

describe('html gate (html-validate with the project config)', () => {
  it('fails on a missing alt and on invalid nesting, naming file, line and rule, and passes the clean page', async () => {
    const report = await htmlGate({ dir: dist, root });
    expect(about(report, '/missing-alt').join('\n')).toMatch(/missing-alt\.html:\d+:\d+ <img> is missing required "alt" attribute \(wcag\/h37\)/);
    expect(about(report, '/bad-nesting').join('\n')).toMatch(/<p> is implicitly closed by adjacent <div>/);
    expect(report.failures.filter((f) => f.startsWith('index.html'))).toEqual([]);
    expect(report.rows).toContainEqual(['missing-alt.html', '1', '0']);
  });
});

describe('vnu gate (the Nu Html Checker)', () => {
  it('fails on what html-validate lets through (sizes without srcset, imagesizes without imagesrcset) and on the other invalid pages, and passes the clean page', async () => {
    const report = await vnuGate({ dir: dist });
    expect(about(report, '/sizes-without-srcset')).toEqual([
      expect.stringMatching(/^sizes-without-srcset\.html:\d+:\d+ The “imagesizes” attribute must only be specified if the “imagesrcset” attribute is also specified\.$/),
      expect.stringMatching(/^sizes-without-srcset\.html:\d+:\d+ The “sizes” attribute must only be specified if the “srcset” attribute is also specified\.$/),
    ]);
    expect(about(report, '/missing-alt').join('\n')).toMatch(/An “img” element must have an “alt” attribute/);
    expect(about(report, '/bad-nesting').join('\n')).toMatch(/No “p” element in scope but a “p” end tag seen/);
    expect(report.failures).toHaveLength(4);
    expect(report.rows).toContainEqual(['index.html', '0', '0']);
    expect(report.rows).toContainEqual(['sizes-without-srcset.html', '2', '0']);
    expect(report.summary).toMatch(/^vnu: 11 pages in one Java process \([\d.]+ s\), 4 errors, 0 warnings$/);
  });
});

describe('links gate (site check-links)', () => {
  it('fails on the broken link, naming the page and the target', async () => {
    const report = await linksGate({ dir: dist });
    expect(report.failures).toEqual(['/broken-link: /no-such-page → 404 (no page)']);
    expect(report.rows).toContainEqual(['/broken-link', '1']);
  });
});

describe('browser gates on the broken site, served by site serve', () => {
  let server: RunningServer;
  let browser: Browser;
  let views: PageView[];

  beforeAll(async () => {
    server = await startServer({ root, outDir: dist, port: 0, host: '127.0.0.1', watch: false, prebuilt: true });
    browser = await launchChromium();
    views = await sweep({ browser, origin: server.url, targets: targets(await readRoutingTable(dist)), states: [], consentVersion: 1, slotRatio: budgets.images.maxPixelsPerSlotPixel });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('visits every page and the 404 page at both viewports', () => {
    expect(views.map((v) => `${v.label}@${v.viewport.width}`)).toContain('404 (/404.html)@375');
    expect(views).toHaveLength(11 * 2); // ten pages and one unknown address
    expect(views.filter((v) => v.error)).toEqual([]);
  });

  it('axe: reports the missing alt and the faint text over a gradient (measured in pixels), nothing on the clean page', () => {
    const report = axeReport(views);
    expect(about(report, '/missing-alt').join('\n')).toMatch(/image-alt \(critical\)/);
    expect(about(report, '/faint').join('\n')).toMatch(/color-contrast \(measured in pixels\) .*: [\d.]+:1 against its background, needs 4\.5:1/);
    expect(about(report, '/')).toEqual([]);
  });

  it('budgets: reports the script over budget before interaction, the image too wide for its slot, and the page heavy with images', () => {
    const report = runtimeReport(views, budgets);
    expect(about(report, '/big-script')).toEqual([
      expect.stringMatching(new RegExp(`^/big-script @375: JS before interaction \\d+\\.\\d KB > ${budgets.page.jsBeforeInteractionKb} KB \\(/assets/big\\.js\\)$`)),
      expect.stringMatching(/^\/big-script @1366: JS before interaction/),
    ]);
    expect(about(report, '/wide-image').join('\n')).toMatch(/image \/assets\/wide\.png is 1600 px wide for a 100 px slot/);
    expect(about(report, '/heavy-image')).toEqual([375, 1366].map((w) => expect.stringMatching(new RegExp(`^/heavy-image @${w}: images before interaction 2\\d\\d\\.\\d KB > ${budgets.images.beforeInteractionKb} KB \\(/assets/heavy\\.png\\)$`))));
    expect(about(report, '/')).toEqual([]);
  });

  // Hang guard 180 s: eight views one at a time took 14.4 s on a quiet two-core machine (2 Dec 2026).
  it('budgets: a page seen again in a kept tab counts afresh what it fetches, as a first load does', async () => {
    // One view at a time, so that every view after the first at each width reuses its tab.
    const again = (url: string, n: number) => ({ label: `${url} ${n}`, url, status: 200 });
    const seen = await sweep({ browser, origin: server.url, targets: [1, 2].flatMap((n) => [again('/big-script', n), again('/heavy-image', n)]), states: [], consentVersion: 1, slotRatio: budgets.images.maxPixelsPerSlotPixel, concurrency: 1 });
    const first = views.find((v) => v.url === '/big-script')!;
    const heavy = views.find((v) => v.url === '/heavy-image')!;
    expect(first.jsBeforeInteraction).toBeGreaterThan(budgets.page.jsBeforeInteractionKb * 1024);
    expect(heavy.imagesBeforeInteraction).toBeGreaterThan(budgets.images.beforeInteractionKb * 1024);
    for (const v of seen) {
      const like = v.url === '/big-script' ? first : heavy;
      expect([v.label, v.jsBeforeInteraction, v.imagesBeforeInteraction]).toEqual([v.label, like.jsBeforeInteraction, like.imagesBeforeInteraction]);
    }
  }, 180_000);

  it('headers: every answer carries .site/deploy/headers.json, and the inline script is reported as a CSP violation', async () => {
    const pages = targets(await readRoutingTable(dist));
    const answers = await fetchHeaders(server.url, pages, ['/assets/site.css']);
    const report = headersReport({ expected: await readHeadersFile(dist), answers, noise: views.map((v) => ({ label: v.label, viewport: v.viewport.width, noise: v.noise })), labels: new Map(pages.map((p) => [p.url, p.label])) });
    const inline = about(report, '/inline-script').join('\n');
    expect(inline).toMatch(/CSP violation: script-src-elem blocked inline/);
    expect(inline).toMatch(/console error: .*Content Security Policy/);
    expect(report.failures.filter((f) => !f.startsWith('/inline-script'))).toEqual([]);
    expect(report.rows).toContainEqual(['/', 'all', '0', '0']);
  });
});
