import { describe, expect, it } from 'vitest';
import { ASSESSMENT_QUESTIONS, UNANSWERED, validateAssessment } from '../../forms/assessment.ts';
import { validateContact } from '../../forms/contact.ts';
import { HONEYPOT_FIELD } from '../../forms/fields.ts';
import { assessmentValues, contactValues, toAssessmentPayload, toContactPayload, type ContactValues } from '../../islands/shared/form-payload.ts';

const context = { timestamp: '2025-09-24T10:00:00.000Z', source: 'https://www.example.com' };
const good: ContactValues = { name: '  Ada Lovelace ', email: 'ada@example.org', company: 'Analytical Engines', message: 'We need help with our data.', isHuman: true, honeypot: '' };

function entries(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.append(k, v);
  return data;
}

describe('contactValues', () => {
  it('reads the fields a form posts; an unticked box is absent, so isHuman is false', () => {
    expect(contactValues(entries({ name: 'A', email: 'a@b.co', company: '', message: 'Hi', [HONEYPOT_FIELD]: '' }))).toEqual({ name: 'A', email: 'a@b.co', company: '', message: 'Hi', isHuman: false, honeypot: '' });
    expect(contactValues(entries({ [HONEYPOT_FIELD]: 'x' })).honeypot).toBe('x');
    expect(contactValues(entries({ isHuman: 'true' })).isHuman).toBe(true);
    expect(contactValues(entries({})).name).toBe('');
  });
});

describe('toContactPayload', () => {
  it("builds the contact payload, trimmed, with isHuman true, the time and the origin", () => {
    const result = toContactPayload(good, context);
    expect(result).toEqual({ ok: true, payload: { name: 'Ada Lovelace', email: 'ada@example.org', company: 'Analytical Engines', message: 'We need help with our data.', isHuman: true, ...context } });
    // What the browser sends, the handler's own check accepts.
    expect(result.ok && validateContact(result.payload).ok).toBe(true);
  });

  it('sends an empty organisation as empty, not left out', () => {
    const result = toContactPayload({ ...good, company: '  ' }, context);
    expect(result.ok && result.payload.company).toBe('');
  });

  it.each([
    [{ name: '   ' }, { name: 'Name is required' }],
    [{ email: '' }, { email: 'Email is required' }],
    [{ email: 'ada@example' }, { email: 'Email is invalid' }],
    [{ email: 'not an address' }, { email: 'Email is invalid' }],
    [{ message: ' \n ' }, { message: 'Message is required' }],
    [{ isHuman: false }, { isHuman: 'Please confirm you are human' }],
  ] as const)('refuses %o with the validation message', (change, errors) => {
    expect(toContactPayload({ ...good, ...change }, context)).toEqual({ ok: false, errors });
  });

  it('reports every wrong field at once', () => {
    const result = toContactPayload({ name: '', email: '', company: '', message: '', isHuman: false, honeypot: '' }, context);
    expect(result).toEqual({ ok: false, errors: { name: 'Name is required', email: 'Email is required', message: 'Message is required', isHuman: 'Please confirm you are human' } });
  });

  it('passes a filled honeypot on, so the handler can flag the lead as likely spam', () => {
    const result = toContactPayload({ ...good, honeypot: 'http://spam.example' }, context);
    expect(result.ok && result.payload[HONEYPOT_FIELD]).toBe('http://spam.example');
    expect(toContactPayload(good, context)).not.toHaveProperty(`payload.${HONEYPOT_FIELD}`);
  });
});

describe('toAssessmentPayload', () => {
  const answered = Object.fromEntries(ASSESSMENT_QUESTIONS.map((q) => [q.field, q.options[0]!.code]));

  it("sends the assessment payload with the form type and every answer as its label", () => {
    const values = assessmentValues(entries({ ...answered, name: 'Ada', email: 'ada@example.org', isHuman: 'true' }));
    const result = toAssessmentPayload(values, context);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.payload).toEqual({
      name: 'Ada', email: 'ada@example.org', company: '', message: '', isHuman: true,
      formType: 'DIAlog Assessment',
      assessmentData: Object.fromEntries(ASSESSMENT_QUESTIONS.map((q) => [q.field, q.options[0]!.label])),
      ...context,
    });
    expect(result.payload.assessmentData.dataApproach).toBe("We collect data but don't really use it");
    expect(validateAssessment(result.payload).ok).toBe(true);
  });

  it("asks for an option under every dropdown left on its prompt, and checks the contact fields the same way", () => {
    const values = assessmentValues(entries({ ...answered, dataCulture: UNANSWERED, timeframe: UNANSWERED, name: ' ', email: 'ada@' }));
    expect(toAssessmentPayload(values, context)).toEqual({
      ok: false,
      errors: {
        dataCulture: 'Please select an option',
        timeframe: 'Please select an option',
        name: 'Name is required',
        email: 'Email is invalid',
        isHuman: 'Please confirm you are human',
      },
    });
  });

  it('leaves comments optional', () => {
    const values = assessmentValues(entries({ ...answered, name: 'Ada', email: 'ada@example.org', isHuman: 'true', message: '' }));
    expect(toAssessmentPayload(values, context).ok).toBe(true);
  });
});
