import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { watchNetwork } from '../quality/quiet-network.ts';
import { DESKTOP, PHONE, WAIT, collectConsole, useSiteAndBrowser } from './helpers.ts';
import { axe } from './axe.ts';

const env = useSiteAndBrowser();

const layer = (page: Page) => page.evaluate(() => JSON.parse(JSON.stringify((window as unknown as { dataLayer: unknown[] }).dataLayer.filter((e) => !Array.isArray(e) && typeof e === 'object' && e && 'event' in e))) as Array<Record<string, unknown>>);
const stored = (page: Page) => page.evaluate(() => localStorage.getItem('cookieConsent'));

describe('testimonial carousels', () => {
  for (const [path, count] of [['/', 4], ['/dialog', 7]] as const) {
    it(`${path}: moves by buttons and arrow keys, and disables each button at its end`, async () => {
      const page = await env.browser.newPage({ viewport: DESKTOP });
      await page.goto(`${env.site.url}${path}`);
      const carousel = page.locator('[aria-roledescription="carousel"]').first();
      await carousel.scrollIntoViewIfNeeded();
      const prev = carousel.getByRole('button', { name: 'Previous testimonial' });
      const next = carousel.getByRole('button', { name: 'Next testimonial' });
      const status = carousel.locator('.carousel__status');
      expect(await carousel.locator('[aria-roledescription="slide"]').count()).toBe(count);
      await expect.poll(() => next.isEnabled()).toBe(true);
      expect(await prev.isDisabled()).toBe(true);
      expect(await status.textContent()).toBe(`1 of ${count}`);

      await next.click();
      await expect.poll(() => status.textContent()).toBe(`2 of ${count}`);
      expect(await prev.isEnabled()).toBe(true);
      await prev.click();
      await expect.poll(() => status.textContent()).toBe(`1 of ${count}`);
      await expect.poll(() => prev.isDisabled()).toBe(true);

      // Keyboard: focus in the carousel, arrows move, and stop at the end.
      await next.focus();
      for (let i = 1; i < count + 2; i++) await page.keyboard.press('ArrowRight');
      await expect.poll(() => status.textContent()).toBe(`${count} of ${count}`);
      expect(await next.isDisabled()).toBe(true);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => status.textContent()).toBe(`${count - 1} of ${count}`);
      expect(await carousel.locator('[aria-live="polite"]').count()).toBe(1);
      expect(await axe(page, '[aria-roledescription="carousel"]')).toEqual([]);
      await page.close();
    });
  }

  it('without JavaScript every quote is in the page', async () => {
    const context = await env.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${env.site.url}/dialog`);
    expect(await page.locator('[aria-roledescription="slide"] blockquote').count()).toBe(7);
    await context.close();
  });
});

describe('cookie consent', () => {
  it('shows the bar on a first visit with the consent defaults in the data layer, and nothing third-party loads', async () => {
    const page = await env.browser.newPage({ viewport: PHONE });
    const external: string[] = [];
    page.on('request', (r) => { if (!r.url().startsWith(env.site.url)) external.push(r.url()); });
    const network = watchNetwork(page);
    await page.goto(`${env.site.url}/`);
    await network.quiet(WAIT);
    expect(await page.getByRole('region', { name: 'Cookie Consent' }).isVisible()).toBe(true);
    const defaults = await page.evaluate(() => (window as unknown as { dataLayer: IArguments[] }).dataLayer.map((e) => (e && typeof e === 'object' && 'length' in e ? Array.from(e as ArrayLike<unknown>) : e)));
    expect(defaults).toContainEqual(['consent', 'default', {
      analytics_storage: 'denied', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied',
      personalization_storage: 'denied', functionality_storage: 'granted', security_storage: 'granted',
    }]);
    expect(await layer(page)).toContainEqual({ event: 'consent_default', analytics_consent: false, marketing_consent: false });
    expect(external).toEqual([]);
    expect(await axe(page)).toEqual([]);
    await page.close();
  });

  it('Accept All works on the first click, is stored and announced, and the bar stays hidden after reload', async () => {
    const context = await env.browser.newContext({ viewport: DESKTOP });
    // The page's clock says a known time, so the stored record's timestamp can be checked exactly.
    const choiceTime = new Date('2025-06-02T09:30:00.000Z');
    await context.clock.setFixedTime(choiceTime);
    const page = await context.newPage();
    await page.goto(`${env.site.url}/about`);
    await page.getByRole('button', { name: 'Accept All' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Cookie Consent' }).isVisible()).toBe(false);
    const record = JSON.parse((await stored(page)) ?? '{}') as Record<string, unknown>;
    expect(record).toMatchObject({ necessary: true, analytics: true, marketing: true, version: 1 });
    expect(record.timestamp).toBe(choiceTime.toISOString());
    expect(await layer(page)).toContainEqual({ event: 'consent_update', analytics_consent: true, marketing_consent: true });
    const updates = await page.evaluate(() => (window as unknown as { dataLayer: unknown[] }).dataLayer.filter((e) => e && typeof e === 'object' && 'length' in (e as object)).map((e) => Array.from(e as ArrayLike<unknown>)));
    expect(updates).toContainEqual(['consent', 'update', expect.objectContaining({ analytics_storage: 'granted', ad_storage: 'granted' })]);

    await page.reload();
    expect(await page.locator('html').getAttribute('data-consent')).toBeNull();
    expect(await page.getByRole('region', { name: 'Cookie Consent' }).isVisible()).toBe(false);
    // The stored choice is re-applied on load.
    expect(await layer(page)).toContainEqual({ event: 'consent_update', analytics_consent: true, marketing_consent: true });
    await context.close();
  });

  it('Necessary Only refuses analytics and marketing', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.site.url}/`);
    await page.getByRole('button', { name: 'Necessary Only' }).click();
    await expect.poll(async () => JSON.parse((await stored(page)) ?? 'null')).toMatchObject({ necessary: true, analytics: false, marketing: false });
    expect(await layer(page)).toContainEqual({ event: 'consent_update', analytics_consent: false, marketing_consent: false });
    await context.close();
  });

  it('Preferences: a modal that traps focus; Cancel saves nothing, Save stores the toggles', async () => {
    const context = await env.browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${env.site.url}/services`);
    const preferences = page.getByRole('button', { name: 'Preferences' });
    await preferences.click();
    const dialog = page.getByRole('dialog', { name: 'Cookie Preferences' });
    await dialog.waitFor();
    expect(await dialog.getByRole('switch', { name: 'Necessary Cookies (always on)' }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('switch', { name: 'Necessary Cookies (always on)' }).getAttribute('aria-checked')).toBe('true');
    expect(await axe(page)).toEqual([]);
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    const analytics = dialog.getByRole('switch', { name: 'Analytics Cookies' });
    await analytics.click();
    expect(await analytics.getAttribute('aria-checked')).toBe('true');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await stored(page)).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Preferences');
    expect(await page.getByRole('region', { name: 'Cookie Consent' }).isVisible()).toBe(true);

    await preferences.click();
    expect(await analytics.getAttribute('aria-checked')).toBe('false');
    await analytics.press('Space');
    await dialog.getByRole('switch', { name: 'Marketing Cookies' }).press('Enter');
    await dialog.getByRole('button', { name: 'Save Preferences' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(JSON.parse((await stored(page)) ?? 'null')).toMatchObject({ analytics: true, marketing: true });
    expect(await page.getByRole('region', { name: 'Cookie Consent' }).isVisible()).toBe(false);
    await context.close();
  });

  it('Escape closes the preferences without saving', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.site.url}/`);
    await page.getByRole('button', { name: 'Preferences' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await stored(page)).toBeNull();
    await context.close();
  });

  it('ignores a corrupted stored value: logs an error and asks again', async () => {
    const context = await env.browser.newContext();
    await context.addInitScript(() => localStorage.setItem('cookieConsent', '{broken'));
    const page = await context.newPage();
    const seen = collectConsole(page);
    await page.goto(`${env.site.url}/`);
    expect(await page.getByRole('region', { name: 'Cookie Consent' }).isVisible()).toBe(true);
    expect(seen.errors.some((e) => e.includes('Ignoring the stored cookie preference'))).toBe(true);
    await context.close();
  });

  it('asks again when the stored choice answers an older cookie policy', async () => {
    const context = await env.browser.newContext();
    await context.addInitScript(() => localStorage.setItem('cookieConsent', JSON.stringify({ necessary: true, analytics: true, marketing: true, timestamp: '2025-01-01T00:00:00Z', version: 0 })));
    const page = await context.newPage();
    await page.goto(`${env.site.url}/`);
    expect(await page.getByRole('region', { name: 'Cookie Consent' }).isVisible()).toBe(true);
    await context.close();
  });

  it("the footer's 'Cookie settings' reopens the preferences to withdraw consent, by keyboard alone", async () => {
    const context = await env.browser.newContext();
    await context.addInitScript(() => { if (!localStorage.getItem('cookieConsent')) localStorage.setItem('cookieConsent', JSON.stringify({ necessary: true, analytics: true, marketing: true, timestamp: new Date().toISOString(), version: 1 })); });
    const page = await context.newPage();
    await page.goto(`${env.site.url}/contact`);
    expect(await page.getByRole('region', { name: 'Cookie Consent' }).isVisible()).toBe(false);
    const settings = page.locator('footer').getByText('Cookie settings');
    await settings.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Cookie Preferences' });
    await dialog.waitFor();
    const marketing = dialog.getByRole('switch', { name: 'Marketing Cookies' });
    expect(await marketing.getAttribute('aria-checked')).toBe('true');
    await marketing.focus();
    await page.keyboard.press('Space');
    await dialog.getByRole('button', { name: 'Save Preferences' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(JSON.parse((await stored(page)) ?? 'null')).toMatchObject({ analytics: true, marketing: false });
    expect(await layer(page)).toContainEqual({ event: 'consent_update', analytics_consent: true, marketing_consent: false });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cookie settings');
    await context.close();
  });

  it('without JavaScript the bar never shows and Cookie settings links to the cookie policy', async () => {
    const context = await env.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${env.site.url}/`);
    expect(await page.getByRole('region', { name: 'Cookie Consent' }).isVisible()).toBe(false);
    expect(await page.locator('footer').getByRole('link', { name: 'Cookie settings' }).getAttribute('href')).toBe('/privacy-policy#cookies');
    await context.close();
  });
});

describe('toasts', () => {
  it("clicking an article card says 'Opening article' and still opens it", async () => {
    const context = await env.browser.newContext();
    // Record every toast shown, across the navigation the click starts.
    await context.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const holder = document.querySelector('[data-toaster]');
        if (holder) new MutationObserver(() => sessionStorage.setItem('toasts', `${sessionStorage.getItem('toasts') ?? ''}|${holder.textContent}`)).observe(holder, { childList: true, subtree: true });
      });
    });
    const page = await context.newPage();
    await page.goto(`${env.site.url}/blog`);
    const link = page.locator('[data-post-card] .post-card__title a').first();
    const href = await link.getAttribute('href');
    await link.click();
    await page.waitForURL(`${env.site.url}${href}`);
    expect(await page.evaluate(() => sessionStorage.getItem('toasts'))).toContain('Opening articleLoading the full article');
    await context.close();
  });

  it('a toast stays 4 seconds, and for as long as the pointer rests on it', async () => {
    const page = await env.browser.newPage({ viewport: DESKTOP });
    await page.clock.install();
    await page.route('**/api/send-contact-form', (route) => route.fulfill({ status: 502, contentType: 'application/json', body: '{"ok":false}' }));
    await page.goto(`${env.site.url}/contact`);
    const form = page.locator('form[data-form="contact"]');
    await form.getByRole('textbox', { name: 'Name' }).focus();
    await page.locator('[data-island="contact-form"][data-state="ready"]').waitFor({ state: 'attached' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Morag Campbell');
    await form.getByRole('textbox', { name: 'Email' }).fill('morag@example.org');
    await form.getByRole('textbox', { name: 'How can we help?' }).fill('Hello');
    await form.getByRole('checkbox', { name: /I confirm I am a human/ }).check();
    // From here the page's time moves only when the test says, so the 4 s are the page's own.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    const send = form.getByRole('button', { name: 'Send Message' });
    const toast = page.getByRole('region', { name: 'Notifications' }).getByRole('alert');

    await send.click();
    await toast.waitFor();
    await page.clock.runFor(3999);
    expect(await toast.isVisible()).toBe(true);
    await page.clock.runFor(1);
    expect(await toast.count()).toBe(0);

    // Reading takes time: a pointer on the toast holds it; leaving gives it its 4 s again.
    await send.click();
    await toast.waitFor();
    await toast.hover();
    await page.clock.runFor(60_000);
    expect(await toast.isVisible()).toBe(true);
    await page.mouse.move(0, 0);
    await page.clock.runFor(3999);
    expect(await toast.isVisible()).toBe(true);
    await page.clock.runFor(1);
    expect(await toast.count()).toBe(0);
    await page.close();
  });

  it("has one holder labelled 'Notifications', bottom-right", async () => {
    const page = await env.browser.newPage({ viewport: DESKTOP });
    await page.goto(`${env.site.url}/`);
    const holder = page.getByRole('region', { name: 'Notifications' });
    expect(await holder.count()).toBe(1);
    const box = await holder.boundingBox();
    expect(box!.x + box!.width).toBeGreaterThan(DESKTOP.width - 40);
    expect(box!.y + box!.height).toBeGreaterThan(DESKTOP.height - 40);
    await page.close();
  });
});

describe('island failure', () => {
  it('an island whose chunk fails keeps its server HTML and the page keeps working', async () => {
    const page = await env.browser.newPage({ viewport: PHONE });
    const seen = collectConsole(page);
    await page.route(/\/assets\/mobile-menu-[^/]+\.js$/, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: 'throw new Error("broken island")' }));
    await page.goto(`${env.site.url}/`);
    await page.locator('.menu-toggle').click();
    await expect.poll(() => seen.errors.some((e) => e.includes('keeping its server-rendered HTML'))).toBe(true);
    // The menu button that could not get its script still takes the visitor to the footer's links.
    await expect.poll(() => page.url()).toMatch(/#footer-nav$/);
    expect(await page.getByRole('button', { name: 'Menu', exact: true }).getAttribute('aria-expanded')).toBe('false');
    // Other islands still work.
    await page.getByRole('button', { name: 'Accept All' }).click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('cookieConsent'))).not.toBeNull();
    await page.close();
  });
});
