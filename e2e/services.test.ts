import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, collectConsole, useSiteAndBrowser } from './helpers.ts';

const env = useSiteAndBrowser();

const SERVICES = [
  { slug: 'data-visualisation', h1: 'Data Visualisation Services', study: null },
  { slug: 'data-governance', h1: 'Data Governance Services', study: null },
  { slug: 'data-integration', h1: 'Data Integration Services', study: null },
  { slug: 'data-cleaning', h1: 'Data Cleaning and Standardisation Services', study: 'dc-thomson' },
  { slug: 'data-infrastructure', h1: 'Data Infrastructure Services', study: 'flexible-childcare-services-scotland' },
  { slug: 'data-literacy', h1: 'Data Literacy and Readiness Services', study: 'south-of-scotland-enterprise' },
] as const;
const CASE_STUDIES = ['dc-thomson', 'flexible-childcare-services-scotland', 'south-of-scotland-enterprise'];

/** Heading levels in document order, to check none is skipped. */
const headingLevels = (page: Page) => page.locator('main').evaluate((main) =>
  [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1])));

/** Ids of the page's top-level sections, in document order. */
const sectionIds = (page: Page) => page.locator('main > section, main > * > section').evaluateAll((els) => els.map((e) => e.id).filter(Boolean));

describe('services overview', () => {
  it('links to the six service pages and offers a free consultation', async () => {
    const page = await env.readingPage(DESKTOP);
    const seen = collectConsole(page);
    const res = await page.goto(`${env.site.url}/services`);
    expect(res?.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    const cards = page.locator('#services-list li');
    expect(await cards.count()).toBe(6);
    const hrefs = await cards.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(SERVICES.map((s) => `/services/${s.slug}`));
    for (const card of await cards.all()) {
      const name = await card.getByRole('heading', { level: 3 }).textContent();
      expect(await card.getByRole('link').textContent()).toContain(name);
    }
    const consult = page.getByRole('link', { name: 'Book a Free Consultation' }).first();
    expect(await consult.getAttribute('href')).toBe('/contact');
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});

describe('service pages', () => {
  for (const s of SERVICES) {
    it(`${s.slug}: hero, sections in order, case study, five questions and the form`, async () => {
      const page = await env.readingPage(DESKTOP);
      const seen = collectConsole(page);
      const res = await page.goto(`${env.site.url}/services/${s.slug}`);
      expect(res?.status()).toBe(200);
      const h1 = page.getByRole('heading', { level: 1 });
      expect(await h1.count()).toBe(1);
      expect(await h1.textContent()).toBe(s.h1);

      const hero = page.locator('.page-hero');
      if (s.slug === 'data-literacy') {
        expect(await hero.getByRole('link', { name: /^Test Your Data Maturity/ }).count()).toBe(1);
        expect(await hero.getByRole('link', { name: 'Book a Free Consultation' }).count()).toBe(0);
      } else {
        expect(await hero.getByRole('link', { name: 'Book a Free Consultation' }).getAttribute('href')).toBe('/contact');
      }

      const ids = await sectionIds(page);
      const order = ['challenge', 'approach', 'benefits', 'tools', 'case-study', 'faq', 'service-contact'];
      expect(ids.filter((id) => order.includes(id))).toEqual(order);

      const stages = await page.locator('#approach ol > li h3').allTextContents();
      expect(stages.map((t) => t.replace(/^Stage \d: /, ''))).toEqual(['Unearth', 'Reveal', 'Build', 'Achieve']);
      expect(await page.locator('#tools .tag').count()).toBeGreaterThan(5);

      const teaser = page.getByRole('link', { name: 'Read the full case study' });
      expect(await teaser.count()).toBe(1);
      const href = await teaser.getAttribute('href');
      if (s.study) expect(href).toBe(`/case-studies/${s.study}`);
      else expect(CASE_STUDIES.map((c) => `/case-studies/${c}`)).toContain(href);
      expect((await page.request.get(`${env.site.url}${href}`)).status()).toBe(200);

      expect(await page.locator('#faq details').count()).toBe(5);
      const contact = page.locator('#service-contact');
      expect(await contact.getByRole('heading', { level: 2 }).textContent()).toBe(s.slug === 'data-literacy' ? 'Or Get in Touch Directly' : 'Get in Touch');
      expect(await contact.locator('form').count()).toBe(1);

      const levels = await headingLevels(page);
      expect(levels[0]).toBe(1);
      levels.forEach((level, i) => { if (i) expect(level - levels[i - 1]!, `heading ${i}`).toBeLessThanOrEqual(1); });

      const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
      const data = ld.map((t) => JSON.parse(t) as Record<string, unknown>);
      const service = data.find((d) => d['@type'] === 'Service');
      expect(service).toMatchObject({ name: s.h1, areaServed: 'United Kingdom', provider: { '@type': 'Organization' } });
      const faq = data.find((d) => d['@type'] === 'FAQPage');
      expect((faq?.mainEntity as unknown[]).length).toBe(5);

      const description = await page.locator('meta[name="description"]').getAttribute('content');
      expect(description?.length).toBeGreaterThanOrEqual(120);
      expect(description?.length).toBeLessThanOrEqual(160);
      expect(seen.errors).toEqual([]);
      await page.close();
    });
  }

  it('quotes the typical timelines on the visualisation page', async () => {
    const page = await env.readingPage();
    await page.goto(`${env.site.url}/services/data-visualisation`);
    const text = await page.locator('main').textContent();
    expect(text).toContain('2-4 weeks');
    expect(text).toContain('2-6 months');
    await page.close();
  });

  it('promotes the six-dimension assessment on the literacy page', async () => {
    const page = await env.readingPage(PHONE);
    await page.goto(`${env.site.url}/services/data-literacy`);
    const section = page.locator('#assessment');
    const dims = (await section.locator('li h3').allTextContents()).map((t) => t.toLowerCase());
    expect(dims).toEqual(['data infrastructure', 'governance', 'skills', 'culture', 'leadership', 'value realisation']);
    // The assessment itself is the external readiness survey (e2e/assessment-links.test.ts checks the link in full).
    const link = section.getByRole('link', { name: 'Test Your Data Maturity (opens in a new tab)', exact: true });
    expect(await link.getAttribute('target')).toBe('_blank');
    await page.close();
  });

  it('opens one question at a time and lets an open one close (APG accordion once used)', async () => {
    const page = await env.readingPage(PHONE);
    await page.goto(`${env.site.url}/services/data-cleaning`);
    // Before any script: native disclosures, every answer in the HTML.
    expect(await page.locator('#faq details').count()).toBe(5);
    expect(await page.locator('#faq .faq__a').count()).toBe(5);
    // The first click wakes the accordion and is not lost.
    await page.locator('#faq summary').nth(0).click();
    const buttons = page.locator('#faq .faq__button');
    const expanded = () => buttons.evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-expanded') === 'true'));
    await expect.poll(expanded).toEqual([true, false, false, false, false]);
    const first = buttons.nth(0);
    expect(await page.locator(`#${await first.getAttribute('aria-controls')}`).isVisible()).toBe(true);
    expect(await first.evaluate((b) => b.parentElement?.tagName)).toBe('H3');
    await buttons.nth(2).click();
    await expect.poll(expanded).toEqual([false, false, true, false, false]);
    await buttons.nth(2).click();
    await expect.poll(expanded).toEqual([false, false, false, false, false]);
    // Keyboard: Enter and Space work on the focused button.
    await buttons.nth(1).focus();
    await page.keyboard.press('Enter');
    await expect.poll(expanded).toEqual([false, true, false, false, false]);
    await page.keyboard.press('Space');
    await expect.poll(expanded).toEqual([false, false, false, false, false]);
    for (const button of await buttons.all()) expect((await button.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await page.close();
  });

  it('redirects /services/analytics-and-reporting to the visualisation page', async () => {
    const res = await fetch(`${env.site.url}/services/analytics-and-reporting`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(new URL(res.headers.get('location') ?? '', env.site.url).pathname).toBe('/services/data-visualisation');
  });
});
