import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { scratchProject } from '../tests/scratch-project.ts';
import { startServer, type RunningServer } from '../src/serve/server.ts';
import { readFrontMatter } from '../src/content/front-matter.ts';
import { postSchema } from '../src/content/schemas.ts';
import { collectConsole, connectBrowser } from './helpers.ts';

/** `site serve` on a scratch copy of the project (never the real content/), and /admin in Chromium. */
let dir: string;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  dir = await scratchProject('site-cms-', { cmsBundle: true });
  [server, browser] = await Promise.all([startServer({ root: dir, port: 0, host: '127.0.0.1' }), connectBrowser()]);
  // The CMS's bundle is served from its first request on (taken from the cache the copy brought, or
  // made by esbuild in some seconds): asked for here, outside the tests' page loads.
  expect((await fetch(`${server.url}/admin/cms.js`)).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const TITLE = 'Counting What Matters in a Small Charity';

// Each test loads the 6 MB content manager, often more than once, and saves through site serve's
// build: 10–40 s on a quiet machine, so its hang guard is 600 s.
describe('the content manager at /admin in site serve', { timeout: 600_000 }, () => {
  it('creates a draft article that is saved as a valid file and served as its page', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const seen = collectConsole(page);
    const admin = await fetch(`${server.url}/admin/`);
    expect(admin.headers.get('content-security-policy')).toContain("script-src 'self' 'unsafe-eval'");
    expect(admin.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(await admin.text()).toContain('<meta name="robots" content="noindex, nofollow">');

    await page.goto(`${server.url}/admin/#/collections/blog/new`);
    // The local backend signs in at once (its Login button opens the collection).
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByLabel('Title', { exact: true }).fill(TITLE);
    await page.getByLabel('Excerpt', { exact: true }).fill('A short guide to choosing the few figures a small charity should count, and how to keep them honest from month to month.');
    await page.getByLabel('Date', { exact: true }).fill('20/11/2026');
    await page.getByLabel('Reading time (optional)').fill('4 min read');
    await page.getByRole('checkbox', { name: 'Data Culture' }).check();
    await page.getByLabel('New category').fill('Charities');
    await page.getByRole('button', { name: 'Add category' }).click();
    for (let i = 0; i < 3; i++) {
      await page.getByRole('button', { name: /^Add faq/i }).click();
      await page.getByLabel('Question', { exact: true }).nth(i).fill(`Question number ${i + 1}?`);
      await page.getByLabel('Answer', { exact: true }).nth(i).fill(`The answer to question ${i + 1}, in a sentence.`);
    }
    const body = page.locator('[data-slate-editor="true"]').first();
    await body.click();
    await page.keyboard.type('Most charities count too much and use too little of it.');
    // Published once the editor holds the sentence: keys sent while it redraws can be lost.
    await expect.poll(() => body.innerText()).toContain('Most charities count too much and use too little of it.');
    // SITE_CMS_SCREENSHOTS=1 writes the walkthrough's picture in docs/authors.md.
    if (process.env.SITE_CMS_SCREENSHOTS) await page.screenshot({ path: path.resolve('docs/images/cms-first-article.png') });
    await page.getByRole('button', { name: 'Publish' }).first().click();
    await page.getByText('Publish now').click();

    const file = path.join(dir, 'content', 'blog', 'counting-what-matters-in-a-small-charity.md');
    await expect.poll(() => stat(file).then(() => true, () => false)).toBe(true);
    const text = await readFile(file, 'utf8');
    const front = readFrontMatter(text, file);
    expect(front.errors).toEqual([]);
    const parsed = postSchema.parse(front.data);
    expect(parsed).toMatchObject({ title: TITLE, date: '2026-11-20', draft: true, readingTime: '4 min read', categories: ['Data Culture', 'Charities'] });
    expect(front.body).toContain('Most charities count too much');

    // serve takes the save like any other: the draft's own page is served (not the fallback's
    // redirect to /blog, which answers until the build that adds it is swapped in), with its banner.
    const served = async () => { const res = await fetch(`${server.url}/blog/counting-what-matters-in-a-small-charity`, { redirect: 'manual' }); return { status: res.status, html: await res.text() }; };
    await expect.poll(async () => (await served()).status).toBe(200);
    const { html } = await served();
    expect(html).toContain(TITLE);
    expect(html).toContain('data-preview="draft"');
    expect(html).toContain('Most charities count too much');
    expect(seen.errors.filter((e) => !/favicon|404/.test(e))).toEqual([]);
  });

  /** The main element's outline and words: each heading with its level, each paragraph and list item's text. */
  const outline = () => [...document.querySelectorAll('main h1, main h2, main h3, main h4, main p, main li, main figcaption, main blockquote')]
    // 'Continue Reading' (two other articles, chosen across the blog) is left out: the preview has no other articles.
    .filter((e) => !e.closest('#continue-reading'))
    .map((e) => `${e.tagName.toLowerCase()}: ${(e.textContent ?? '').replace(/\s+/g, ' ').trim()}`);

  for (const [what, admin, url] of [
    ['an article', '#/collections/blog/entries/what-is-data', '/blog/what-is-data'],
    ['a case study', '#/collections/case-studies/entries/dc-thomson', '/case-studies/dc-thomson'],
  ] as const) {
    // Hang guard 240 s: 17.4 s on a quiet two-core machine (2 Dec 2026), Decap's bundle loaded and run twice.
    it(`previews ${what} as its built page: the same headings, text and structure`, async () => {
      const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
      await page.goto(`${server.url}${url}`);
      const built = await page.evaluate(outline);
      await page.goto(`${server.url}/admin/${admin}`);
      await page.getByRole('button', { name: 'Login' }).click();
      const preview = page.frameLocator('iframe').first();
      await preview.locator('main h1').waitFor();
      const previewed = await preview.locator('body').evaluate(outline);
      expect(built.length).toBeGreaterThan(10);
      expect(previewed).toEqual(built);
      // The site's own stylesheet is applied in the preview: its heading's font and colour are the page's (its size follows the narrower pane).
      const look = (h: Element) => { const c = getComputedStyle(h); return [c.fontFamily, c.fontWeight, c.color]; };
      expect(await preview.locator('main h1').evaluate(look)).toEqual(await page.goto(`${server.url}${url}`).then(() => page.locator('main h1').evaluate(look)));
      await page.close();
    }, 240_000);
  }
});
