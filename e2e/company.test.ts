import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loadSite, type Site } from '../src/content/load.ts';
import { DESKTOP, PHONE, collectConsole, useSiteAndBrowser } from './helpers.ts';

const env = useSiteAndBrowser();
let content: Site;

beforeAll(async () => {
  content = await loadSite(path.resolve('content'));
});

const CASE_STUDIES = ['dc-thomson', 'south-of-scotland-enterprise', 'flexible-childcare-services-scotland'];

/** Heading levels in document order, to check none is skipped. */
const headingLevels = (page: Page) => page.locator('main').evaluate((main) =>
  [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1])));

function expectNoSkippedLevel(levels: number[]) {
  expect(levels[0]).toBe(1);
  levels.forEach((level, i) => { if (i > 0) expect(level - levels[i - 1]!).toBeLessThanOrEqual(1); });
}

/** Ids of the page's labelled sections, in document order. */
const sectionIds = (page: Page) => page.locator('main section[id]').evaluateAll((els) => els.map((e) => e.id));

/** Visible text of the headings of a section's list items. */
const itemHeadings = async (page: Page, selector: string) =>
  (await page.locator(`${selector} li h3`).allTextContents()).map((t) => t.replace(/^(Stage|Step) \d: /, ''));

/** Open a page, check its status, single h1 and heading order; return it with the console it logged. */
async function open(url: string, viewport: { width: number; height: number } = DESKTOP, status = 200) {
  const page = await env.readingPage(viewport);
  const seen = collectConsole(page);
  const res = await page.goto(`${env.site.url}${url}`);
  expect(res?.status(), url).toBe(status);
  expect(await page.getByRole('heading', { level: 1 }).count(), url).toBe(1);
  expectNoSkippedLevel(await headingLevels(page));
  return { page, seen };
}

/** Every 'Test Your Data Maturity' link goes on site, or opens the external survey safely in a new tab. */
async function expectSafeAssessmentLinks(page: Page) {
  const links = await page.locator('main a', { hasText: 'Test Your Data Maturity' }).evaluateAll((as) =>
    as.map((a) => ({ href: a.getAttribute('href'), target: a.getAttribute('target'), rel: a.getAttribute('rel') })));
  expect(links.length).toBeGreaterThan(0);
  for (const link of links) {
    if (/^https?:/.test(link.href ?? '')) expect(link).toMatchObject({ target: '_blank', rel: 'noopener noreferrer' });
    else expect(link).toEqual({ href: '/dialog-assessment', target: null, rel: null });
  }
}

describe('about', () => {
  it('shows purpose, vision, mission, the four values, the method at #methodology and the calls to action', async () => {
    const { page, seen } = await open('/about');
    const ids = await sectionIds(page);
    const order = ['purpose', 'vision', 'mission', 'values', 'methodology', 'about-next-steps'];
    expect(ids.filter((id) => order.includes(id))).toEqual(order);
    for (const word of ['Purpose', 'Vision', 'Mission']) {
      const heading = page.getByRole('heading', { level: 2, name: new RegExp(`\\b${word}\\b`, 'i') });
      expect(await heading.textContent(), word).toBe(`Our ${word}`);
      expect(await heading.evaluate((h) => h.closest('section')?.id), word).toBe(word.toLowerCase());
    }
    expect(await itemHeadings(page, '#values')).toEqual(['Owning the Outcome', 'Staying Open', 'Keeping It Clear', 'Making Things Better']);
    expect(await itemHeadings(page, '#methodology ol')).toEqual(['Unearth', 'Reveal', 'Build', 'Achieve']);
    expect(await page.locator('#methodology ol > li dt').allTextContents()).toEqual(Array(4).fill(['What happens', 'What you get']).flat());
    expect(await page.locator('#purpose img').getAttribute('alt')).toBeTruthy();
    const next = page.locator('#about-next-steps');
    expect(await next.getByRole('link', { name: "Let's Talk Data" }).getAttribute('href')).toBe('/contact');
    await expectSafeAssessmentLinks(page);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('scrolls to the method when opened at /about#methodology', async () => {
    // A tab of its own: in a kept tab already at /about, the address would only move the fragment.
    const page = await env.browser.newPage({ viewport: PHONE });
    await page.goto(`${env.site.url}/about#methodology`);
    // Scrolling may be smooth: wait until the section has arrived near the top of the screen.
    await page.waitForFunction(() => {
      const top = document.getElementById('methodology')?.getBoundingClientRect().top;
      return top !== undefined && top >= 0 && top < window.innerHeight / 2;
    });
    await page.close();
  });
});

describe('dialog', () => {
  it('shows the sections in order with three steps and six aspects', async () => {
    const { page, seen } = await open('/dialog');
    const ids = await sectionIds(page);
    const order = ['challenges', 'what-is-dialog', 'approach', 'aspects', 'business-case', 'dialog-testimonials', 'dialog-next-steps'];
    expect(ids.filter((id) => order.includes(id))).toEqual(order);
    expect(await itemHeadings(page, '#approach')).toEqual(['Assessment', 'Analysis', 'Action Plan']);
    expect(await itemHeadings(page, '#aspects')).toEqual(['Advocate', 'Translator', 'Monitor', 'Enabler', 'Interpreter', 'Strategist']);
    expect(await page.locator('#business-case li').count()).toBeGreaterThanOrEqual(2);
    await expectSafeAssessmentLinks(page);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('quotes seven testimonials attributed by role only', async () => {
    const { page } = await open('/dialog');
    const captions = await page.locator('#dialog-testimonials figcaption').allTextContents();
    expect(captions).toEqual(content.pages.dialog.testimonials.items.map((t) => t.role));
    expect(captions).toHaveLength(7);
    await page.close();
  });
});

describe('our work', () => {
  it("is titled 'Client Success Stories' with quotes, the 'Case Studies' grid and the closing call to action", async () => {
    const { page, seen } = await open('/testimonials');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Client Success Stories');
    expect(await page.title()).toMatch(/^Client Success Stories \| /);
    const quotes = await page.locator('#client-testimonials blockquote').count();
    expect(quotes).toBeGreaterThanOrEqual(3);
    expect(quotes).toBeLessThanOrEqual(4);

    const grid = page.getByRole('region', { name: 'Case Studies', exact: true });
    const links = grid.getByRole('link', { name: /^Read Case Study/ });
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(CASE_STUDIES.map((s) => `/case-studies/${s}`));

    const cta = page.locator('#work-next-steps');
    expect(await cta.getByRole('link', { name: 'Test Your Data Maturity' }).getAttribute('href')).toBe('/dialog-assessment');
    expect(await cta.getByRole('link', { name: "Let's Talk Data" }).getAttribute('href')).toBe('/contact');
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});

describe('case-study list', () => {
  it('shows a card per case study, with client, title, a three-line subtitle, image alt text and a named link', async () => {
    const { page, seen } = await open('/case-studies');
    const cards = page.locator('#case-study-list article');
    expect(await cards.count()).toBe(3);
    for (const [i, slug] of CASE_STUDIES.entries()) {
      const card = cards.nth(i);
      const study = content.caseStudies.find((s) => s.slug === slug)!;
      expect(await card.locator('.case-card__client').textContent()).toBe(study.client);
      expect(await card.getByRole('heading', { level: 3 }).textContent()).toBe(study.title);
      expect(await card.locator('p.clamp-3').evaluate((p) => getComputedStyle(p).webkitLineClamp)).toBe('3');
      expect(await card.locator('img').getAttribute('alt')).toBe(study.headerImageAlt ?? `${study.client} case study`);
      const link = card.getByRole('link', { name: `Read Case Study about ${study.client}` });
      expect(await link.getAttribute('href')).toBe(`/case-studies/${slug}`);
    }
    const cta = page.locator('#case-studies-next-steps');
    expect(await cta.getByRole('link', { name: "Let's Talk Data" }).getAttribute('href')).toBe('/contact');
    expect(await cta.getByRole('link', { name: 'Test Your Data Maturity' }).getAttribute('href')).toBe('/dialog-assessment');
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it.each([[PHONE, 1], [{ width: 800, height: 900 }, 2], [DESKTOP, 3]] as const)('lays the grid out at %o in %i column(s)', async (viewport, columns) => {
    const page = await env.readingPage(viewport);
    await page.goto(`${env.site.url}/case-studies`);
    const count = await page.locator('#case-study-list ul').evaluate((ul) => getComputedStyle(ul).gridTemplateColumns.split(' ').length);
    expect(count).toBe(columns);
    await page.close();
  });
});

describe('case-study pages', () => {
  for (const slug of CASE_STUDIES) {
    it(`${slug}: back link, title, client, the fixed sections in order and the optional ones only when present`, async () => {
      const study = content.caseStudies.find((s) => s.slug === slug)!;
      const { page, seen } = await open(`/case-studies/${slug}`);
      expect(await page.title()).toBe(`${study.metaTitle} | ${content.settings.name}`);
      expect(await page.getByRole('link', { name: 'Back to Testimonials' }).getAttribute('href')).toBe('/testimonials');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(study.title);
      expect(await page.locator('main').textContent()).toContain(study.client);

      const headings = await page.locator('main h2').allTextContents();
      const expected = ['About the client', 'The Challenge', 'The Solution', 'The Results',
        ...(study.feedback ? ['Client Feedback'] : []), ...(study.whyUs?.length ? ['Why Us'] : [])];
      expect(headings.filter((h) => expected.includes(h) || h === 'Client Feedback' || h === 'Why Us')).toEqual(expected);
      expect(await page.locator('#solution li').count()).toBe(study.solution.length);
      expect(await page.locator('#results li').count()).toBe(study.results.length);
      if (study.feedback) expect(await page.locator('#feedback figcaption').textContent()).toBe(`${study.feedback.author}, ${study.feedback.role}`);

      expect(await page.locator('main a', { hasText: "Let's Talk Data" }).last().getAttribute('href')).toBe('/contact');
      await expectSafeAssessmentLinks(page);
      expect(seen.errors).toEqual([]);
      await page.close();
    });
  }

  it("answers an unknown slug with status 404 and 'Case Study Not Found'", async () => {
    const { page } = await open('/case-studies/no-such-study', PHONE, 404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Case Study Not Found');
    expect(await page.locator('main').textContent()).toContain("The case study you're looking for doesn't exist or has been moved.");
    expect(await page.getByRole('link', { name: 'Back to Testimonials' }).getAttribute('href')).toBe('/testimonials');
    await page.close();
  });
});
