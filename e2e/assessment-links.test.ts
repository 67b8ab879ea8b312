import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { loadSite, type Site } from '../src/content/load.ts';
import { DESKTOP, PHONE, useSiteAndBrowser } from './helpers.ts';

/** 'Test Your Data Maturity' and the DIAlog surveys: external surveys in a new tab, except where the links go to /dialog-assessment (docs/authors.md, 'The DIAlog surveys'). */
const env = useSiteAndBrowser();
let forms: Site['settings']['assessmentForms'];
let caseStudies: string[];

beforeAll(async () => {
  const content = await loadSite(path.resolve('content'));
  forms = content.settings.assessmentForms;
  caseStudies = content.caseStudies.map((s) => s.slug);
});

async function open(url: string, viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  const page = await env.readingPage(viewport);
  expect((await page.goto(`${env.site.url}${url}`))?.status(), url).toBe(200);
  return page;
}

const attrs = (link: Locator) => link.evaluate((a) => ({ href: a.getAttribute('href'), target: a.getAttribute('target'), rel: a.getAttribute('rel') }));

/** The one link in `scope` named `name` plus the new-tab hint: its address, new tab, no opener, and an icon to see. */
async function expectExternal(scope: Locator, name: string, href: string) {
  const link = scope.getByRole('link', { name: `${name} (opens in a new tab)`, exact: true });
  expect(await link.count(), name).toBe(1);
  expect(await attrs(link)).toEqual({ href, target: '_blank', rel: 'noopener noreferrer' });
  expect(await link.locator('svg.icon--external').isVisible()).toBe(true);
  expect(href).toMatch(/^https:\/\//);
}

async function expectOnSite(scope: Locator) {
  const link = scope.getByRole('link', { name: 'Test Your Data Maturity', exact: true });
  expect(await link.count()).toBe(1);
  expect(await attrs(link)).toEqual({ href: '/dialog-assessment', target: null, rel: null });
}

describe('external assessment forms', () => {
  it("home: the call-to-action card's survey opens in a new tab with no opener", async () => {
    // A tab of its own: this test routes its context and opens a second tab from it.
    const page = await env.browser.newPage({ viewport: DESKTOP });
    expect((await page.goto(`${env.site.url}/`))?.status()).toBe(200);
    await expectExternal(page.locator('#next-steps .cta-card--teal'), 'Test Your Data Maturity', forms.organisation);
    // The placeholder address is not reachable here: answer it locally to see what the new tab gets.
    await page.context().route(`${forms.organisation}*`, (route) => route.fulfill({ contentType: 'text/html', body: '<title>Survey</title>' }));
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.locator('#next-steps .cta-card--teal a').click()]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe(forms.organisation);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    expect(page.url()).toBe(`${env.site.url}/`);
    await page.context().unroute(`${forms.organisation}*`);
    await tab.close();
    await page.close();
  });

  it('data literacy: the six-dimension assessment opens the readiness survey', async () => {
    const page = await open('/services/data-literacy', PHONE);
    await expectExternal(page.locator('#assessment'), 'Test Your Data Maturity', forms.readiness);
    await page.close();
  });

  it("every case study's closing call to action opens the survey", async () => {
    for (const slug of caseStudies) {
      const page = await open(`/case-studies/${slug}`);
      await expectExternal(page.locator('section[aria-labelledby="case-study-next-heading"]'), 'Test Your Data Maturity', forms.organisation);
      await page.close();
    }
  });

  it('DIAlog: one survey per audience, each at its own address, and the general survey in the hero', async () => {
    const page = await open('/dialog');
    const next = page.locator('#dialog-next-steps');
    await expectExternal(next, 'Start the Leadership Survey', forms.leaders);
    await expectExternal(next, 'Start the Team Survey', forms.teams);
    await expectExternal(page.locator('.page-hero'), 'Test Your Data Maturity', forms.organisation);
    expect(new Set([forms.leaders, forms.teams, forms.organisation]).size).toBe(3);
    await page.close();
  });

  it('the readiness article links to the external free assessment form', async () => {
    const page = await open('/blog/scotland-data-transformation-readiness', PHONE);
    await expectExternal(page.locator('main'), 'DIAlog readiness assessment', forms.readiness);
    await page.close();
  });
});

describe('the on-site assessment where the product rules name it', () => {
  it('/testimonials and /case-studies close with /dialog-assessment in the same tab', async () => {
    for (const [url, section] of [['/testimonials', '#work-next-steps'], ['/case-studies', '#case-studies-next-steps']] as const) {
      const page = await open(url);
      await expectOnSite(page.locator(section));
      await page.close();
    }
  });
});
