// The server-rendered forms, read with JavaScript off: complete, labelled, posting to the endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ASSESSMENT_QUESTIONS } from '../forms/assessment.ts';
import { HONEYPOT_FIELD, MAX_LENGTHS } from '../forms/fields.ts';
import { DESKTOP, useSiteAndBrowser } from './helpers.ts';

const env = useSiteAndBrowser();
let context: BrowserContext;

beforeAll(async () => {
  context = await env.browser.newContext({ javaScriptEnabled: false, viewport: DESKTOP });
});
afterAll(async () => {
  await context?.close();
});

async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  const res = await page.goto(`${env.site.url}${path}`);
  expect(res?.status(), path).toBe(200);
  return page;
}

async function attrs(field: Locator, names: string[]) {
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await field.getAttribute(n)] as const)));
}

/** Every id on the page, and those that occur more than once. */
async function duplicateIds(page: Page): Promise<string[]> {
  const ids = await page.locator('[id]').evaluateAll((els) => els.map((e) => e.id));
  return ids.filter((id, i) => ids.indexOf(id) !== i);
}

/** The contact fields every contact form shares (the /contact page and the service pages). */
async function expectContactFields(form: Locator) {
  expect(await attrs(form, ['method', 'action', 'novalidate'])).toEqual({ method: 'post', action: '/api/send-contact-form', novalidate: '' });

  const name = form.getByRole('textbox', { name: 'Name' });
  expect(await attrs(name, ['name', 'type', 'autocomplete', 'maxlength'])).toEqual({ name: 'name', type: 'text', autocomplete: 'name', maxlength: String(MAX_LENGTHS.name) });
  expect(await name.evaluate((el: HTMLInputElement) => el.required)).toBe(true);

  const email = form.getByRole('textbox', { name: 'Email' });
  expect(await attrs(email, ['name', 'type', 'autocomplete', 'maxlength'])).toEqual({ name: 'email', type: 'email', autocomplete: 'email', maxlength: String(MAX_LENGTHS.email) });
  expect(await email.evaluate((el: HTMLInputElement) => el.required)).toBe(true);

  const organisation = form.getByRole('textbox', { name: /^Organisation/ });
  expect(await attrs(organisation, ['name', 'autocomplete', 'maxlength'])).toEqual({ name: 'company', autocomplete: 'organization', maxlength: String(MAX_LENGTHS.company) });
  expect(await organisation.evaluate((el: HTMLInputElement) => el.required)).toBe(false);

  const message = form.getByRole('textbox', { name: 'How can we help?' });
  expect(await message.evaluate((el) => el.tagName)).toBe('TEXTAREA');
  expect(await attrs(message, ['name', 'maxlength'])).toEqual({ name: 'message', maxlength: String(MAX_LENGTHS.message) });
  expect(await message.evaluate((el: HTMLTextAreaElement) => el.required)).toBe(true);

  const human = form.getByRole('checkbox', { name: /I confirm I am a human/ });
  expect(await attrs(human, ['name', 'value'])).toEqual({ name: 'isHuman', value: 'true' });
  expect(await human.evaluate((el: HTMLInputElement) => el.required)).toBe(true);
  expect(await form.locator(`label[for="${await human.getAttribute('id')}"] a`).getAttribute('href')).toBe('/privacy-policy');

  // Required fields carry an asterisk that assistive technology does not read.
  expect(await form.locator('.field__required[aria-hidden="true"]').count()).toBe(4);

  expect(await form.getByRole('button', { name: 'Send Message' }).getAttribute('type')).toBe('submit');
  expect(await form.locator('[name="formType"]').count()).toBe(0);
  await expectHoneypot(form);
  await expectErrorSlots(form, ['name', 'email', 'company', 'message', 'isHuman']);
}

/** The spam trap: present for software, absent for people, assistive technology and autofill (it has no box, so it cannot take focus). */
async function expectHoneypot(form: Locator) {
  const trap = form.locator(`input[name="${HONEYPOT_FIELD}"]`);
  expect(await trap.count()).toBe(1);
  expect(await attrs(trap, ['tabindex', 'autocomplete', 'type'])).toEqual({ tabindex: '-1', autocomplete: 'off', type: 'text' });
  expect(await trap.evaluate((el) => !!el.closest('[hidden][aria-hidden="true"]'))).toBe(true);
  expect(await form.getByRole('textbox', { name: /leave this field/i }).count()).toBe(0);
  expect(await trap.boundingBox()).toBeNull();
}

/** Each field has an empty, hidden error slot named after it, not yet referenced by the field. */
async function expectErrorSlots(form: Locator, fields: string[]) {
  for (const field of fields) {
    const control = form.locator(`[name="${field}"]`);
    const id = await control.getAttribute('id');
    const slot = form.locator(`[id="${id}-error"]`);
    expect(await slot.count(), field).toBe(1);
    expect(await slot.evaluate((el) => (el as HTMLElement).hidden && el.textContent === ''), field).toBe(true);
    expect(await control.getAttribute('aria-describedby'), field).toBeNull();
    expect(await control.getAttribute('aria-invalid'), field).toBeNull();
  }
}

describe('contact page', () => {
  it('has the hero, the form and, beside it, the office, e-mail and hours', async () => {
    const page = await open('/contact');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    const section = page.getByRole('region', { name: 'Send us a message' });
    await expectContactFields(section.locator('form'));
    const aside = section.getByRole('complementary');
    await expect(aside.textContent()).resolves.toContain('Dundee, United Kingdom');
    await expect(aside.textContent()).resolves.toContain('Monday to Friday, 9am to 5:30pm');
    expect(await aside.getByRole('link', { name: 'hello@example.com' }).getAttribute('href')).toBe('mailto:hello@example.com');
    expect(await duplicateIds(page)).toEqual([]);
    await page.close();
  });
});

describe('embedded contact form', () => {
  it('appears on a service page as "Get in Touch", without the aside, with unique ids', async () => {
    const page = await open('/services/data-cleaning');
    const section = page.getByRole('region', { name: 'Get in Touch' });
    await expectContactFields(section.locator('form'));
    expect(await section.getByRole('complementary').count()).toBe(0);
    expect(await duplicateIds(page)).toEqual([]);
    await page.close();
  });
});

describe('DIAlog assessment page', () => {
  it('is titled, states limited availability and has both sections', async () => {
    const page = await open('/dialog-assessment');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('DIAlog Assessment');
    await expect(page.locator('.page-hero').textContent()).resolves.toMatch(/limited/i);
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(expect.arrayContaining(['Assessment Questions', 'Your Contact Information']));
    expect(await duplicateIds(page)).toEqual([]);
    await page.close();
  });

  it('asks the six questions as dropdowns with a non-empty prompt first and every coded option', async () => {
    const page = await open('/dialog-assessment');
    const questions = page.getByRole('region', { name: 'Assessment Questions' });
    expect(await questions.getByRole('combobox').count()).toBe(6);
    for (const q of ASSESSMENT_QUESTIONS) {
      const select = questions.getByRole('combobox', { name: q.question });
      expect(await attrs(select, ['name', 'aria-required', 'required'])).toEqual({ name: q.field, 'aria-required': 'true', required: null });
      const options = await select.locator('option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
      expect(options).toEqual([['unanswered', q.placeholder], ...q.options.map((o) => [o.code, o.label])]);
      expect(await select.inputValue()).toBe('unanswered');
    }
    expect(await page.locator('option[value=""]').count()).toBe(0);
    await page.close();
  });

  it('collects the contact details, the form type and posts to the endpoint', async () => {
    const page = await open('/dialog-assessment');
    const form = page.locator('form[data-form="assessment"]');
    expect(await attrs(form, ['method', 'action', 'novalidate'])).toEqual({ method: 'post', action: '/api/send-contact-form', novalidate: '' });
    const contact = page.getByRole('region', { name: 'Your Contact Information' });
    expect(await contact.getByRole('textbox', { name: 'Name' }).evaluate((el: HTMLInputElement) => el.required)).toBe(true);
    expect(await contact.getByRole('textbox', { name: 'Email' }).getAttribute('type')).toBe('email');
    expect(await contact.getByRole('textbox', { name: /^Organisation/ }).evaluate((el: HTMLInputElement) => el.required)).toBe(false);
    const comments = contact.getByRole('textbox', { name: /^Comments/ });
    expect(await attrs(comments, ['name'])).toEqual({ name: 'message' });
    expect(await comments.evaluate((el: HTMLTextAreaElement) => el.required)).toBe(false);
    expect(await contact.getByRole('checkbox', { name: /I confirm I am a human/ }).getAttribute('name')).toBe('isHuman');
    expect(await form.locator('input[type="hidden"][name="formType"]').getAttribute('value')).toBe('DIAlog Assessment');
    expect(await form.getByRole('button', { name: 'Submit Assessment' }).getAttribute('type')).toBe('submit');
    await expectHoneypot(form);
    await expectErrorSlots(form, ['name', 'email', 'company', 'message', 'isHuman', ...ASSESSMENT_QUESTIONS.map((q) => q.field)]);
    await page.close();
  });
});
