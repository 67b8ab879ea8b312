// The field markup the form islands render: identical to the static form while valid (so hydration
// matches and the page works without script), and tied to its message once invalid.
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import AssessmentForm from '../../islands/assessment-form.tsx';
import ContactForm from '../../islands/contact-form.tsx';
import { CONTACT_TEXT_FIELDS, HONEYPOT_FIELD, fieldsByName, type TextFieldDefinition } from '../../forms/fields.ts';
import { HumanCheckbox, SelectField, TextArea, TextField } from '../../islands/shared/form-controls.tsx';

const FIELD = fieldsByName(CONTACT_TEXT_FIELDS);

describe('a field without an error', () => {
  it('has a hidden, empty message slot and no aria-invalid or aria-describedby', () => {
    const html = renderToStaticMarkup(h(TextField, { idPrefix: 'contact', field: FIELD.name }));
    expect(html).toContain('<p id="contact-name-error" class="field-error" hidden=""></p>');
    expect(html).not.toContain('aria-invalid');
    expect(html).not.toContain('aria-describedby');
  });
});

describe('a field’s control, from its definition', () => {
  it('takes the input type a one-line field asks for, with its limit and autocomplete', () => {
    const phone: TextFieldDefinition = { name: 'phone', label: 'Phone', max: 30, required: false, kind: 'line', inputType: 'tel', autoComplete: 'tel' };
    const html = renderToStaticMarkup(h(TextField, { idPrefix: 'contact', field: phone }));
    const input = html.match(/<input [^>]*>/)?.[0] ?? '';
    for (const attr of ['id="contact-phone"', 'name="phone"', 'type="tel"', 'maxLength="30"', 'autoComplete="tel"']) expect(input).toContain(attr);
    expect(input).not.toContain('required');
    expect(html).toContain('Phone<span class="field__optional"> (optional)</span>');
  });

  it('shows the words the page asks in, where it has its own', () => {
    const html = renderToStaticMarkup(h(TextArea, { idPrefix: 'contact', field: FIELD.message, label: 'How can we help?' }));
    expect(html).toMatch(/<label class="field__label" for="contact-message">How can we help\?<span class="field__required" aria-hidden="true"> \*<\/span><\/label><textarea [^>]*name="message"[^>]*required="" maxLength="5000"/);
  });

  it('refuses a field of several lines as a one-line control, and the other way round', () => {
    expect(() => renderToStaticMarkup(h(TextField, { idPrefix: 'contact', field: FIELD.message }))).toThrow('field message takes several lines: it is a TextArea');
    expect(() => renderToStaticMarkup(h(TextArea, { idPrefix: 'contact', field: FIELD.name }))).toThrow('field name takes one line: it is a TextField');
  });
});

describe('a field with an error', () => {
  it('shows the message under the field and points the control at it', () => {
    const html = renderToStaticMarkup(h(TextField, { idPrefix: 'contact', field: FIELD.email, error: 'Email is invalid' }));
    expect(html).toMatch(/<input[^>]*aria-invalid="true"[^>]*aria-describedby="contact-email-error"/);
    expect(html).toContain('<p id="contact-email-error" class="field-error">Email is invalid</p>');
  });

  it('works the same for the checkbox and the dropdowns', () => {
    const box = renderToStaticMarkup(h(HumanCheckbox, { idPrefix: 'a', error: 'Please confirm you are human' }));
    expect(box).toMatch(/type="checkbox"[^>]*aria-invalid="true" aria-describedby="a-isHuman-error"/);
    const select = renderToStaticMarkup(h(SelectField, { idPrefix: 'a', name: 'timeframe', label: 'When?', placeholder: 'Select', placeholderValue: 'unanswered', options: [{ value: 'now', label: 'Now' }], error: 'Please select an option' }));
    expect(select).toMatch(/<select[^>]*aria-invalid="true" aria-describedby="a-timeframe-error"/);
    expect(select).toContain('>Please select an option</p>');
  });
});

describe('the islands’ first render', () => {
  it('is the complete static contact form, posting to the endpoint', () => {
    const html = renderToStaticMarkup(h(ContactForm, { idPrefix: 'contact', action: '/api/send-contact-form' }));
    const form = html.match(/^<form [^>]*>/)?.[0] ?? '';
    // HTML attribute names are case-insensitive; React writes some in camel case.
    for (const attr of ['method="post"', 'action="/api/send-contact-form"', 'novalidate=""', 'data-form="contact"']) expect(form.toLowerCase()).toContain(attr);
    expect(html).toContain('>Send Message</button>');
    expect(html).not.toContain('disabled');
    expect(html).not.toContain('aria-invalid');
    expect(html).not.toContain('aria-busy');
    for (const name of ['name', 'email', 'company', 'message', 'isHuman', HONEYPOT_FIELD]) expect(html).toContain(`name="${name}"`);
  });

  it('is the complete static assessment form, each dropdown on its prompt', () => {
    const html = renderToStaticMarkup(h(AssessmentForm, { idPrefix: 'assessment', action: '/api/send-contact-form', questionsLead: 'Q', contactLead: 'C' }));
    expect(html).toContain('<input type="hidden" name="formType" value="DIAlog Assessment"/>');
    expect(html.match(/<option value="unanswered" selected="">/g)).toHaveLength(6);
    expect(html).toContain('>Submit Assessment</button>');
    expect(html).not.toContain('aria-hidden="true" focusable="false"');
  });
});
