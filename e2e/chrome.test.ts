import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, collectConsole, useSiteAndBrowser } from './helpers.ts';

const env = useSiteAndBrowser();

describe('home page', () => {
  it('shows the hero, both calls to action, testimonials and the two cards', async () => {
    const page = await env.readingPage(DESKTOP);
    const seen = collectConsole(page);
    const res = await page.goto(`${env.site.url}/`);
    expect(res?.status()).toBe(200);
    await expect(page.title()).resolves.toContain("We're a Data Agency Built for Ambitious UK Organisations");
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe("We're a Data Agency Built for Ambitious UK Organisations");
    expect(await page.getByRole('img', { name: 'Data analytics chart being analysed' }).count()).toBe(1);
    const hero = page.locator('.hero');
    expect(await hero.getByRole('link', { name: 'Test Your Data Maturity (opens in a new tab)' }).getAttribute('href')).toMatch(/^https:\/\//);
    expect(await hero.getByRole('link', { name: "Let's Talk Data" }).getAttribute('href')).toBe('/contact');
    expect(await page.locator('#testimonials blockquote').count()).toBe(4);
    const cards = page.locator('#next-steps .cta-card');
    expect(await cards.count()).toBe(2);
    expect(await cards.nth(0).getByRole('heading').textContent()).toBe('Test Your Data Maturity');
    expect(await cards.nth(1).getByRole('link', { name: "Let's Talk Data" }).getAttribute('href')).toBe('/contact');
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('has the document metadata every page needs', async () => {
    const page = await env.readingPage();
    await page.goto(`${env.site.url}/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en-GB');
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/^.{50,}$/);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe('https://www.example.com/');
    for (const prop of ['og:title', 'og:description', 'og:image', 'og:url']) {
      expect(await page.locator(`meta[property="${prop}"]`).count(), prop).toBe(1);
    }
    expect(await page.locator('meta[name="twitter:card"]').getAttribute('content')).toBe('summary_large_image');
    // Images carry their size so nothing shifts as they load.
    for (const img of await page.locator('img').all()) {
      expect(await img.getAttribute('width')).toMatch(/^\d+$/);
      expect(await img.getAttribute('height')).toMatch(/^\d+$/);
    }
    await page.close();
  });

  it('shows the footer with its links, contact details and the current year', async () => {
    const page = await env.readingPage();
    await page.goto(`${env.site.url}/`);
    const footer = page.locator('footer');
    const labels = await footer.locator('#footer-nav a').allTextContents();
    expect(labels).toEqual(['Home', 'About', 'Explore DIAlog', 'Services', 'Our Work', 'Insights', 'Contact', 'Privacy Policy', 'Terms of Service']);
    expect(await footer.getByRole('link', { name: /hello@example\.com/ }).getAttribute('href')).toBe('mailto:hello@example.com');
    await expect(footer.textContent()).resolves.toContain('Dundee, United Kingdom');
    await expect(footer.textContent()).resolves.toContain(`© ${new Date().getFullYear()}`);
    await page.close();
  });
});

describe('navigation', () => {
  it('shows the links in order at 1366 px, with no menu button', async () => {
    const page = await env.readingPage(DESKTOP);
    await page.goto(`${env.site.url}/about`);
    const nav = page.getByRole('navigation', { name: 'Main', exact: true });
    expect(await nav.locator('.nav-links a').allTextContents()).toEqual(['About', 'DIAlog', 'Services', 'Our Work', 'Insights', "Let's Talk Data"]);
    expect(await nav.getByRole('link', { name: 'About' }).getAttribute('aria-current')).toBe('page');
    expect(await page.locator('.menu-toggle').isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: 'Northlight Data, home' }).first().getAttribute('href')).toBe('/');
    await page.close();
  });

  it('serves the toggle as a collapsed button before any script, and the first click opens the full-screen menu', async () => {
    const page = await env.browser.newPage({ viewport: PHONE });
    const chunks: string[] = [];
    page.on('request', (r) => { if (/\/assets\/mobile-menu-[^/]+\.js$/.test(r.url())) chunks.push(r.url()); });
    await page.goto(`${env.site.url}/`);
    expect(await page.locator('.nav-links').isVisible()).toBe(false);
    // Nothing of the menu's script has loaded or run: what the visitor meets is the server's HTML.
    const toggle = page.getByRole('button', { name: 'Menu', exact: true });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('[data-island="mobile-menu"]').getAttribute('data-state')).toBeNull();
    expect(chunks).toEqual([]);
    expect(await page.getByRole('link', { name: 'Menu' }).count()).toBe(0);

    // The first click loads the island and must still open the menu (the click is replayed).
    await toggle.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(chunks).toHaveLength(1);
    const box = await page.locator('.mobile-menu').boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
    // On a first visit the cookie bar is showing too; the open menu covers it rather than sitting beneath it.
    expect(await page.locator('.cookie-bar').isVisible()).toBe(true);
    expect(await page.evaluate(([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('.mobile-menu'), [PHONE.width / 2, PHONE.height - 10])).toBe(true);
    expect(await dialog.getByRole('link').allTextContents()).toEqual(['About', 'DIAlog', 'Services', 'Our Work', 'Insights', "Let's Talk Data"]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close menu');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.close();
  });

  it('closes the menu by its close button, the overlay and Escape, returning focus to the toggle', async () => {
    const page = await env.browser.newPage({ viewport: PHONE });
    await page.goto(`${env.site.url}/`);
    const toggle = page.getByRole('button', { name: 'Menu', exact: true });
    const dialog = page.getByRole('dialog');
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());

    await toggle.click();
    await dialog.waitFor();
    await page.getByRole('button', { name: 'Close menu' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await focused()).toBe('Menu');

    await toggle.click();
    await dialog.waitFor();
    await page.mouse.click(10, 300); // the overlay, left of the panel
    await dialog.waitFor({ state: 'detached' });

    await toggle.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await focused()).toBe('Menu');
    await page.close();
  });

  it('keeps Tab inside the open menu', async () => {
    const page = await env.browser.newPage({ viewport: PHONE });
    await page.goto(`${env.site.url}/`);
    await page.locator('.menu-toggle').click();
    await page.getByRole('dialog').waitFor();
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    await page.close();
  });

  it('without JavaScript, a link in place of the menu button reaches the footer navigation', async () => {
    const context = await env.browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${env.site.url}/`);
    // The button that needs script is not offered; the <noscript> link is, in its place.
    expect(await page.getByRole('button', { name: 'Menu', exact: true }).count()).toBe(0);
    const link = page.getByRole('link', { name: 'Menu', exact: true });
    expect(await link.getAttribute('href')).toBe('#footer-nav');
    await link.click();
    expect(page.url()).toMatch(/#footer-nav$/);
    const footerNav = page.getByRole('navigation', { name: 'Explore' });
    await expect.poll(() => footerNav.evaluate((nav) => { const r = nav.getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight; })).toBe(true);
    expect(await footerNav.getByRole('link').allTextContents()).toContain('About');
    await context.close();
  });
});

describe('not-found page', () => {
  it('answers 404 with the page, a way home, and logs the missing path', async () => {
    const page = await env.readingPage();
    const seen = collectConsole(page);
    const res = await page.goto(`${env.site.url}/no/such/page`);
    expect(res?.status()).toBe(404);
    await expect(page.locator('main').textContent()).resolves.toContain("The page you're looking for doesn't exist or has been moved.");
    await expect(page.locator('.not-found__code').textContent()).resolves.toBe('404');
    expect(await page.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    expect(seen.messages.some((m) => m.includes('/no/such/page'))).toBe(true);
    await page.close();
  });

  it('redirects a trailing slash to the canonical URL', async () => {
    const res = await fetch(`${env.site.url}/about/`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/about');
  });
});
