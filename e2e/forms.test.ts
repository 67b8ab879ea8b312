// The contact and assessment forms end to end in Chromium: the islands, the real handler, and the
// e-mail it hands to the local SES server, read back from that server's store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ASSESSMENT_QUESTIONS } from '../forms/assessment.ts';
import { VOLUME_LIMITS } from '../lambda/limits/settings.ts';
import { DESKTOP, PHONE, collectConsole, startSite, useSiteAndBrowser } from './helpers.ts';
import { axe } from './axe.ts';

type Site = Awaited<ReturnType<typeof startSite>>;
const env = useSiteAndBrowser({ forms: true });

interface StoredEmail { subject: string; replyTo: string[]; destination: { to: string[] }; body: { text?: string; html?: string } }

/** The e-mail whose Reply-To is `address`, once the local SES server has it (addresses are unique per test). */
async function emailFrom(address: string): Promise<StoredEmail> {
  let found: StoredEmail | undefined;
  await expect.poll(async () => {
    const store = (await (await fetch(`${env.site.forms!.sesEndpoint}/store`)).json()) as { emails: StoredEmail[] };
    found = store.emails.find((e) => e.replyTo.includes(address));
    return found !== undefined;
    // Waited for, not timed: a 45 KB post is stored, then sent to the local SES, in its own time.
  }).toBe(true);
  return found!;
}

async function emailsFrom(address: string): Promise<number> {
  const store = (await (await fetch(`${env.site.forms!.sesEndpoint}/store`)).json()) as { emails: StoredEmail[] };
  return store.emails.filter((e) => e.replyTo.includes(address)).length;
}

let counter = 0;
const uniqueAddress = (who: string) => `${who}.${Date.now()}.${++counter}@example.org`;

/** Opens a page and waits for the form's island to hydrate (so the test drives the island, not the plain post). */
async function openForm(url: string, island: 'contact-form' | 'assessment-form', viewport: { width: number; height: number } = DESKTOP, prepare?: (page: Page) => Promise<void>): Promise<Page> {
  const page = await env.browser.newPage({ viewport });
  await prepare?.(page);
  await page.goto(url);
  // The marker itself has no box (display: contents); its form does.
  await page.locator(`[data-island="${island}"] form`).scrollIntoViewIfNeeded();
  // The forms wake on first interaction (or when scrolled into view on service pages): focus one.
  await page.locator(`[data-island="${island}"] form`).getByRole('textbox').first().focus();
  await page.locator(`[data-island="${island}"][data-state="ready"]`).waitFor({ state: 'attached' });
  return page;
}

/** Records every data-layer event in sessionStorage, so it can be read after the page has moved on. */
async function recordDataLayer(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { dataLayer: unknown[] };
    const layer: unknown[] = (w.dataLayer = w.dataLayer ?? []);
    const push = layer.push.bind(layer);
    layer.push = (...items: unknown[]) => {
      const events = items.filter((i) => i && typeof i === 'object' && 'event' in i);
      sessionStorage.setItem('events', JSON.stringify([...JSON.parse(sessionStorage.getItem('events') ?? '[]') as unknown[], ...events]));
      return push(...items);
    };
  });
}

/**
 * The page's own clock, driven by the test: installed before the page loads (so it runs as usual
 * while it loads and hydrates), and where-to navigations recorded the moment the page starts them
 * (the Navigation API's navigate event), so that 'not yet' is a fact, not a race.
 */
async function controlTime(page: Page) {
  await page.clock.install();
  await page.addInitScript(() => {
    const w = window as unknown as { navigation: EventTarget; navigatedTo: string[] };
    w.navigatedTo = [];
    w.navigation.addEventListener('navigate', (event) => w.navigatedTo.push((event as Event & { destination: { url: string } }).destination.url));
  });
}

/** Stops the page's clock: from here on its timers fire only when the test runs the clock on. */
async function stopClock(page: Page) {
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
}

const navigatedTo = (page: Page) => page.evaluate(() => (window as unknown as { navigatedTo: string[] }).navigatedTo);

/**
 * Counts the posts to the endpoint and, with `hold`, keeps each one back until the test calls
 * `release`, so the busy state is there for as long as the test takes to look at it.
 */
async function watchEndpoint(page: Page, opts: { hold?: boolean } = {}): Promise<{ posts: number; release: () => void }> {
  let release!: () => void;
  const released = opts.hold ? new Promise<void>((done) => { release = done; }) : Promise.resolve();
  const seen = { posts: 0, release: () => release?.() };
  await page.route('**/api/send-contact-form', async (route) => {
    seen.posts += 1;
    await released;
    await route.continue();
  });
  return seen;
}

async function fillContact(form: Locator, v: { name: string; email: string; company: string; message: string }) {
  await form.getByRole('textbox', { name: 'Name' }).fill(v.name);
  await form.getByRole('textbox', { name: 'Email' }).fill(v.email);
  await form.getByRole('textbox', { name: /^Organisation/ }).fill(v.company);
  await form.getByRole('textbox', { name: 'How can we help?' }).fill(v.message);
  await form.getByRole('checkbox', { name: /I confirm I am a human/ }).check();
}

async function answerAll(form: Locator) {
  for (const [i, q] of ASSESSMENT_QUESTIONS.entries()) {
    await form.getByRole('combobox', { name: q.question }).selectOption(q.options[i % q.options.length]!.code);
  }
}

/** The message under a control, found the way assistive technology finds it. */
async function describedError(control: Locator): Promise<{ invalid: string | null; message: string | null }> {
  const invalid = await control.getAttribute('aria-invalid');
  const id = await control.getAttribute('aria-describedby');
  const message = id ? await control.page().locator(`[id="${id}"]`).textContent() : null;
  return { invalid, message };
}

const focusedName = (page: Page) => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name ?? null);

describe('contact form', () => {
  it('on /contact: busy while sending, then /thank-you, the form_submit event, and the e-mail with the typed values', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.setViewportSize(DESKTOP);
    await recordDataLayer(page);
    const seen = collectConsole(page);
    await page.goto(`${env.site.url}/contact`);
    await page.locator('form[data-form="contact"]').getByRole('textbox').first().focus();
    await page.locator('[data-island="contact-form"][data-state="ready"]').waitFor({ state: 'attached' });
    const endpoint = await watchEndpoint(page, { hold: true });
    const form = page.locator('form[data-form="contact"]');
    const values = { name: 'Morag Campbell', email: uniqueAddress('morag'), company: 'Tayside Widgets Ltd', message: 'Our reports disagree with each other.\nCan you help?' };
    await fillContact(form, values);
    await form.getByRole('button', { name: 'Send Message' }).click();

    const busy = form.getByRole('button', { name: 'Sending...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    endpoint.release();
    await page.waitForURL(`${env.site.url}/thank-you`);
    expect(endpoint.posts).toBe(1);

    // No cookie choice made: the event goes, without the visitor's address or organisation.
    const events = JSON.parse(await page.evaluate(() => sessionStorage.getItem('events') ?? '[]')) as Array<Record<string, unknown>>;
    expect(events).toContainEqual({ event: 'form_submit', form_name: 'contact' });
    expect(JSON.stringify(events)).not.toContain(values.email);

    const mail = await emailFrom(values.email);
    expect(mail.subject).toBe('Contact form: Morag Campbell (Tayside Widgets Ltd)');
    expect(mail.body.text).toContain(`Email: ${values.email}`);
    expect(mail.body.text).toContain(values.message);
    expect(mail.body.text).toContain(`Source: ${env.site.url}`);
    expect(mail.body.html).toContain('Our reports disagree with each other.');
    expect(seen.errors).toEqual([]);
    expect(seen.messages.filter((m) => m.includes('[island'))).toEqual([]);
    await context.close();
  });

  it('tells the data layer who sent the form only when analytics cookies were accepted', async () => {
    const context = await env.browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await recordDataLayer(page);
    await page.goto(`${env.site.url}/contact`);
    await page.getByRole('button', { name: 'Accept All' }).click();
    const form = page.locator('form[data-form="contact"]');
    await form.getByRole('textbox').first().focus();
    await page.locator('[data-island="contact-form"][data-state="ready"]').waitFor({ state: 'attached' });
    const values = { name: 'Morag Campbell', email: uniqueAddress('consented'), company: 'Tayside Widgets Ltd', message: 'Analytics accepted.' };
    await fillContact(form, values);
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.waitForURL(`${env.site.url}/thank-you`);
    const events = JSON.parse(await page.evaluate(() => sessionStorage.getItem('events') ?? '[]')) as Array<Record<string, unknown>>;
    expect(events).toContainEqual({ event: 'form_submit', form_name: 'contact', email: values.email, organisation: values.company });
    await context.close();
  });

  it('on a service page: the embedded form wakes when scrolled to and sends too', async () => {
    const page = await openForm(`${env.site.url}/services/data-cleaning`, 'contact-form');
    const form = page.locator('#service-contact form');
    const values = { name: 'Iain Fraser', email: uniqueAddress('iain'), company: 'Fife Foods', message: 'We have three customer lists.' };
    await fillContact(form, values);
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.waitForURL(`${env.site.url}/thank-you`);
    const mail = await emailFrom(values.email);
    expect(mail.subject).toBe('Contact form: Iain Fraser (Fife Foods)');
    expect(mail.body.text).toContain('We have three customer lists.');
    await page.close();
  });

  it('shows each validation message under its field, in red, focuses the first invalid field and sends nothing', async () => {
    const page = await openForm(`${env.site.url}/contact`, 'contact-form');
    const endpoint = await watchEndpoint(page);
    const form = page.locator('form[data-form="contact"]');
    const name = form.getByRole('textbox', { name: 'Name' });
    const email = form.getByRole('textbox', { name: 'Email' });
    const message = form.getByRole('textbox', { name: 'How can we help?' });
    const human = form.getByRole('checkbox', { name: /I confirm I am a human/ });
    const send = form.getByRole('button', { name: 'Send Message' });

    await send.click();
    expect(await focusedName(page)).toBe('name');
    expect(await describedError(name)).toEqual({ invalid: 'true', message: 'Name is required' });
    expect(await describedError(email)).toEqual({ invalid: 'true', message: 'Email is required' });
    expect(await describedError(message)).toEqual({ invalid: 'true', message: 'Message is required' });
    expect(await describedError(human)).toEqual({ invalid: 'true', message: 'Please confirm you are human' });
    expect(await describedError(form.getByRole('textbox', { name: /^Organisation/ }))).toEqual({ invalid: null, message: null });
    // Red text under the field; the polite summary names the four fields.
    const colour = await form.locator('#contact-name-error').evaluate((el) => getComputedStyle(el).color);
    expect(colour).toMatch(/^rgb\((1[5-9]\d|2\d\d), \d{1,2}, \d{1,2}\)$/);
    expect(await form.getByRole('status').textContent()).toBe('4 fields need attention: Name, Email, Message, Human confirmation.');
    expect(await axe(page, 'form[data-form="contact"]')).toEqual([]);

    await name.fill('Morag');
    expect(await describedError(name)).toEqual({ invalid: null, message: null });
    await email.fill('morag@example');
    await message.fill('Hello');
    await human.check();
    await send.click();
    expect(await focusedName(page)).toBe('email');
    expect(await describedError(email)).toEqual({ invalid: 'true', message: 'Email is invalid' });
    expect(await form.locator('[aria-invalid="true"]').count()).toBe(1);
    expect(endpoint.posts).toBe(0);
    await page.close();
  });

  it('refuses an e-mail address holding a direction override as invalid, in the browser, and sends nothing (never a cleaned address)', async () => {
    const page = await openForm(`${env.site.url}/contact`, 'contact-form');
    const endpoint = await watchEndpoint(page);
    const form = page.locator('form[data-form="contact"]');
    await fillContact(form, { name: 'Morag Campbell', email: 'morag\u202e@example.co.uk', company: '', message: 'Hello' });
    await form.getByRole('button', { name: 'Send Message' }).click();
    expect(await describedError(form.getByRole('textbox', { name: 'Email' }))).toEqual({ invalid: 'true', message: 'Email is invalid' });
    expect(endpoint.posts).toBe(0);
    await page.close();
  });

  it('keeps what was typed before the island woke', async () => {
    const page = await env.browser.newPage({ viewport: DESKTOP });
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    await page.route(/\/assets\/contact-form-[^/]+\.js$/, async (route) => { await held; await route.continue(); });
    await page.goto(`${env.site.url}/contact`);
    const form = page.locator('form[data-form="contact"]');
    await form.getByRole('textbox', { name: 'Name' }).fill('Typed early');
    await form.getByRole('textbox', { name: 'How can we help?' }).fill('Before hydration');
    release();
    await page.locator('[data-island="contact-form"][data-state="ready"]').waitFor({ state: 'attached' });
    expect(await form.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Typed early');
    expect(await form.getByRole('textbox', { name: 'How can we help?' }).inputValue()).toBe('Before hydration');
    // And the island, not a plain post, now answers the submit.
    await form.getByRole('button', { name: 'Send Message' }).click();
    expect(await describedError(form.getByRole('textbox', { name: 'Email' }))).toEqual({ invalid: 'true', message: 'Email is required' });
    expect(page.url()).toBe(`${env.site.url}/contact`);
    await page.close();
  });

  it("shows the handler's field messages from a 400 like its own", async () => {
    const page = await openForm(`${env.site.url}/contact`, 'contact-form');
    await page.route('**/api/send-contact-form', (route) => route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ ok: false, errors: { email: 'Email is invalid' } }) }));
    const form = page.locator('form[data-form="contact"]');
    await fillContact(form, { name: 'Morag', email: uniqueAddress('refused'), company: '', message: 'Hello' });
    await form.getByRole('button', { name: 'Send Message' }).click();
    await form.locator('[aria-invalid="true"]').waitFor();
    expect(await describedError(form.getByRole('textbox', { name: 'Email' }))).toEqual({ invalid: 'true', message: 'Email is invalid' });
    expect(await focusedName(page)).toBe('email');
    expect(await form.getByRole('button', { name: 'Send Message' }).isEnabled()).toBe(true);
    await page.close();
  });

  describe('with a tag manager running', () => {
    /** A stand-in for a loaded tag manager (the build has no container id, so none loads): it never calls back by itself. */
    const withTagManager = async (page: Page) => {
      await controlTime(page);
      await page.addInitScript(() => { (window as unknown as { google_tag_manager: object }).google_tag_manager = {}; });
    };

    /** Sends a valid message with the page's clock stopped; resolves with the form_submit event once it is in the data layer. */
    async function sendWithClockStopped(page: Page, who: string) {
      const form = page.locator('form[data-form="contact"]');
      await fillContact(form, { name: 'Morag Campbell', email: uniqueAddress(who), company: 'Tayside Widgets Ltd', message: 'Is the tag manager waited for?' });
      await stopClock(page);
      await form.getByRole('button', { name: 'Send Message' }).click();
      const submitted = () => page.evaluate(() => {
        const event = (window as unknown as { dataLayer: Array<Record<string, unknown>> }).dataLayer.find((e) => e && e.event === 'form_submit');
        return event ? { eventTimeout: event.eventTimeout, hasCallback: typeof event.eventCallback === 'function' } : undefined;
      });
      await expect.poll(submitted).toBeDefined();
      return (await submitted())!;
    }

    it('goes to /thank-you when the tag manager says its tags have fired, and not before', async () => {
      const page = await openForm(`${env.site.url}/contact`, 'contact-form', DESKTOP, withTagManager);
      expect(await sendWithClockStopped(page, 'gtm-callback')).toEqual({ eventTimeout: 2000, hasCallback: true });
      await page.clock.runFor(1500);
      expect(await navigatedTo(page)).toEqual([]);
      await page.evaluate(() => {
        const event = (window as unknown as { dataLayer: Array<Record<string, unknown>> }).dataLayer.find((e) => e && e.event === 'form_submit')!;
        (event.eventCallback as () => void)();
      });
      await page.waitForURL(`${env.site.url}/thank-you`);
      await page.close();
    });

    it('gives up on a tag manager that never calls back after exactly 2000 ms', async () => {
      const page = await openForm(`${env.site.url}/contact`, 'contact-form', DESKTOP, withTagManager);
      await sendWithClockStopped(page, 'gtm-silent');
      await page.clock.runFor(1999);
      expect(await navigatedTo(page)).toEqual([]);
      expect(page.url()).toBe(`${env.site.url}/contact`);
      await page.clock.runFor(1);
      await page.waitForURL(`${env.site.url}/thank-you`);
      await page.close();
    });
  });

  it('keeps its size when it hydrates (no layout shift)', async () => {
    const plain = await env.browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    const still = await plain.newPage();
    await still.goto(`${env.site.url}/contact`);
    const before = (await still.locator('form[data-form="contact"]').boundingBox())!;
    const page = await openForm(`${env.site.url}/contact`, 'contact-form', PHONE);
    const after = (await page.locator('form[data-form="contact"]').boundingBox())!;
    expect({ width: after.width, height: after.height }).toEqual({ width: before.width, height: before.height });
    await plain.close();
    await page.close();
  });
});

describe('assessment form', () => {
  it("shows 'Submitting...' with a spinner, then the toast, clears the fields and goes to / 3 s after the toast", async () => {
    const page = await openForm(`${env.site.url}/dialog-assessment`, 'assessment-form', DESKTOP, controlTime);
    const seen = collectConsole(page);
    const endpoint = await watchEndpoint(page, { hold: true });
    const form = page.locator('form[data-form="assessment"]');
    const address = uniqueAddress('eilidh');
    await answerAll(form);
    await form.getByRole('textbox', { name: 'Name' }).fill('Eilidh Ross');
    await form.getByRole('textbox', { name: 'Email' }).fill(address);
    await form.getByRole('textbox', { name: /^Organisation/ }).fill('Highland Care');
    await form.getByRole('textbox', { name: /^Comments/ }).fill('Keen to start.');
    await form.getByRole('checkbox', { name: /I confirm I am a human/ }).check();
    // The page's time stands still from here: however long the test takes to look, the 3 s are the page's.
    await stopClock(page);
    await form.getByRole('button', { name: 'Submit Assessment' }).click();

    const busy = form.getByRole('button', { name: 'Submitting...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    expect(await busy.locator('svg[aria-hidden="true"]').count()).toBe(1);
    expect(await form.getAttribute('aria-busy')).toBe('true');
    endpoint.release();

    const toast = page.getByRole('region', { name: 'Notifications' }).locator('.toast');
    await toast.waitFor();
    expect(await toast.locator('.toast__title').textContent()).toBe('Assessment Submitted!');
    expect(await toast.locator('.toast__text').textContent()).toBe("Thanks! Your organisation details have been sent. We'll be in touch soon.");
    for (const q of ASSESSMENT_QUESTIONS) expect(await form.getByRole('combobox', { name: q.question }).inputValue()).toBe('unanswered');
    for (const box of ['Name', 'Email']) expect(await form.getByRole('textbox', { name: box }).inputValue()).toBe('');
    expect(await form.getByRole('textbox', { name: /^Comments/ }).inputValue()).toBe('');
    expect(await form.getByRole('checkbox', { name: /I confirm I am a human/ }).isChecked()).toBe(false);
    expect(await form.getAttribute('aria-busy')).toBeNull();

    // 3 seconds after the success toast, the page goes to / (docs/product-rules.md, 'After sending'); not a millisecond before.
    await page.clock.runFor(2999);
    expect(await navigatedTo(page)).toEqual([]);
    expect(await toast.isVisible()).toBe(true);
    await page.clock.runFor(1);
    await page.waitForURL(`${env.site.url}/`);

    const mail = await emailFrom(address);
    expect(mail.subject).toContain('Eilidh Ross (Highland Care)');
    for (const [i, q] of ASSESSMENT_QUESTIONS.entries()) expect(mail.body.text).toContain(`${q.question}: ${q.options[i % q.options.length]!.label}`);
    expect(mail.body.text).toContain('Keen to start.');
    expect(seen.errors).toEqual([]);
    expect(seen.messages.filter((m) => m.includes('[island'))).toEqual([]);
    await page.close();
  });

  it("asks for an option under each dropdown and checks the contact fields with the same messages, sending nothing", async () => {
    const page = await openForm(`${env.site.url}/dialog-assessment`, 'assessment-form');
    const endpoint = await watchEndpoint(page);
    const form = page.locator('form[data-form="assessment"]');
    const submit = form.getByRole('button', { name: 'Submit Assessment' });
    await submit.click();
    expect(await focusedName(page)).toBe(ASSESSMENT_QUESTIONS[0]!.field);
    for (const q of ASSESSMENT_QUESTIONS) {
      expect(await describedError(form.getByRole('combobox', { name: q.question })), q.field).toEqual({ invalid: 'true', message: 'Please select an option' });
    }
    expect(await describedError(form.getByRole('textbox', { name: 'Name' }))).toEqual({ invalid: 'true', message: 'Name is required' });
    expect(await describedError(form.getByRole('textbox', { name: 'Email' }))).toEqual({ invalid: 'true', message: 'Email is required' });
    expect(await describedError(form.getByRole('checkbox', { name: /I confirm I am a human/ }))).toEqual({ invalid: 'true', message: 'Please confirm you are human' });
    // Comments are optional here.
    expect(await describedError(form.getByRole('textbox', { name: /^Comments/ }))).toEqual({ invalid: null, message: null });
    expect(await axe(page, 'form[data-form="assessment"]')).toEqual([]);

    await answerAll(form);
    expect(await form.locator('select[aria-invalid="true"]').count()).toBe(0);
    await form.getByRole('textbox', { name: 'Name' }).fill('Eilidh');
    await form.getByRole('textbox', { name: 'Email' }).fill('eilidh@');
    await form.getByRole('checkbox', { name: /I confirm I am a human/ }).check();
    await submit.click();
    expect(await focusedName(page)).toBe('email');
    expect(await describedError(form.getByRole('textbox', { name: 'Email' }))).toEqual({ invalid: 'true', message: 'Email is invalid' });
    expect(endpoint.posts).toBe(0);
    await page.close();
  });
});

// The lead store and the mail server both stopped: nothing can be stored, so the handler answers
// 503 (store first) and the island keeps the visitor's input and its submissionId for a retry.
describe('when the form backend is down', () => {
  let down: Site;
  beforeAll(async () => {
    down = await startSite({ forms: true });
    await down.forms!.close();
  });
  afterAll(async () => { await down?.close(); });

  async function expectErrorToast(page: Page, text: string) {
    const toast = page.getByRole('alert');
    await toast.waitFor();
    expect(await toast.locator('.toast__title').textContent()).toBe('Error');
    expect(await toast.locator('.toast__text').textContent()).toBe(text);
  }

  it('the contact form shows the error toast, keeps every value, and retries with the same submissionId', async () => {
    const page = await openForm(`${down.url}/contact`, 'contact-form');
    const seen = collectConsole(page);
    const form = page.locator('form[data-form="contact"]');
    const values = { name: 'Morag Campbell', email: uniqueAddress('down'), company: 'Tayside Widgets Ltd', message: 'Still there?' };
    await fillContact(form, values);
    const submit = async () => {
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/send-contact-form')),
        form.getByRole('button', { name: 'Send Message' }).click(),
      ]);
      return response;
    };
    const response = await submit();
    expect(response.status()).toBe(503);
    expect(response.headers()['retry-after']).toBe('10');
    const firstId = (JSON.parse(response.request().postData() ?? '{}') as { submissionId?: string }).submissionId;
    expect(firstId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await expectErrorToast(page, 'Failed to send your message. Please try again.');
    expect(await form.getByRole('button', { name: 'Send Message' }).isEnabled()).toBe(true);
    expect(await form.getByRole('textbox', { name: 'Name' }).inputValue()).toBe(values.name);
    expect(await form.getByRole('textbox', { name: 'Email' }).inputValue()).toBe(values.email);
    expect(await form.getByRole('textbox', { name: /^Organisation/ }).inputValue()).toBe(values.company);
    expect(await form.getByRole('textbox', { name: 'How can we help?' }).inputValue()).toBe(values.message);
    expect(await form.getByRole('checkbox', { name: /I confirm I am a human/ }).isChecked()).toBe(true);
    expect(seen.errors.some((e) => e.startsWith('Failed to send message'))).toBe(true);
    expect(page.url()).toBe(`${down.url}/contact`);
    // A second try is the same lead: the handler will store and mail it once, however many tries reach it.
    // (Sent while the first toast still shows: the click waits by itself should the toast cover the button.)
    const retry = await submit();
    expect((JSON.parse(retry.request().postData() ?? '{}') as { submissionId?: string }).submissionId).toBe(firstId);
    expect(await form.getByRole('textbox', { name: 'How can we help?' }).inputValue()).toBe(values.message);
    await page.close();
  });

  it('the assessment shows its error toast and keeps the answers', async () => {
    const page = await openForm(`${down.url}/dialog-assessment`, 'assessment-form');
    const seen = collectConsole(page);
    const form = page.locator('form[data-form="assessment"]');
    await answerAll(form);
    await form.getByRole('textbox', { name: 'Name' }).fill('Eilidh Ross');
    await form.getByRole('textbox', { name: 'Email' }).fill(uniqueAddress('down'));
    await form.getByRole('checkbox', { name: /I confirm I am a human/ }).check();
    await form.getByRole('button', { name: 'Submit Assessment' }).click();
    await expectErrorToast(page, 'Failed to send your assessment. Please try again.');
    expect(await form.getByRole('button', { name: 'Submit Assessment' }).isEnabled()).toBe(true);
    for (const [i, q] of ASSESSMENT_QUESTIONS.entries()) expect(await form.getByRole('combobox', { name: q.question }).inputValue()).toBe(q.options[i % q.options.length]!.code);
    expect(await form.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Eilidh Ross');
    expect(seen.errors.some((e) => e.startsWith('Failed to send message'))).toBe(true);
    await page.close();
  });
});

// The production volume limits on: after five posts from this address in ten minutes, the handler
// answers 429, stores and sends nothing, and the page says so with every value kept for later.
describe('past the limit of posts from one address', () => {
  let limited: Site;
  beforeAll(async () => { limited = await startSite({ forms: true, limits: true }); });
  afterAll(async () => { await limited?.close(); });

  it('shows the error toast, keeps every value, and nothing is stored or sent', async () => {
    // Real leads from this machine's address (127.0.0.1), as a flood script would send them, until
    // the handler says no: five, or up to ten should a ten-minute window turn over meanwhile.
    const statuses: number[] = [];
    for (let i = 0; i < 2 * VOLUME_LIMITS.perAddress.max + 1 && statuses.at(-1) !== 429; i += 1) {
      const answer = await fetch(`${limited.url}/api/send-contact-form`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: limited.url },
        body: JSON.stringify({ name: `Flood ${i}`, email: uniqueAddress('flood'), message: 'Buy now', isHuman: true }),
      });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, VOLUME_LIMITS.perAddress.max)).toEqual(Array(VOLUME_LIMITS.perAddress.max).fill(200));
    expect(statuses.at(-1)).toBe(429);
    const page = await openForm(`${limited.url}/contact`, 'contact-form');
    const form = page.locator('form[data-form="contact"]');
    const values = { name: 'Morag Campbell', email: uniqueAddress('limited'), company: 'Tayside Widgets Ltd', message: 'A real enquiry, after the flood.' };
    await fillContact(form, values);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/send-contact-form')),
      form.getByRole('button', { name: 'Send Message' }).click(),
    ]);
    expect(response.status()).toBe(429);
    expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
    const toast = page.getByRole('alert');
    await toast.waitFor();
    expect(await toast.locator('.toast__text').textContent()).toBe('Failed to send your message. Please try again.');
    expect(await form.getByRole('textbox', { name: 'Name' }).inputValue()).toBe(values.name);
    expect(await form.getByRole('textbox', { name: 'Email' }).inputValue()).toBe(values.email);
    expect(await form.getByRole('textbox', { name: 'How can we help?' }).inputValue()).toBe(values.message);
    expect(page.url()).toBe(`${limited.url}/contact`);
    const store = (await (await fetch(`${limited.forms!.sesEndpoint}/store`)).json()) as { emails: StoredEmail[] };
    expect(store.emails.filter((e) => e.replyTo.includes(values.email))).toHaveLength(0);
    await page.close();
  });
});

describe('without JavaScript', () => {
  let context: BrowserContext;
  beforeAll(async () => { context = await env.browser.newContext({ javaScriptEnabled: false, viewport: DESKTOP }); });
  afterAll(async () => { await context?.close(); });

  it('the contact form posts, the handler redirects to /thank-you, and the e-mail is sent', async () => {
    const page = await context.newPage();
    await page.goto(`${env.site.url}/contact`);
    const form = page.locator('form[data-form="contact"]');
    const address = uniqueAddress('nojs');
    await fillContact(form, { name: 'Callum Reid', email: address, company: 'Angus Arts', message: 'No script here.' });
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/send-contact-form')),
      form.getByRole('button', { name: 'Send Message' }).click(),
    ]);
    expect(response.status()).toBe(303);
    await page.waitForURL(`${env.site.url}/thank-you`);
    const mail = await emailFrom(address);
    expect(mail.subject).toBe('Contact form: Callum Reid (Angus Arts)');
    expect(mail.body.text).toContain('No script here.');
    await page.close();
  });

  it('takes a 5,000-character message in Chinese, 45 KB as the browser encodes the post, and mails it as typed', async () => {
    const page = await context.newPage();
    await page.goto(`${env.site.url}/contact`);
    const form = page.locator('form[data-form="contact"]');
    const address = uniqueAddress('nojs-cjk');
    const message = Array.from({ length: 5000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7) % 20000))).join('');
    await fillContact(form, { name: '王小明', email: address, company: '', message });
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/send-contact-form')),
      form.getByRole('button', { name: 'Send Message' }).click(),
    ]);
    expect(Buffer.byteLength(request.postData() ?? '')).toBeGreaterThan(45_000);
    await page.waitForURL(`${env.site.url}/thank-you`);
    const mail = await emailFrom(address);
    expect(mail.body.text).toContain(message);
    await page.close();
  });

  it('the assessment posts its answers and lands on /thank-you', async () => {
    const page = await context.newPage();
    await page.goto(`${env.site.url}/dialog-assessment`);
    const form = page.locator('form[data-form="assessment"]');
    const address = uniqueAddress('nojs-assessment');
    await answerAll(form);
    await form.getByRole('textbox', { name: 'Name' }).fill('Callum Reid');
    await form.getByRole('textbox', { name: 'Email' }).fill(address);
    await form.getByRole('checkbox', { name: /I confirm I am a human/ }).check();
    await form.getByRole('button', { name: 'Submit Assessment' }).click();
    await page.waitForURL(`${env.site.url}/thank-you`);
    const mail = await emailFrom(address);
    expect(mail.body.text).toContain(`${ASSESSMENT_QUESTIONS[0]!.question}: ${ASSESSMENT_QUESTIONS[0]!.options[0]!.label}`);
    await page.close();
  });

  it('an invalid post gets the handler’s page listing each problem, with a way back, and no e-mail', async () => {
    const page = await context.newPage();
    await page.goto(`${env.site.url}/contact`);
    const form = page.locator('form[data-form="contact"]');
    const address = 'not-an-address';
    await form.getByRole('textbox', { name: 'Email' }).fill(address);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/send-contact-form')),
      form.getByRole('button', { name: 'Send Message' }).click(),
    ]);
    expect(response.status()).toBe(400);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('There is a problem with the form');
    const problems = await page.getByRole('listitem').allTextContents();
    expect(problems).toEqual(expect.arrayContaining(['Name: Name is required', 'Email: Email is invalid', 'Message: Message is required', 'Human confirmation: Please confirm you are human']));
    await page.getByRole('link', { name: 'Go back to the form' }).click();
    await page.waitForURL(`${env.site.url}/contact`);
    expect(await emailsFrom(address)).toBe(0);
    await page.close();
  });
});
