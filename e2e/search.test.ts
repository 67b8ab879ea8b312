import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { collectConsole, DESKTOP, PHONE, useSiteAndBrowser } from './helpers.ts';
import { axe } from './axe.ts';

const env = useSiteAndBrowser();

/**
 * A word that one article uses and no other content file does: searching for it must find that
 * article first. Worked out from content/, so the test follows the words as they change.
 */
async function wordOfOneArticle(): Promise<{ word: string; url: string }> {
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{9,}/g) ?? []);
  const blog = path.join('content', 'blog');
  const articles = await Promise.all((await readdir(blog)).filter((f) => f.endsWith('.md')).sort().map(async (f) => ({ slug: f.slice(0, -3), words: words(await readFile(path.join(blog, f), 'utf8')) })));
  const others = await Promise.all(['case-studies', 'services'].flatMap((dir) => [dir]).map(async (dir) => {
    const files = await readdir(path.join('content', dir));
    return Promise.all(files.map((f) => readFile(path.join('content', dir, f), 'utf8')));
  }));
  const elsewhere = words(others.flat().join('\n'));
  for (const article of articles) {
    const rest = articles.filter((a) => a !== article);
    const only = [...article.words].sort().find((w) => !elsewhere.has(w) && rest.every((a) => !a.words.has(w)));
    if (only) return { word: only, url: `/blog/${article.slug}` };
  }
  throw new Error('no article has a word of its own');
}

async function openSearch(query: string, viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  const page = await env.browser.newPage({ viewport });
  // The cookie bar is answered first, so that it does not cover the results in the tests that click.
  await page.addInitScript(() => localStorage.setItem('cookieConsent', JSON.stringify({ necessary: true, version: 1, analytics: false, marketing: false, timestamp: new Date().toISOString() })));
  await page.goto(`${env.site.url}/search${query ? `?q=${encodeURIComponent(query)}` : ''}`);
  return page;
}

const status = (page: Page) => page.locator('[data-search-status]');
const resultLinks = (page: Page) => page.locator('[data-search-list] li h3 a');

describe('/search', () => {
  it('answers with the search CSP, which differs from every other page only by wasm-unsafe-eval; no CSP violation, no console error', async () => {
    const [search, blog, worker] = await Promise.all(['/search', '/blog', '/pagefind/pagefind-worker.js'].map((u) => fetch(env.site.url + u)));
    const csp = search!.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval' /);
    expect(csp).not.toMatch(/'unsafe-eval'|'unsafe-inline'|blob:/);
    expect(csp.replace(" 'wasm-unsafe-eval'", '')).toBe(blog!.headers.get('content-security-policy'));
    expect(blog!.headers.get('content-security-policy')).not.toContain('wasm');
    expect(worker!.headers.get('content-security-policy')).toBe(csp);

    const page = await openSearch('data');
    const seen = collectConsole(page);
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
    await page.evaluate(() => document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { reportViolation: (v: string) => void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`)));
    await expect.poll(() => status(page).textContent()).toMatch(/results for “data”/);
    // A second search runs in pagefind's worker, which compiles the WebAssembly under its own answer's CSP.
    await page.getByLabel('Search articles, case studies and services').fill('governance');
    await expect.poll(() => status(page).textContent()).toMatch(/for “governance”/);
    expect(violations).toEqual([]);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('lists first the article that uses a word, and the status region says how many', async () => {
    const { word, url } = await wordOfOneArticle();
    const page = await openSearch(word);
    await expect.poll(() => resultLinks(page).first().getAttribute('href')).toBe(url);
    const count = await resultLinks(page).count();
    await expect.poll(() => status(page).textContent()).toBe(`${count} result${count === 1 ? '' : 's'} for “${word}”`);
    expect(await page.locator('[data-search-status]').getAttribute('role')).toBe('status');
    // The match is marked in the excerpt, as an element, and the title is the article's own words.
    expect((await page.locator('[data-search-list] li').first().locator('mark').first().textContent())?.toLowerCase()).toBe(word);
    expect(await page.title()).toContain('Search');
    await page.close();
  });

  it('the category filter narrows the list, with counts, and says so', async () => {
    const page = await openSearch('data');
    await expect.poll(() => status(page).textContent()).toMatch(/^(\d+) results for “data”$/);
    const total = Number(/^(\d+)/.exec((await status(page).textContent())!)![1]);
    const option = page.getByRole('radio', { name: /^Case studies \(\d+\)$/ });
    const label = await page.locator('label.search__option', { has: option }).textContent();
    const expected = Number(/\((\d+)\)/.exec(label!)![1]);
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(total);
    // By keyboard: the radio group is reached with Tab and a choice made with the arrow keys, and focus stays on it.
    await page.getByRole('radio', { name: /^All \(\d+\)$/ }).focus();
    for (let i = 0; i < 20 && !(await option.isChecked()); i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => status(page).textContent()).toBe(`${expected} result${expected === 1 ? '' : 's'} for “data” in Case studies`);
    expect(await option.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => resultLinks(page).count()).toBe(Math.min(expected, 10));
    for (const href of await resultLinks(page).evaluateAll((links) => links.map((a) => a.getAttribute('href')))) expect(href).toMatch(/^\/case-studies\//);
    await page.getByRole('radio', { name: /^All \(\d+\)$/ }).check();
    await expect.poll(() => status(page).textContent()).toBe(`${total} results for “data”`);
    await page.close();
  });

  it("'Load more' adds the next results until every one is listed", async () => {
    const page = await openSearch('data');
    await expect.poll(() => status(page).textContent()).toMatch(/^\d+ results for “data”$/);
    const total = Number(/^(\d+)/.exec((await status(page).textContent())!)![1]);
    expect(total).toBeGreaterThan(10);
    expect(await resultLinks(page).count()).toBe(10);
    const more = page.getByRole('button', { name: 'Load more results' });
    for (let listed = 10; listed < total; listed += 10) {
      await more.click();
      await expect.poll(() => resultLinks(page).count()).toBe(Math.min(listed + 10, total));
    }
    expect(await more.isVisible()).toBe(false);
    await expect.poll(() => status(page).textContent()).toBe(`Showing ${total} of ${total} results`);
    await page.close();
  });

  it('the keyboard alone reaches the box, searches, and opens a result', async () => {
    const { word, url } = await wordOfOneArticle();
    const page = await openSearch('');
    const focused = () => page.evaluate(() => { const el = document.activeElement; return el ? `${el.tagName.toLowerCase()}#${el.id}|${el.getAttribute('href') ?? ''}` : ''; });
    for (let i = 0; i < 40 && !(await focused()).startsWith('input#search-q'); i++) await page.keyboard.press('Tab');
    expect(await focused()).toMatch(/^input#search-q/);
    await page.keyboard.type(word);
    await page.keyboard.press('Enter');
    await expect.poll(() => status(page).textContent()).toMatch(new RegExp(`for “${word}”`));
    expect(new URL(page.url()).searchParams.get('q')).toBe(word);
    // Focus stayed in the box while the results came.
    expect(await focused()).toMatch(/^input#search-q/);
    for (let i = 0; i < 20 && !(await focused()).endsWith(`|${url}`); i++) await page.keyboard.press('Tab');
    expect(await focused()).toMatch(new RegExp(`\\|${url}$`));
    await Promise.all([page.waitForURL(`**${url}`), page.keyboard.press('Enter')]);
    // Back returns to the results of that query.
    await page.goBack();
    await expect.poll(() => status(page).textContent()).toMatch(new RegExp(`for “${word}”`));
    await page.close();
  });

  // Two pages opened and checked by axe: 12.3 s in a quiet clean clone's run (2 Dec 2026), so its
  // hang guard is 180 s.
  it('has no axe violations with results shown, at 375 and 1366 px', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await openSearch('data', viewport);
      await expect.poll(() => resultLinks(page).count()).toBeGreaterThan(0);
      expect(await axe(page)).toEqual([]);
      await page.close();
    }
  }, 180_000);

  it('an index that cannot load is said so, visibly and in an alert', async () => {
    const page = await openSearch('');
    // The index's entry file answers garbage, as a half-deployed or damaged index would.
    await page.route(/\/pagefind\/pagefind-entry\.json/, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"version": ' }));
    await page.goto(`${env.site.url}/search?q=data`);
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toMatch(/search index could not be loaded/);
    expect(await alert.isVisible()).toBe(true);
    expect(await resultLinks(page).count()).toBe(0);
    await page.close();
  });

  it('without JavaScript, says that search needs it and offers the category pages', async () => {
    const context = await env.browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${env.site.url}/search?q=data`);
    // innerText holds only what is rendered: the <noscript> message shows.
    expect(await page.locator('.search__box').innerText()).toContain('Search runs in your browser and needs JavaScript');
    const browse = page.getByRole('navigation', { name: 'Browse by category' });
    const hrefs = await browse.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs.filter((h) => h?.startsWith('/blog/category/')).length).toBeGreaterThan(1);
    await context.close();
  });
});

describe('the search form on /blog', () => {
  it('is a labelled search landmark whose submission opens /search with the query', async () => {
    const page = await env.browser.newPage({ viewport: DESKTOP });
    await page.goto(`${env.site.url}/blog`);
    const form = page.getByRole('search');
    await form.getByLabel('Search articles, case studies and services').fill('governance');
    await Promise.all([page.waitForURL('**/search?q=governance'), form.getByRole('button', { name: 'Search' }).click()]);
    await expect.poll(() => status(page).textContent()).toMatch(/results? for “governance”/);
    // The main navigation is as it was: no search link added to it.
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /search/i }).count()).toBe(0);
    await page.close();
  });
});
