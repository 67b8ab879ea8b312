// An author's day in the content manager at /admin, against `site serve` on a scratch copy of the
// project, in Chromium with a UK locale: every kind of existing entry opens, takes a one-word change
// and saves; dates are typed as a UK author types them and an optional one is cleared; a PNG is
// uploaded into an article and shown in the preview and on the page; refusals are shown in the
// build's words until dismissed.
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { scratchProject } from '../tests/scratch-project.ts';
import { startServer, type RunningServer } from '../src/serve/server.ts';
import { answer, connectBrowser, DESKTOP, PHONE } from './helpers.ts';

let dir: string;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  dir = await scratchProject('site-cms-day-', { cmsBundle: true });
  [server, browser] = await Promise.all([startServer({ root: dir, port: 0, host: '127.0.0.1' }), connectBrowser()]);
  context = await browser.newContext({ locale: 'en-GB', timezoneId: 'Europe/London', viewport: { width: 1366, height: 900 } });
  // Leaving an entry with unsaved changes is let through (the page's and Decap's own question);
  // Decap's offer to restore them is declined.
  context.on('page', (page) => page.on('dialog', (d) => answer(d, d.type() === 'beforeunload' || /leave this page/.test(d.message()))));
  // The CMS's bundle is served from its first request on (taken from the cache the copy brought, or
  // made by esbuild in some seconds): asked for here, outside the tests' page loads.
  expect((await fetch(`${server.url}/admin/cms.js`)).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const file = (rel: string) => readFile(path.join(dir, rel), 'utf8');

/**
 * Whether a click at the control's centre reaches it (nothing drawn over it), once it is scrolled
 * into view; a control of a header that stays in place is taken where it is (`scroll` false).
 */
const uncovered = (control: Locator, scroll = true) => control.evaluate((c, into) => {
  if (into) c.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const r = c.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return hit !== null && c.contains(hit);
}, scroll);

/** /admin at an entry, signed in (the local backend's Login opens it at once), its form shown. */
async function open(page: Page, hash: string): Promise<void> {
  // From a blank page, so that a change of entry loads the CMS afresh rather than following a hash.
  await page.goto('about:blank');
  await page.goto(`${server.url}/admin/${hash}`);
  const login = page.getByRole('button', { name: 'Login' });
  const publish = page.getByRole('button', { name: 'Publish' }).first();
  await login.or(publish).first().waitFor();
  if (await login.isVisible()) await login.click();
  await publish.waitFor();
}

async function publish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Publish' }).first().click();
  await page.getByText('Publish now').click();
}

/**
 * Publishes and waits for the file to say `expected` (its lines' breaks read as spaces), and for the
 * page to have the server's answer: its toolbar says Published (Decap holds the entry as changed,
 * and asks before the page is left, until the answer comes, which is after the file is written).
 */
async function saved(page: Page, rel: string, expected: RegExp): Promise<string> {
  await publish(page);
  await expect.poll(async () => (await file(rel)).replace(/\n\s+/g, ' ')).toMatch(expected);
  await page.getByRole('button', { name: 'Published', exact: true }).waitFor();
  return file(rel);
}

// Each test loads the 6 MB content manager, often more than once, and saves through site serve's
// build: 10–40 s on a quiet machine, so its hang guard is 600 s.
describe('an author at /admin', { timeout: 600_000 }, () => {
  it('saves each existing entry after a one-word change, changing that one line: the image path passes as the build reads it, and a legal page opens', async () => {
    const page = await context.newPage();
    // Leaving an entry once it is published asks nothing: every question the page asks is kept.
    const asked: string[] = [];
    page.on('dialog', (d) => asked.push(`${d.type()}: ${d.message()}`));
    const edits = [
      ['#/collections/blog/entries/your-data-is-fine', 'content/blog/your-data-is-fine.md', 'Title', 'Fine', 'Good'],
      ['#/collections/case-studies/entries/dc-thomson', 'content/case-studies/dc-thomson.yaml', 'Title', 'Long-Established', 'Well-Established'],
      ['#/collections/pages/entries/home', 'content/pages/home.yaml', 'Title', 'Ambitious', 'Ambitions'],
      ['#/collections/pages/entries/about', 'content/pages/about.yaml', 'Title', 'Us', 'Them'],
      ['#/collections/pages/entries/dialog', 'content/pages/dialog.yaml', 'Title', 'Maturity', 'Readiness'],
      ['#/collections/pages/entries/dialog-assessment', 'content/pages/dialog-assessment.yaml', 'Title', 'Assessment', 'Survey'],
      ['#/collections/site/entries/site', 'content/site.yaml', 'Office hours', '5:30pm', '5pm'],
      // Markdown with front matter beside the YAML pages: a collection of its own, read in its own format.
      ['#/collections/legal/entries/privacy-policy', 'content/pages/privacy-policy.md', 'Title', 'Privacy', 'Data'],
    ] as const;
    // The content manager is loaded once: each entry after the first is opened as an author opens
    // it, back to its collection's list (Decap loads an entry as its form opens) and on to the
    // entry, which is waited for until its field shows the file's words.
    const go = (h: string) => page.evaluate((to) => { location.hash = to; }, h);
    for (const [i, [hash, rel, label, from, to]] of edits.entries()) {
      if (i === 0) await open(page, hash);
      else {
        await go(hash.replace(/\/entries\/.*$/, ''));
        await expect.poll(() => page.getByRole('button', { name: 'Publish' }).count()).toBe(0);
        expect(asked, `leaving ${edits[i - 1]![1]} once published`).toEqual([]);
        await go(hash);
      }
      const field = page.getByLabel(label, { exact: true }).first();
      const shown = async () => {
        const value = await field.inputValue().catch(() => '');
        return value.includes(from) && (await file(rel)).replace(/\n\s+/g, ' ').includes(value);
      };
      await expect.poll(shown).toBe(true);
      const before = await field.inputValue();
      expect(before, rel).toContain(from);
      const after = before.replace(from, to);
      const was = (await file(rel)).split('\n');
      await field.fill(after);
      const now = (await saved(page, rel, new RegExp(after.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))).split('\n');
      expect(now.length, rel).toBe(was.length);
      const changed = now.flatMap((line, n) => (line === was[n] ? [] : [[was[n], line]]));
      expect(changed, rel).toHaveLength(1);
      expect(changed[0]![1], rel).toBe(changed[0]![0]!.replace(from, to));
      // The image path is kept as it was.
      if (!rel.endsWith('privacy-policy.md')) expect(now.join('\n'), rel).toMatch(/\/images\/[\w.-]+\.svg/);
    }
    await page.goto('about:blank');
    expect(asked).toEqual([]);
    await page.close();
  });

  it('takes a date typed day/month/year, refuses a half-typed year and a save the build refuses in their own words, and clears an optional date out of the file', async () => {
    const page = await context.newPage();
    const rel = 'content/blog/what-is-data.md';
    await open(page, '#/collections/blog/entries/what-is-data');
    const date = page.getByLabel('Date', { exact: true });
    expect(await date.inputValue()).toBe('13/05/2025');
    await date.fill('');

    // A field's error in its own words, not "didn't match the pattern".
    await page.getByLabel('Reading time (optional)').fill('six minutes');
    await date.fill('20/11/26');
    await publish(page);
    await expect.poll(() => page.getByText("Reading time: expected a reading time like '7 min read'.").isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Date: type the year in full (26 is not a four-digit year)').isVisible()).toBe(true);
    expect(await page.getByText("didn't match the pattern").count()).toBe(0);
    expect(await file(rel)).toContain('date: 2025-05-13');

    // Afresh, the date typed as a UK author types it.
    await open(page, '#/collections/blog/entries/what-is-data');
    await date.fill('');
    await date.pressSequentially('20/11/2026');
    await expect.poll(() => page.getByText(/Friday,? 20 November 2026/).isVisible()).toBe(true);
    await page.getByLabel(/^Publish date/).pressSequentially('01/12/2026');
    await page.getByLabel(/^Expiry date/).pressSequentially('01/11/2026');

    // The build refuses an expiry before publication: its sentence, without Decap's prefix, stays until dismissed.
    await publish(page);
    const alert = page.getByRole('alert').filter({ hasText: 'Not saved.' });
    await alert.waitFor();
    const said = await alert.innerText();
    expect(said).toContain(`${rel}`);
    expect(said).toContain('expiryDate: is not after publishDate');
    expect(said).not.toContain('API_ERROR');
    expect(await file(rel)).toContain('date: 2025-05-13');
    // The message covers none of the editor's controls, at a phone's width as on a desktop: a click
    // at the Publish button's centre reaches the button.
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await expect.poll(() => uncovered(page.getByRole('button', { name: 'Publish', exact: true })), { message: `the Publish button at ${size.width} px` }).toBe(true);
      expect(await alert.isVisible()).toBe(true);
    }
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    expect(await alert.count()).toBe(0);

    await page.getByRole('button', { name: /^Clear Expiry date/ }).click();
    const text = await saved(page, rel, /publishDate: 2026-12-01/);
    expect(text).toMatch(/^date: 2026-11-20$/m);
    expect(text).not.toContain('expiryDate');

    // A cleared optional date leaves the file, rather than being saved as ''; markdown typed into
    // the body is saved as the author typed it, not escaped.
    await page.getByRole('button', { name: /^Clear Publish date/ }).click();
    const body = page.locator('.cms-editor-raw [contenteditable="true"]');
    // Typed once the body has the focus: under load the form can still be redrawing after the clear
    // when the first click comes, and keys pressed on the Clear button would click it again.
    await expect.poll(async () => { await body.click(); return body.evaluate((e) => e.contains(document.activeElement)); }).toBe(true);
    await page.keyboard.press('Control+End');
    // The raw editor keeps a block per line. Each key's effect is awaited before the next key: a key
    // sent while the editor still redraws the last one's block lands in the old block, or is lost
    // (seen as a missing blank line, on a quiet machine too).
    const lines = () => body.evaluate((e) => [...e.children].map((b) => (b.textContent ?? '').replace(/\uFEFF/g, '')));
    const before = (await lines()).length;
    for (const [i, line] of ['', '## Next steps', '', 'Read **more** about _data_ and [our work](/case-studies).'].entries()) {
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await lines()).length).toBe(before + i + 1);
      await page.keyboard.type(line);
      await expect.poll(async () => (await lines()).at(-1)).toBe(line);
    }
    // Published once the preview draws what was typed: the entry holds the body, not only the editor.
    const preview = page.frameLocator('iframe').first();
    await expect.poll(() => preview.getByRole('heading', { name: 'Next steps' }).isVisible()).toBe(true);
    await expect.poll(() => preview.locator('main').innerText()).toContain('Read more about data and our work');
    await publish(page);
    await expect.poll(() => file(rel)).not.toContain('publishDate');
    const written = await file(rel);
    expect(written).toContain('\n\n## Next steps\n\nRead **more** about _data_ and [our work](/case-studies).');
    expect(written).not.toMatch(/\\[#*_[]/);

    // The message takes its own space on the other views too: an image the media library refuses
    // shows it above the library, whose controls stay in reach, and above the list of articles,
    // whose header it covers neither at the top of the list nor scrolled to its end.
    await page.getByRole('button', { name: 'Published', exact: true }).waitFor();
    const svg = path.join(dir, 'strip-chart.svg');
    await writeFile(svg, '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    await page.evaluate(() => { location.hash = '#/collections/blog'; });
    await page.getByRole('button', { name: 'Media', exact: true }).click();
    await page.locator('input[type="file"]').setInputFiles(svg);
    const strip = page.getByRole('alert').filter({ hasText: 'strip-chart.svg has a <script> element' });
    await strip.waitFor();
    const library = { Dismiss: strip.getByRole('button', { name: 'Dismiss' }), Close: page.getByRole('button', { name: 'Close', exact: true }), 'Delete selected': page.getByRole('button', { name: 'Delete selected' }), Search: page.getByPlaceholder('Search...') };
    const header = { Contents: page.getByRole('link', { name: 'Contents', exact: true }), Media: page.getByRole('button', { name: 'Media', exact: true }), 'Quick add': page.getByRole('button', { name: 'Quick add' }) };
    const entries = page.locator('a[href*="/collections/blog/entries/"]');
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      for (const [name, control] of Object.entries(library)) await expect.poll(() => uncovered(control), { message: `the media library's ${name} at ${size.width} px` }).toBe(true);
    }
    await library.Close.click();
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      for (const end of [0, -1]) {
        await entries.nth(end).evaluate((e) => e.scrollIntoView({ block: 'end' }));
        for (const [name, control] of Object.entries(header)) await expect.poll(() => uncovered(control, false), { message: `the list's ${name} at ${size.width} px, entry ${end} in view` }).toBe(true);
      }
    }
    await strip.getByRole('button', { name: 'Dismiss' }).click();
    expect(await strip.count()).toBe(0);
    await page.close();
  });

  it('uploads a PNG into an article: shown in the preview as it is chosen, saved into content/images and shown on the page', async () => {
    const page = await context.newPage();
    const png = path.join(dir, 'team-workshop.png');
    await writeFile(png, await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: 200, g: 60, b: 40 } } }).png().toBuffer());
    const svg = path.join(dir, 'chart.svg');
    await writeFile(svg, '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    // Every image the content manager shows (the media library's thumbnails, the field's, the preview's) is found.
    const missing: string[] = [];
    page.on('response', (r) => { if (r.status() === 404) missing.push(r.url()); });
    await open(page, '#/collections/blog/entries/how-to-gather-meaningful-data');
    const choose = async (upload: string) => {
      await page.getByRole('button', { name: /Choose different image/i }).click();
      await page.locator('input[type="file"]').setInputFiles(upload);
      await page.getByRole('button', { name: /Choose selected/i }).click();
    };
    // An upload the site refuses is refused with its reason; once another image is chosen instead,
    // the entry saves without a reload.
    await choose(svg);
    await publish(page);
    const refused = page.getByRole('alert').filter({ hasText: 'Not saved.' });
    await expect.poll(() => refused.innerText()).toContain('chart.svg has a <script> element');
    await refused.getByRole('button', { name: 'Dismiss' }).click();
    await choose(png);
    // The preview draws the new raster image from the uploaded file itself.
    const previewImage = page.frameLocator('iframe').first().locator('main img[alt]').first();
    await expect.poll(() => previewImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(640);
    await saved(page, 'content/blog/how-to-gather-meaningful-data.md', /src: \/images\/team-workshop\.png/);
    expect((await stat(path.join(dir, 'content/images/team-workshop.png'))).size).toBeGreaterThan(0);
    await expect(stat(path.join(dir, 'content/images/chart.svg'))).rejects.toThrow(/ENOENT/);
    expect(missing).toEqual([]);

    // The page shows it in its responsive variants once serve has rebuilt.
    const served = () => fetch(`${server.url}/blog/how-to-gather-meaningful-data`).then((r) => r.text());
    await expect.poll(served).toMatch(/\/assets\/images\/team-workshop-\d+-[0-9a-f]{10}\.avif/);
    await page.goto(`${server.url}/blog/how-to-gather-meaningful-data`);
    // Scrolled to and looked at in one step, again until it has loaded: the pass that served the new page
    // may end after it loaded, and live reload then loads it once more, with a new image element.
    const shown = page.locator('main img[src*="team-workshop"]').first();
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => {
      img.scrollIntoView({ block: 'center' });
      return img.complete && img.naturalWidth > 0;
    })).toBe(true);
    await page.close();
  });

  it('previews a service and a page in their templates, at the phone and desktop widths the author chooses', async () => {
    const page = await context.newPage();
    for (const [hash, url] of [['#/collections/services/entries/data-cleaning', '/services/data-cleaning'], ['#/collections/pages/entries/about', '/about']] as const) {
      await page.goto(`${server.url}${url}`);
      const built = await page.locator('main h1, main h2').allTextContents();
      await open(page, hash);
      const frame = page.frameLocator('iframe').first();
      await frame.locator('main h1').waitFor();
      expect(await frame.locator('main h1, main h2').allTextContents(), url).toEqual(built);
      const width = () => frame.locator('body').evaluate(() => window.innerWidth);
      const menu = frame.getByRole('button', { name: /Menu/ });
      // At the pane's own width, Decap's buttons over the preview never cover the Menu button, at the
      // top or scrolled down (the site's header stays at the top).
      for (const y of [0, 600]) {
        await frame.locator('body').evaluate((_, to) => window.scrollTo(0, to), y);
        await expect.poll(() => menu.evaluate((m) => m.checkVisibility() && m.getBoundingClientRect().top < 100)).toBe(true);
        const m = (await menu.boundingBox())!;
        for (const b of await page.locator('button[title="Toggle preview"], button[title="Sync scrolling"]').all()) {
          const d = (await b.boundingBox())!;
          const apart = d.x >= m.x + m.width || m.x >= d.x + d.width || d.y >= m.y + m.height || m.y >= d.y + d.height;
          expect(apart, `${url} scrolled ${y}: ${JSON.stringify(d)} over the Menu button ${JSON.stringify(m)}`).toBe(true);
        }
      }
      await frame.getByRole('button', { name: 'Phone' }).click();
      await expect.poll(width).toBe(375);
      await expect.poll(() => menu.isVisible()).toBe(true);
      await frame.getByRole('button', { name: 'Desktop' }).click();
      await expect.poll(width).toBe(1366);
      await expect.poll(() => menu.isVisible()).toBe(false);
    }
    await page.close();
  });

  it('names the categories group, shows its new-category box, refuses a second spelling and keeps an unticked new category', async () => {
    const page = await context.newPage();
    await open(page, '#/collections/blog/entries/data-transformation-before-ai-adoption');
    const group = page.getByRole('group', { name: 'Categories' });
    await group.waitFor();
    const box = group.getByLabel('New category');
    expect(await box.evaluate((e) => { const c = getComputedStyle(e); return [c.borderTopStyle, c.borderTopWidth]; })).toEqual(['solid', '1px']);
    const ticks = group.getByRole('checkbox');
    const before = await ticks.count();
    await box.fill('data culture');
    await group.getByRole('button', { name: 'Add category' }).click();
    expect(await group.getByRole('alert').innerText()).toContain('"data culture" would share the address /blog/category/data-culture with "Data Culture"');
    expect(await ticks.count()).toBe(before);
    await box.fill('Charities');
    await group.getByRole('button', { name: 'Add category' }).click();
    const added = group.getByRole('checkbox', { name: 'Charities' });
    expect(await added.isChecked()).toBe(true);
    await added.uncheck();
    expect(await added.count()).toBe(1);
    await page.close();
  });
});

