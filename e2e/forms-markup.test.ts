// The server-rendered forms, read with JavaScript off: complete, labelled, posting to the endpoint.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { ASSESSMENT_QUESTIONS } from '../forms/assessment.ts';
import { ASSESSMENT_TEXT_FIELDS, CONTACT_TEXT_FIELDS, HONEYPOT_FIELD, controlType, type TextFieldDefinition } from '../forms/fields.ts';
import { DESKTOP, useSiteAndBrowser } from './helpers.ts';

const env = useSiteAndBrowser();

async function open(path: string): Promise<Page> {
  const page = await env.readingPage(DESKTOP, { javaScriptEnabled: false });
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

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Each text field of a form's definition (forms/fields.ts) as the page ships it: a textbox labelled
 * with the field's label (or the words the page asks in, `asked`), with its name, type, limit,
 * autocomplete and required state.
 */
async function expectTextFields(form: Locator, fields: readonly TextFieldDefinition[], asked: Record<string, string> = {}) {
  for (const field of fields) {
    const control = form.getByRole('textbox', { name: new RegExp(`^${escape(asked[field.name] ?? field.label)}`) });
    const type = controlType(field);
    expect(await control.evaluate((el) => el.tagName), field.name).toBe(type === 'textarea' ? 'TEXTAREA' : 'INPUT');
    expect(await attrs(control, ['name', 'type', 'maxlength', 'autocomplete']), field.name).toEqual({
      name: field.name, type: type === 'textarea' ? null : type, maxlength: String(field.max), autocomplete: field.autoComplete ?? null,
    });
    expect(await control.evaluate((el: HTMLInputElement) => el.required), field.name).toBe(field.required);
  }
}

/** The contact fields every contact form shares (the /contact page and the service pages). */
async function expectContactFields(form: Locator) {
  expect(await attrs(form, ['method', 'action', 'novalidate'])).toEqual({ method: 'post', action: '/api/send-contact-form', novalidate: '' });
  await expectTextFields(form, CONTACT_TEXT_FIELDS, { message: 'How can we help?' });

  const human = form.getByRole('checkbox', { name: /I confirm I am a human/ });
  expect(await attrs(human, ['name', 'value'])).toEqual({ name: 'isHuman', value: 'true' });
  expect(await human.evaluate((el: HTMLInputElement) => el.required)).toBe(true);
  expect(await form.locator(`label[for="${await human.getAttribute('id')}"] a`).getAttribute('href')).toBe('/privacy-policy');

  // Required fields (and the checkbox) carry an asterisk that assistive technology does not read.
  expect(await form.locator('.field__required[aria-hidden="true"]').count()).toBe(CONTACT_TEXT_FIELDS.filter((f) => f.required).length + 1);

  expect(await form.getByRole('button', { name: 'Send Message' }).getAttribute('type')).toBe('submit');
  expect(await form.locator('[name="formType"]').count()).toBe(0);
  await expectHoneypot(form);
  await expectErrorSlots(form, [...CONTACT_TEXT_FIELDS.map((f) => f.name), 'isHuman']);
}

/** The spam trap: present for software, absent for people, assistive technology and autofill (it has no box, so it cannot take focus). */
async function expectHoneypot(form: Locator) {
  const trap = form.locator(`input[name="${HONEYPOT_FIELD}"]`);
  expect(await trap.count()).toBe(1);
  expect(await attrs(trap, ['tabindex', 'autocomplete', 'type'])).toEqual({ tabindex: '-1', autocomplete: 'off', type: 'text' });
  expect(await trap.evaluate((el) => !!el.closest('[hidden]'))).toBe(true);
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
    await expectTextFields(contact, ASSESSMENT_TEXT_FIELDS);
    expect(await contact.getByRole('checkbox', { name: /I confirm I am a human/ }).getAttribute('name')).toBe('isHuman');
    expect(await form.locator('input[type="hidden"][name="formType"]').getAttribute('value')).toBe('DIAlog Assessment');
    expect(await form.getByRole('button', { name: 'Submit Assessment' }).getAttribute('type')).toBe('submit');
    await expectHoneypot(form);
    await expectErrorSlots(form, [...ASSESSMENT_TEXT_FIELDS.map((f) => f.name), 'isHuman', ...ASSESSMENT_QUESTIONS.map((q) => q.field)]);
    await page.close();
  });
});
