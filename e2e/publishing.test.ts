/**
 * Drafts, scheduled articles and category pages in the browser: a fixture project (the real content
 * plus six articles) built for production at a fixed clock, and served by `site serve` as a preview.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildSite } from '../src/pipeline/build.ts';
import { startServer, type RunningServer } from '../src/serve/server.ts';
import { addPublishingArticles, CLOCK, fixtureProject, type FixtureProject } from '../tests/support/fixture-project.ts';
import { axe } from './axe.ts';
import { DESKTOP, PHONE, collectConsole, connectBrowser, unlessClosed } from './helpers.ts';

/** Screenshots for a person to look at; not compared. */
const SHOTS = process.env.SITE_SCREENSHOTS;

let project: FixtureProject;
let production: RunningServer;
let preview: RunningServer;
let browser: Browser;

beforeAll(async () => {
  project = await fixtureProject('site-e2e-publishing-');
  await addPublishingArticles(project);
  const prodOut = path.join(project.root, 'prod', 'dist');
  await buildSite({ root: project.root, outDir: prodOut, now: CLOCK.june, budgets: false });
  [production, preview, browser] = await Promise.all([
    startServer({ root: project.root, outDir: prodOut, port: 0, host: '127.0.0.1', watch: false, prebuilt: true }),
    startServer({ root: project.root, outDir: path.join(project.root, 'serve', 'dist'), port: 0, host: '127.0.0.1', watch: false, now: CLOCK.june }),
    connectBrowser(),
  ]);
  if (SHOTS) await mkdir(SHOTS, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await production?.close();
  await preview?.close();
  await project?.remove();
});

/** A returning visitor's page (cookie choice stored, so the consent bar covers nothing), as the quality gates see it. */
async function open(server: RunningServer, url: string, viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(() => localStorage.setItem('cookieConsent', JSON.stringify({ necessary: true, analytics: false, marketing: false, timestamp: '2026-01-01T00:00:00Z', version: 1 })));
  const page = await context.newPage();
  // Closing the page closes its context; a context the browser's own close got to first is gone already.
  page.once('close', () => { context.close().catch(unlessClosed); });
  const res = await page.goto(`${server.url}${url}`);
  expect(res?.status(), url).toBe(200);
  return page;
}

const cardSlugs = (page: Page) => page.locator('[data-post-card] .post-card__title a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!.replace('/blog/', '')));
const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('site serve shows what production leaves out, marked', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`puts a visible banner on a draft, read as a note, at ${viewport.width} px`, async () => {
      const page = await open(preview, '/blog/draft-article', viewport);
      const seen = collectConsole(page);
      const banner = page.getByRole('note', { name: 'Publication status' });
      expect(await banner.isVisible()).toBe(true);
      await expect(banner.textContent()).resolves.toMatch(/^Draft: not published/);
      // At the top of the article, above its title.
      const [bannerBox, titleBox] = [await banner.boundingBox(), await page.getByRole('heading', { level: 1 }).boundingBox()];
      expect(bannerBox!.y).toBeLessThan(titleBox!.y);
      expect(await noSideScroll(page)).toBe(true);
      expect(await axe(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `serve-draft-${viewport.width}.png`) });
      expect(seen.errors).toEqual([]);
      await page.close();
    });
  }

  it('dates the banner of a scheduled article, and marks both on the list', async () => {
    const page = await open(preview, '/blog/scheduled-article');
    await expect(page.getByRole('note', { name: 'Publication status' }).textContent()).resolves.toMatch(/^Scheduled for 1 December 2026 at 09:00/);
    await page.close();

    const list = await open(preview, '/blog', PHONE);
    const marked = list.locator('[data-post-card]', { has: list.locator('.preview-marker') });
    expect(await marked.locator('.preview-marker').allTextContents()).toEqual(['Scheduled for 1 December 2026 at 09:00', 'Draft: not published']);
    expect(await cardSlugs(list)).toEqual(expect.arrayContaining(['draft-article', 'scheduled-article']));
    if (SHOTS) {
      await marked.first().scrollIntoViewIfNeeded();
      await list.screenshot({ path: path.join(SHOTS, 'serve-list-375.png') });
    }
    expect(await axe(list, '.post-grid')).toEqual([]);
    await list.close();
  });
});

describe('the production build', () => {
  it('sends the address of a draft or scheduled article to /blog, which lists neither', async () => {
    for (const slug of ['draft-article', 'scheduled-article']) {
      const res = await fetch(`${production.url}/blog/${slug}`, { redirect: 'manual' });
      expect([res.status, res.headers.get('location')], slug).toEqual([302, '/blog']);
    }
    const page = await browser.newPage();
    await page.goto(`${production.url}/blog/draft-article`);
    expect(new URL(page.url()).pathname).toBe('/blog');
    const listed = [...await cardSlugs(page)];
    await page.goto(`${production.url}/blog/page/2`);
    listed.push(...await cardSlugs(page));
    expect(listed).toHaveLength(12);
    expect(listed).not.toContain('draft-article');
    expect(listed).not.toContain('scheduled-article');
    expect(await page.locator('.preview-marker, .preview-banner').count()).toBe(0);
    await page.close();
  });
});

describe('category pages', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`list a category's articles six a page with numbered pages, at ${viewport.width} px`, async () => {
      const page = await open(production, '/blog/category/data-strategy', viewport);
      const seen = collectConsole(page);
      expect(await page.title()).toBe('Data Strategy: Insights | Northlight Data');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Data Strategy');
      expect(await page.locator('meta[name="description"]').getAttribute('content')).toContain('Data Strategy');
      expect(await page.getByRole('link', { name: 'All Insights' }).getAttribute('href')).toBe('/blog');
      const first = await cardSlugs(page);
      expect(first.slice(0, 4)).toEqual(['expiring-article', 'strategy-note-3', 'strategy-note-2', 'strategy-note-1']);
      expect(first).toHaveLength(6);
      expect(await noSideScroll(page)).toBe(true);
      expect(await axe(page)).toEqual([]);
      const nav = page.getByRole('navigation', { name: 'Pagination' });
      if (SHOTS) {
        await page.screenshot({ path: path.join(SHOTS, `category-${viewport.width}.png`) });
        await nav.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(SHOTS, `category-${viewport.width}-pages.png`) });
      }
      expect(await nav.getByRole('link', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
      await nav.getByRole('link', { name: 'Page 2' }).click();
      await page.waitForURL(`${production.url}/blog/category/data-strategy/page/2`);
      const second = await cardSlugs(page);
      expect(second).toHaveLength(3);
      expect([...first, ...second]).not.toContain('draft-article');
      expect(await page.title()).toBe('Data Strategy: Insights, page 2 of 2 | Northlight Data');
      expect(seen.errors).toEqual([]);
      await page.close();
    });
  }

  it('are where the category labels on cards and articles lead, without the card\'s "Opening article" toast', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    // Record every toast shown, across the navigation the click starts.
    await context.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const holder = document.querySelector('[data-toaster]');
        if (holder) new MutationObserver(() => sessionStorage.setItem('toasts', `${sessionStorage.getItem('toasts') ?? ''}|${holder.textContent}`)).observe(holder, { childList: true, subtree: true });
      });
    });
    const page = await context.newPage();
    await page.goto(`${production.url}/blog`);
    const card = page.locator('[data-post-card]').first();
    await card.locator('.tags').getByRole('link', { name: 'Data Strategy' }).click();
    await page.waitForURL(`${production.url}/blog/category/data-strategy`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Data Strategy');
    expect(await page.evaluate(() => sessionStorage.getItem('toasts') ?? '')).not.toContain('Opening article');

    await page.goto(`${production.url}/blog/what-is-data`);
    await page.locator('.post-hero').getByRole('link', { name: 'Data Literacy' }).click();
    await page.waitForURL(`${production.url}/blog/category/data-literacy`);
    expect(await cardSlugs(page)).toEqual(['what-is-data']);
    await context.close();
  });
});
