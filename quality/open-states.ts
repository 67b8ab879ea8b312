import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, type Viewport } from './browser.ts';

/**
 * The states a page only reaches when the visitor acts, checked by axe like any page. Each opens
 * its state the way a visitor does (the island wakes on the interaction and replays it) and
 * waits until the state is really there (within the page's hang guard), so a state that never
 * opens fails the gate.
 */
export interface OpenState {
  name: string;
  url: string;
  viewports: readonly Viewport[];
  /** A first visit (no cookie choice stored, so the cookie bar shows); otherwise a returning one. */
  firstVisit?: boolean;
  open(page: Page): Promise<void>;
}

export const OPEN_STATES: OpenState[] = [
  {
    name: 'mobile menu open',
    url: '/',
    viewports: [PHONE], // the menu button is hidden from 768 px up
    async open(page) {
      await page.locator('header [data-island="mobile-menu"] .menu-toggle').click();
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    // The page sweep is of returning visitors; the bar is the same on every page, so once here.
    name: 'cookie bar (first visit)',
    url: '/',
    viewports: [PHONE, DESKTOP],
    firstVisit: true,
    async open(page) {
      await page.getByRole('region', { name: 'Cookie Consent' }).waitFor({ state: 'visible' });
    },
  },
  {
    name: 'cookie preferences dialog open',
    url: '/',
    viewports: [PHONE, DESKTOP],
    firstVisit: true,
    async open(page) {
      await page.getByRole('button', { name: 'Preferences', exact: true }).click();
      await page.getByRole('dialog', { name: 'Cookie Preferences' }).waitFor();
    },
  },
  {
    name: 'FAQ item open',
    url: '/services/data-cleaning',
    viewports: [PHONE, DESKTOP],
    async open(page) {
      const faq = page.locator('[data-island="accordion"]').first();
      await faq.locator('summary, button').first().click();
      await faq.locator('[aria-expanded="true"]').waitFor();
    },
  },
  {
    name: 'contact form errors shown',
    url: '/contact',
    viewports: [PHONE, DESKTOP],
    async open(page) {
      await page.getByRole('button', { name: 'Send Message' }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
    },
  },
];
