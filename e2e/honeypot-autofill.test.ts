// The forms' honeypot against Chromium's own autofill. Chromium fills a form through DevTools'
// Autofill.trigger with the same code as a fill the visitor picks from its drop-down: its
// heuristics read each field's name, id, label and autocomplete attribute, and it fills every
// field it maps and can focus. Here it fills the contact form from a saved address holding every
// kind of detail it keeps; the honeypot must stay empty, and the lead must go out as a person's.
// Two controls show what keeps it out. A field hidden the old way (a 1-pixel box, autocomplete="off",
// named as an address line) is filled by the same fill; the honeypot's own wrapper around a field
// of that name is not: the hiding alone keeps autofill out, before the name does.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HONEYPOT_FIELD } from '../forms/fields.ts';
import { useSiteAndBrowser } from './helpers.ts';

const env = useSiteAndBrowser({ forms: true });

let counter = 0;

/** A saved address as Chromium's autofill holds one (its field types), every kind of detail filled in. */
function savedAddress(email: string) {
  return Object.entries({
    NAME_FULL: 'Morag Campbell', NAME_FIRST: 'Morag', NAME_LAST: 'Campbell', EMAIL_ADDRESS: email,
    COMPANY_NAME: 'Tayside Widgets Ltd', ADDRESS_HOME_LINE1: '1 High Street', ADDRESS_HOME_LINE2: 'Flat 2',
    ADDRESS_HOME_STREET_ADDRESS: '1 High Street\nFlat 2', ADDRESS_HOME_CITY: 'Dundee', ADDRESS_HOME_STATE: 'Angus',
    ADDRESS_HOME_ZIP: 'DD1 1AA', ADDRESS_HOME_COUNTRY: 'GB', PHONE_HOME_WHOLE_NUMBER: '+441382000000',
  }).map(([name, value]) => ({ name, value }));
}

/** Asks Chromium's autofill to fill the form that holds `selector` from `address`; answers the fields it says it filled. */
async function autofill(page: Page, selector: string, address: { name: string; value: string }[]): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const filled: string[] = [];
  cdp.on('Autofill.addressFormFilled', (event) => { for (const f of event.filledFields) if (f.value) filled.push(f.name); });
  await cdp.send('Autofill.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { node } = await cdp.send('DOM.describeNode', { nodeId });
  await cdp.send('Autofill.trigger', { fieldId: node.backendNodeId, address: { fields: address } });
  // Chromium answers with an event when it has filled the form: waited for, not timed.
  await expect.poll(() => filled.length).toBeGreaterThan(0);
  await cdp.detach();
  return filled;
}

/**
 * The two controls, both named as an address line: a field hidden as the honeypot once was (a
 * 1-pixel box, autocomplete="off", out of the tab order), and a copy of the honeypot's own wrapper.
 */
async function addControls(page: Page): Promise<void> {
  await page.locator('form[data-form="contact"]').evaluate((form, trapName) => {
    form.insertAdjacentHTML('beforeend', '<div class="control visually-hidden" aria-hidden="true"><label for="old-trap">Leave this field empty</label><input id="old-trap" name="address" type="text" tabindex="-1" autocomplete="off"></div>');
    const copy = form.querySelector(`input[name="${trapName}"]`)!.parentElement!.cloneNode(true) as HTMLElement;
    copy.classList.add('control');
    copy.querySelector('input[type="hidden"]')?.remove();
    const input = copy.querySelector('input')!;
    input.id = 'trap-copy';
    input.name = 'address';
    copy.querySelector('label')!.htmlFor = 'trap-copy';
    form.append(copy);
  }, HONEYPOT_FIELD);
}

/** Waits for the e-mail with Reply-To `address` on the local SES server. */
async function emailFrom(address: string): Promise<{ subject: string; replyTo: string[] }> {
  let found: { subject: string; replyTo: string[] } | undefined;
  await expect.poll(async () => {
    const store = (await (await fetch(`${env.site.forms!.sesEndpoint}/store`)).json()) as { emails: { subject: string; replyTo: string[] }[] };
    found = store.emails.find((e) => e.replyTo.includes(address));
    return found !== undefined;
  }).toBe(true);
  return found!;
}

describe("the honeypot and Chromium's autofill", () => {
  it.each([true, false])('a saved address fills the contact form but never the honeypot, and the lead goes out as a person\'s (JavaScript %s)', async (javaScriptEnabled) => {
    const context = await env.browser.newContext({ javaScriptEnabled });
    try {
      const page = await context.newPage();
      await page.goto(`${env.site.url}/contact`);
      const form = page.locator('form[data-form="contact"]');
      if (javaScriptEnabled) {
        await form.getByRole('textbox').first().focus();
        await page.locator('[data-island="contact-form"][data-state="ready"]').waitFor({ state: 'attached' });
      }
      await addControls(page);
      const email = `morag.${Date.now()}.${++counter}@example.org`;

      const filled = await autofill(page, 'form[data-form="contact"] input[name="name"]', savedAddress(email));

      // The fill ran: the visible fields hold the saved details, and so does the field hidden the old way.
      expect(filled).toEqual(expect.arrayContaining(['name', 'email', 'company', 'address']));
      expect(await form.locator('input[name="email"]').inputValue()).toBe(email);
      expect(await form.locator('#old-trap').inputValue()).toBe('1 High Street');
      // The honeypot's hiding keeps out even a field autofill maps.
      expect(await form.locator('#trap-copy').inputValue()).toBe('');
      // The honeypot was neither filled nor reported filled.
      expect(filled).not.toContain(HONEYPOT_FIELD);
      expect(await form.locator(`input[name="${HONEYPOT_FIELD}"]`).inputValue()).toBe('');

      await form.locator('.control').evaluateAll((controls) => { for (const c of controls) c.remove(); });
      await form.getByRole('textbox', { name: 'How can we help?' }).fill('We would like to talk about our data.');
      await form.getByRole('checkbox', { name: /I confirm I am a human/ }).check();
      const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/send-contact-form'));
      await form.getByRole('button', { name: 'Send Message' }).click();
      const body = (await posted).postData() ?? '';
      // The island sends JSON without the trap when it is empty; a plain post sends it empty.
      expect(javaScriptEnabled ? JSON.parse(body) : Object.fromEntries(new URLSearchParams(body))).not.toMatchObject({ [HONEYPOT_FIELD]: expect.stringMatching(/./) });
      await page.waitForURL('**/thank-you');
      // Mailed on its own, with the visitor's Reply-To: a lead flagged as likely spam waits for the digest instead.
      const mail = await emailFrom(email);
      expect(mail.subject).not.toMatch(/sent together/);
    } finally {
      await context.close();
    }
  });
});
