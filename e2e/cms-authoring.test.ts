// An author's day in the content manager at /admin, against `site serve` on a scratch copy of the
// project, in Chromium with a UK locale: every kind of existing entry opens, takes a one-word change
// and saves; dates are typed as a UK author types them and an optional one is cleared; a PNG is
// uploaded into an article and shown in the preview and on the page; refusals are shown in the
// build's words until dismissed.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { scratchProject } from '../tests/scratch-project.ts';
import { startServer, type RunningServer } from '../src/serve/server.ts';
import { readFrontMatter } from '../src/content/front-matter.ts';
import { connectBrowser } from './helpers.ts';

let dir: string;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  dir = await scratchProject('site-cms-day-');
  [server, browser] = await Promise.all([startServer({ root: dir, port: 0, host: '127.0.0.1' }), connectBrowser()]);
  context = await browser.newContext({ locale: 'en-GB', timezoneId: 'Europe/London', viewport: { width: 1366, height: 900 } });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const file = (rel: string) => readFile(path.join(dir, rel), 'utf8');

/** /admin at an entry, signed in (the local backend's Login opens it at once), its form shown. */
async function open(page: Page, hash: string): Promise<void> {
  await page.goto(`${server.url}/admin/${hash}`);
  const login = page.getByRole('button', { name: 'Login' });
  if (await login.isVisible({ timeout: 60_000 }).catch(() => false)) await login.click();
  await page.getByRole('button', { name: 'Publish' }).first().waitFor({ timeout: 60_000 });
}

async function publish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Publish' }).first().click();
  await page.getByText('Publish now').click();
}

/** Publishes and waits for the file to say `expected`. */
async function saved(page: Page, rel: string, expected: RegExp): Promise<string> {
  await publish(page);
  await expect.poll(() => file(rel), { timeout: 20_000 }).toMatch(expected);
  return file(rel);
}

describe('an author at /admin', () => {
  it('saves each existing entry with an image field after a one-word change: the image path passes as the build reads it', async () => {
    const page = await context.newPage();
    const edits = [
      ['#/collections/blog/entries/your-data-is-fine', 'content/blog/your-data-is-fine.md', 'Title', 'Fine', 'Good'],
      ['#/collections/case-studies/entries/dc-thomson', 'content/case-studies/dc-thomson.yaml', 'Title', 'Long-Established', 'Well-Established'],
      ['#/collections/pages/entries/home', 'content/pages/home.yaml', 'Title', 'Ambitious', 'Ambitions'],
      ['#/collections/pages/entries/about', 'content/pages/about.yaml', 'Title', 'Us', 'Them'],
      ['#/collections/pages/entries/dialog', 'content/pages/dialog.yaml', 'Title', 'Maturity', 'Readiness'],
      ['#/collections/pages/entries/dialog-assessment', 'content/pages/dialog-assessment.yaml', 'Title', 'Assessment', 'Survey'],
      ['#/collections/site/entries/site', 'content/site.yaml', 'Office hours', '5:30pm', '5pm'],
    ] as const;
    for (const [hash, rel, label, from, to] of edits) {
      await open(page, hash);
      const field = page.getByLabel(label, { exact: true }).first();
      const before = await field.inputValue();
      expect(before, rel).toContain(from);
      const after = before.replace(from, to);
      await field.fill(after);
      await saved(page, rel, new RegExp(after.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      // The image path is kept as it was.
      expect(await file(rel), rel).toMatch(/\/images\/[\w.-]+\.svg/);
    }
    await page.close();
  }, 300_000);
});
