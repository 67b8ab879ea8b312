import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, collectConsole, useSiteAndBrowser } from './helpers.ts';

const env = useSiteAndBrowser();

const NEWEST_FIRST = [
  'data-transformation-before-ai-adoption',
  'scotland-data-transformation-readiness',
  'how-to-avoid-the-four-data-pitfalls',
  'how-to-build-an-experimental-mindset',
  'how-to-gather-meaningful-data',
  'what-is-data',
  'why-messy-data-is-costing-your-business',
  'your-data-is-fine',
];
const COMING_SOON = "This article's full content will be coming soon.";

async function open(path: string, viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  const page = await env.readingPage(viewport);
  const res = await page.goto(`${env.site.url}${path}`);
  expect(res?.status(), path).toBe(200);
  return page;
}

const cardSlugs = (page: Page) =>
  page.locator('[data-post-card] h3 a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!.replace('/blog/', '')));

describe('article list', () => {
  it('shows the heading, intro and the six newest posts as complete cards', async () => {
    const page = await open('/blog');
    const seen = collectConsole(page);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await expect(page.locator('.page-hero h1 + p').textContent()).resolves.toMatch(/(\w+ ){8,}/);
    expect(await cardSlugs(page)).toEqual(NEWEST_FIRST.slice(0, 6));

    const card = page.locator('[data-post-card]').first();
    const title = 'Why Data Transformation Must Come Before AI Adoption: Five Warning Signs';
    await expect(card.getByRole('heading', { level: 3 }).textContent()).resolves.toBe(title);
    expect(await card.locator('time').textContent()).toBe('15 October 2025');
    expect(await card.locator('time').getAttribute('datetime')).toBe('2025-10-15');
    await expect(card.textContent()).resolves.toContain('6 min read');
    expect(await card.locator('.tag').allTextContents()).toEqual(['AI Readiness', 'Data Strategy']);
    expect(await card.locator('.clamp-3').count()).toBe(1);
    const more = card.getByRole('link', { name: `Read More about ${title}` });
    expect(await more.getAttribute('href')).toBe('/blog/data-transformation-before-ai-adoption');
    expect(await card.locator('img').count()).toBe(1);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('numbers its pages, marks the current one, and puts the rest on /blog/page/2', async () => {
    const page = await open('/blog');
    const nav = page.getByRole('navigation', { name: 'Pagination' });
    expect(await nav.getByRole('link', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    expect(await nav.getByRole('link', { name: 'Page 1' }).getAttribute('href')).toBe('/blog');
    expect(await nav.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).toBeNull();
    await nav.getByRole('link', { name: 'Page 2' }).click();
    await page.waitForURL(`${env.site.url}/blog/page/2`);
    expect(await cardSlugs(page)).toEqual(NEWEST_FIRST.slice(6));
    const nav2 = page.getByRole('navigation', { name: 'Pagination' });
    expect(await nav2.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    expect(await nav2.getByRole('link', { name: 'Page 1' }).getAttribute('href')).toBe('/blog');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await page.close();
  });

  it('has no duplicate URL for page 1', async () => {
    const res = await fetch(`${env.site.url}/blog/page/1`, { redirect: 'manual' });
    expect(res.status).not.toBe(200);
    const html = await (await fetch(`${env.site.url}/blog`)).text();
    expect(html).not.toContain('/blog/page/1');
  });

  it('opens the article when a card is clicked', async () => {
    const page = await open('/blog', PHONE);
    await page.locator('[data-post-card]').nth(1).getByRole('heading').click();
    await page.waitForURL(`${env.site.url}/blog/scotland-data-transformation-readiness`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Is Your Scottish Organisation Ready for Data Transformation?');
    await page.close();
  });

  it('links the Atom feed from the head, and the feed lists every article', async () => {
    const page = await open('/blog');
    expect(await page.locator('head link[rel="alternate"][type="application/atom+xml"]').getAttribute('href')).toBe('/blog/feed.xml');
    await page.close();
    const feed = await fetch(`${env.site.url}/blog/feed.xml`);
    expect(feed.status).toBe(200);
    const xml = await feed.text();
    expect(xml.match(/<entry>/g)).toHaveLength(NEWEST_FIRST.length);
  });
});

describe('article page', () => {
  const slug = 'data-transformation-before-ai-adoption';

  it('shows the back link, hero image, title, date, reading time, categories and body', async () => {
    const page = await open(`/blog/${slug}`);
    const seen = collectConsole(page);
    expect(await page.getByRole('link', { name: 'Back to Insights' }).getAttribute('href')).toBe('/blog');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Why Data Transformation Must Come Before AI Adoption: Five Warning Signs');
    const hero = page.locator('.post-hero');
    expect(await hero.locator('time').textContent()).toBe('15 October 2025');
    await expect(hero.textContent()).resolves.toContain('6 min read');
    expect(await hero.locator('.tag').allTextContents()).toEqual(['AI Readiness', 'Data Strategy']);
    expect(await page.locator('.post-body__media img').getAttribute('alt')).toMatch(/\w{10,}/);
    // Five warning signs, each with its 'How to Fix It' box.
    expect(await page.locator('.prose h3', { hasText: /^Warning sign \d/ }).count()).toBe(5);
    expect(await page.locator('.prose .fix-box', { hasText: 'How to Fix It' }).count()).toBe(5);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('has a table of contents whose every link lands on a heading', async () => {
    const page = await open(`/blog/${slug}`);
    const toc = page.getByRole('navigation', { name: 'In this article' });
    const hrefs = await toc.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
    expect(hrefs.length).toBeGreaterThanOrEqual(5);
    for (const href of hrefs) {
      expect(href).toMatch(/^#/);
      expect(await page.locator(`.prose [id="${href.slice(1)}"]`).count(), href).toBe(1);
    }
    await page.close();
  });

  it('has three FAQ questions, share links that share, the author and two more articles', async () => {
    const page = await open(`/blog/${slug}`);
    const faq = page.getByRole('region', { name: 'Frequently Asked Questions' });
    expect(await faq.locator('details').count()).toBe(3);

    const share = page.getByRole('region', { name: 'Share this article' });
    const url = encodeURIComponent(`https://www.example.com/blog/${slug}`);
    const email = await share.getByRole('link', { name: /^Email/ }).getAttribute('href');
    expect(email).toMatch(/^mailto:\?subject=[^&]+&body=/);
    expect(email?.endsWith(url)).toBe(true);
    const linkedin = share.getByRole('link', { name: /LinkedIn/ });
    expect(await linkedin.getAttribute('href')).toBe(`https://www.linkedin.com/sharing/share-offsite/?url=${url}`);
    expect(await linkedin.getAttribute('target')).toBe('_blank');
    expect(await linkedin.getAttribute('rel')).toBe('noopener noreferrer');
    await expect(linkedin.textContent()).resolves.toContain('(opens in a new tab)');
    expect(await share.getByRole('link', { name: /^X/ }).getAttribute('href')).toMatch(new RegExp(`^https://twitter\\.com/intent/tweet\\?url=${url}&text=`));

    const author = page.getByRole('region', { name: 'About the author' });
    await expect(author.textContent()).resolves.toContain('The Northlight Data team');

    const more = page.getByRole('region', { name: 'Continue Reading' });
    expect(await more.locator('[data-post-card] h3 a').evaluateAll((a) => a.map((l) => l.getAttribute('href')))).toEqual([
      `/blog/${NEWEST_FIRST[1]}`,
      `/blog/${NEWEST_FIRST[2]}`,
    ]);
    await page.close();
  });

  it('describes itself by the first 140 characters of the excerpt, with Article and FAQPage data', async () => {
    const page = await open(`/blog/${slug}`);
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    const excerpt = "AI is only as good as the data you feed it. Before investing in AI tools, check your organisation for these five warning signs that your data isn't ready";
    expect(description).toBe(excerpt.slice(0, 140));
    expect(description).toHaveLength(140);
    expect(await page.locator('meta[property="og:type"]').getAttribute('content')).toBe('article');
    expect(await page.locator('meta[property="article:published_time"]').getAttribute('content')).toBe('2025-10-15');
    const data = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t) as Record<string, unknown>);
    expect(data.map((d) => d['@type'])).toEqual(['Article', 'FAQPage']);
    expect((data[1]!.mainEntity as unknown[]).length).toBe(3);
    await page.close();
  });

  it('leaves out the article being read from Continue Reading', async () => {
    const page = await open(`/blog/${NEWEST_FIRST[1]}`);
    const more = page.getByRole('region', { name: 'Continue Reading' });
    expect(await more.locator('[data-post-card] h3 a').evaluateAll((a) => a.map((l) => l.getAttribute('href')))).toEqual([
      `/blog/${NEWEST_FIRST[0]}`,
      `/blog/${NEWEST_FIRST[2]}`,
    ]);
    await page.close();
  });

  it('shows the excerpt and the coming-soon line for the article without a body', async () => {
    const page = await open('/blog/how-to-build-an-experimental-mindset', PHONE);
    const main = page.locator('main');
    await expect(main.textContent()).resolves.toContain(COMING_SOON);
    await expect(main.textContent()).resolves.toContain('The organisations that get most from data treat decisions as small, testable experiments');
    expect(await page.getByRole('navigation', { name: 'In this article' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Frequently Asked Questions' }).locator('details').count()).toBe(3);
    await page.close();
  });

  it('sends an unknown article to /blog', async () => {
    const res = await fetch(`${env.site.url}/blog/no-such-article`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/blog');
    const page = await env.readingPage();
    await page.goto(`${env.site.url}/blog/no-such-article`);
    expect(new URL(page.url()).pathname).toBe('/blog');
    await page.close();
  });

  it('keeps headings in order on every article', async () => {
    const page = await env.readingPage();
    for (const s of NEWEST_FIRST) {
      await page.goto(`${env.site.url}/blog/${s}`);
      const levels = await page.locator('main :is(h1, h2, h3, h4)').evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])));
      expect(levels[0], s).toBe(1);
      levels.slice(1).forEach((level, i) => expect(level - levels[i]!, `${s}: h${levels[i]} then h${level}`).toBeLessThanOrEqual(1));
      expect(levels.filter((l) => l === 1), s).toHaveLength(1);
    }
    await page.close();
  });
});

describe('thank-you page', () => {
  it('confirms the details were sent, says what happens next and links home and to the blog', async () => {
    const page = await open('/thank-you');
    const main = page.locator('main');
    await expect(main.textContent()).resolves.toMatch(/details have been sent/);
    await expect(main.textContent()).resolves.toContain('24 hours');
    expect(await main.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    expect(await main.getByRole('link', { name: 'Read Our Insights' }).getAttribute('href')).toBe('/blog');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.locator('link[rel="canonical"]').count()).toBe(0);
    await page.close();
  });
});

describe('legal pages', () => {
  it.each([
    ['/privacy-policy', 'Privacy Policy', 11],
    ['/terms-of-service', 'Terms of Service', 13],
  ])('%s shows its title, the April 2025 date and an On this page list of working anchors', async (path, title, sections) => {
    const page = await open(path);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(title);
    await expect(page.locator('.page-hero').textContent()).resolves.toContain('Last updated April 2025');
    const toc = page.getByRole('navigation', { name: 'On this page' });
    const hrefs = await toc.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
    expect(hrefs).toHaveLength(sections);
    for (const href of hrefs) expect(await page.locator(`.prose h2[id="${href.slice(1)}"]`).count(), href).toBe(1);
    await page.close();
  });

  it('the terms link to the privacy policy', async () => {
    const page = await open('/terms-of-service');
    expect(await page.locator('.prose a[href="/privacy-policy"]').count()).toBeGreaterThan(0);
    await page.close();
  });
});
