// Every text field's control as the form islands render it on the server (the markup each page
// ships, what a visitor without JavaScript gets), held to the field's definition in forms/fields.ts:
// the same fields in the same order, each with its name, type, maxlength, required and autocomplete.
// A control drawn only once the island hydrates, or a limit that differs from the definition, fails here.
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import AssessmentForm from '../../islands/assessment-form.tsx';
import ContactForm from '../../islands/contact-form.tsx';
import { ASSESSMENT_TEXT_FIELDS, CONTACT_TEXT_FIELDS, HONEYPOT_FIELD, type TextFieldDefinition } from '../../forms/fields.ts';

interface Control { tag: string; attrs: Record<string, string> }

/** The form controls of server markup, in document order, with their attributes (names lower-cased: React writes some in camel case). */
function controlsIn(html: string): Control[] {
  return [...html.matchAll(/<(input|textarea|select)\b([^>]*?)\/?>/g)].map(([, tag, rest]) => ({
    tag: tag!,
    attrs: Object.fromEntries([...rest!.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)].map(([, k, v]) => [k!.toLowerCase(), v ?? ''])),
  }));
}

/** The controls a visitor types into: not the dropdowns, the checkbox, hidden fields or the spam trap. */
const textControls = (html: string) => controlsIn(html).filter((c) =>
  c.tag === 'textarea' || (c.tag === 'input' && !['hidden', 'checkbox'].includes(c.attrs.type!) && c.attrs.name !== HONEYPOT_FIELD));

/** What the definition says the control is, in the attributes the markup carries. */
function expected(field: TextFieldDefinition): Control {
  const tag = field.kind === 'lines' ? 'textarea' : 'input';
  const type = field.kind === 'lines' ? undefined : field.kind === 'email' ? 'email' : field.inputType ?? 'text';
  return { tag, attrs: { name: field.name, type, maxlength: String(field.max), required: field.required ? '' : undefined, autocomplete: field.autoComplete } as Record<string, string> };
}

/** The control's attributes that the definition decides. */
const decided = (c: Control): Control => ({ tag: c.tag, attrs: { name: c.attrs.name!, type: c.attrs.type!, maxlength: c.attrs.maxlength!, required: c.attrs.required!, autocomplete: c.attrs.autocomplete! } });

const FORMS = [
  { form: 'contact', fields: CONTACT_TEXT_FIELDS, html: () => renderToStaticMarkup(h(ContactForm, { idPrefix: 'contact', action: '/api/send-contact-form' })) },
  { form: 'assessment', fields: ASSESSMENT_TEXT_FIELDS, html: () => renderToStaticMarkup(h(AssessmentForm, { idPrefix: 'assessment', action: '/api/send-contact-form', questionsLead: 'Q', contactLead: 'C' })) },
] as const;

describe.each(FORMS)('the $form form’s server markup', ({ fields, html }) => {
  it('has a control for each of its text fields, in the definition’s order, and no other', () => {
    expect(textControls(html()).map((c) => c.attrs.name)).toEqual(fields.map((f) => f.name));
  });

  it('gives each control the name, type, maxlength, required and autocomplete of its definition', () => {
    const controls = textControls(html());
    for (const field of fields) {
      const control = controls.find((c) => c.attrs.name === field.name);
      expect(control && decided(control), field.name).toEqual(expected(field));
    }
  });

  it('labels each control, and gives it an error slot', () => {
    const markup = html();
    for (const control of textControls(markup)) {
      expect(markup, control.attrs.name).toContain(`<label class="field__label" for="${control.attrs.id}">`);
      expect(markup, control.attrs.name).toContain(`<p id="${control.attrs.id}-error" class="field-error" hidden=""></p>`);
    }
  });
});
