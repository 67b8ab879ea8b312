// The shared validators the islands call, and the assessment's questions the page renders.
import { describe, expect, it } from 'vitest';
import {
  ANSWER_FIELDS,
  ASSESSMENT_FORM_TYPE,
  ASSESSMENT_QUESTIONS,
  answerLabel,
  validateAssessment,
} from '../../forms/assessment.ts';
import { validateContact } from '../../forms/contact.ts';
import { HONEYPOT_FIELD, MAX_LENGTHS } from '../../forms/fields.ts';
import { toContactPayload } from '../../islands/shared/form-payload.ts';
import { validateSubmission } from '../../lambda/submission.ts';

// The code each answer posts, in order: fixed, since stored leads and reports use them.
const ANSWER_CODES: Record<string, string[]> = {
  dataApproach: ['collect_dont_use', 'occasional_reporting', 'regular_decisions', 'defined_strategy', 'embedded_culture', 'not_sure'],
  dataChallenges: ['lack_strategy', 'low_skills', 'siloed_data', 'leadership_buyin', 'unclear_roles', 'no_challenges', 'other'],
  dataCulture: ['just_starting', 'some_teams', 'important_slow', 'strategic_priority', 'strong_culture', 'not_sure'],
  dataOwnership: ['leadership', 'data_it', 'transformation_lead', 'no_ownership', 'figuring_out'],
  organisationType: ['sme', 'midsize', 'enterprise', 'public_sector', 'nonprofit', 'other'],
  timeframe: ['immediately', 'next_3_months', '3_6_months', 'exploring', 'not_sure'],
};

const contact = { name: 'Morag', email: 'morag@example.co.uk', company: '', message: 'Hello', isHuman: true };

describe('validateContact', () => {
  it('accepts a complete form and trims the values', () => {
    const result = validateContact({ ...contact, name: '  Morag  ', message: ' Hello \n' });
    expect(result).toEqual({ ok: true, data: { ...contact, message: 'Hello' } });
  });

  it('gives the validation messages, one per field', () => {
    const result = validateContact({ name: ' ', email: '', message: '', isHuman: false });
    expect(result).toEqual({
      ok: false,
      errors: {
        name: 'Name is required',
        email: 'Email is required',
        message: 'Message is required',
        isHuman: 'Please confirm you are human',
      },
    });
  });

  it.each(['a@b.c', 'first.last+tag@sub.example.co.uk', "o'brien@example.ie"])('accepts the address %s', (email) => {
    expect(validateContact({ ...contact, email }).ok).toBe(true);
  });

  it.each(['plain', 'a@b', '@b.co', 'a@.co', 'a b@c.co', 'a@b.co,c@d.co', 'Jo <jo@b.co>', 'jö@b.co'])(
    'refuses the address %s as invalid',
    (email) => {
      expect(validateContact({ ...contact, email })).toEqual({ ok: false, errors: { email: 'Email is invalid' } });
    },
  );

  // Stricter than the loose shape (text, @, text, a dot, text): SES refuses these, so the visitor hears it from the form.
  it.each([
    'jo..bloggs@example.co.uk',
    '.jo@example.co.uk',
    'jo.@example.co.uk',
    `${'j'.repeat(65)}@example.co.uk`,
    'jo@-example.co.uk',
    'jo@example-.co.uk',
    'jo@example.co-.uk',
    'jo@example.-co.uk',
  ])('refuses %s, which SES would refuse, with a valid-address message', (email) => {
    expect(validateContact({ ...contact, email })).toEqual({
      ok: false,
      errors: { email: 'Please enter a valid email address' },
    });
  });

  it.each([`${'j'.repeat(64)}@example.co.uk`, 'jo.b.bloggs@my-example.co.uk', 'a-@b-c.d-e.uk', '-jo-@x1.co', 'a.-b-.c@x.co'])(
    'accepts %s, which SES takes',
    (email) => {
      expect(validateContact({ ...contact, email }).ok).toBe(true);
    },
  );

  it('keeps half a character (a lone surrogate) as U+FFFD, and whole ones as they are', () => {
    const result = validateContact({ ...contact, name: 'Jo \ud800', company: '\udc00Acme \u{1F600}', message: 'a\ud83d' });
    expect(result).toEqual({
      ok: true,
      data: { ...contact, name: 'Jo \ufffd', company: '\ufffdAcme \u{1F600}', message: 'a\ufffd' },
    });
  });

  it('states each length limit', () => {
    const result = validateContact({
      name: 'n'.repeat(MAX_LENGTHS.name + 1),
      email: `${'e'.repeat(MAX_LENGTHS.email)}@b.co`,
      company: 'c'.repeat(MAX_LENGTHS.company + 1),
      message: 'm'.repeat(MAX_LENGTHS.message + 1),
      isHuman: true,
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        name: 'Name must be 100 characters or fewer',
        email: 'Email must be 254 characters or fewer',
        company: 'Organisation must be 150 characters or fewer',
        message: 'Message must be 5000 characters or fewer',
      },
    });
  });

  it('allows exactly the limits', () => {
    const result = validateContact({ ...contact, name: 'n'.repeat(100), message: 'm'.repeat(5000) });
    expect(result.ok).toBe(true);
  });

  it('refuses line breaks in the single-line fields but keeps them in the message', () => {
    const result = validateContact({ ...contact, name: 'a\u2028b', company: 'x\ny', message: 'one\r\ntwo' });
    expect(result).toEqual({
      ok: false,
      errors: { name: 'Name must not contain line breaks', company: 'Organisation must not contain line breaks' },
    });
  });

  it('names the honeypot with no word autofill or a password manager fills from saved details (the browser test fills it for real)', () => {
    expect(HONEYPOT_FIELD).not.toMatch(/name|mail|phone|tel|cell|fax|address|street|line|company|organi[sz]ation|business|city|town|zip|post|country|url|web|site|home|user|login|pass|card|birth|title/i);
  });
});

describe('ASSESSMENT_QUESTIONS', () => {
  it('has the six questions in order with exactly their fixed codes', () => {
    expect(ASSESSMENT_QUESTIONS.map((q) => q.field)).toEqual([...ANSWER_FIELDS]);
    for (const question of ASSESSMENT_QUESTIONS) {
      expect(question.options.map((o) => o.code)).toEqual(ANSWER_CODES[question.field]);
    }
  });

  it('gives every option a non-empty, distinct label and every question text and a placeholder', () => {
    for (const question of ASSESSMENT_QUESTIONS) {
      expect(question.question).toMatch(/\?$/);
      expect(question.placeholder).not.toBe('');
      const labels = question.options.map((o) => o.label);
      expect(new Set(labels).size).toBe(labels.length);
      for (const label of labels) expect(label.trim()).toBe(label);
      for (const label of labels) expect(label).not.toBe('');
    }
  });

  it('maps a code or its label to the label, and nothing else', () => {
    expect(answerLabel('organisationType', 'sme')).toBe('SME (fewer than 250 employees)');
    expect(answerLabel('organisationType', 'SME (fewer than 250 employees)')).toBe('SME (fewer than 250 employees)');
    expect(answerLabel('organisationType', 'immediately')).toBeUndefined();
  });
});

describe('validateAssessment', () => {
  const answers = {
    dataApproach: 'collect_dont_use',
    dataChallenges: 'Low data skills or confidence',
    dataCulture: 'just_starting',
    dataOwnership: 'figuring_out',
    organisationType: 'midsize',
    timeframe: '3_6_months',
  };
  const assessment = { ...contact, message: undefined, formType: ASSESSMENT_FORM_TYPE, assessmentData: answers };

  it('accepts the answers as codes or labels and returns labels, comments optional', () => {
    const result = validateAssessment(assessment);
    expect(result.ok && result.data.assessmentData).toEqual({
      dataApproach: "We collect data but don't really use it",
      dataChallenges: 'Low data skills or confidence',
      dataCulture: 'Just starting out',
      dataOwnership: "We're still working that out",
      organisationType: 'Mid-size organisation (250 to 999 employees)',
      timeframe: 'In 3 to 6 months',
    });
  });

  it("says 'Please select an option' for each missing answer", () => {
    const result = validateAssessment({ ...assessment, assessmentData: undefined });
    expect(result.ok).toBe(false);
    if (!result.ok) for (const field of ANSWER_FIELDS) expect(result.errors[field]).toBe('Please select an option');
  });

  it('refuses an unknown answer and a wrong form type', () => {
    const result = validateAssessment({ ...assessment, formType: 'Other', assessmentData: { ...answers, dataCulture: 'great' } });
    expect(result).toEqual({
      ok: false,
      errors: { formType: 'Unknown form type', dataCulture: 'Please choose one of the listed options' },
    });
  });

  it('keeps half a character in the comments as U+FFFD', () => {
    const result = validateAssessment({ ...assessment, message: 'Soon \udc00' });
    expect(result.ok && result.data.message).toBe('Soon \ufffd');
  });

  it('checks the contact fields with the same rules', () => {
    const result = validateAssessment({ ...assessment, name: '', isHuman: undefined, message: 'x'.repeat(5001) });
    expect(result).toEqual({
      ok: false,
      errors: {
        name: 'Name is required',
        isHuman: 'Please confirm you are human',
        message: 'Comments must be 5000 characters or fewer',
      },
    });
  });
});

describe('an e-mail address is refused, never rewritten', () => {
  // Each of these once came out the other side as a different, valid-looking address.
  it.each([
    ['a form feed inside', 'a.b@sub.example.co.uk\fFF'],
    ['a right-to-left override inside', 'morag\u202e@example.co.uk'],
    ['an isolate around the domain', 'morag@\u2066example.co.uk\u2069'],
    ['a zero-width space', 'mo\u200brag@example.co.uk'],
    ['a zero-width joiner', 'morag@exa\u200dmple.co.uk'],
    ['a word joiner', 'morag@example.co.uk\u2060'],
    ['a byte-order mark in front (which a trim would quietly remove)', '\ufeffmorag@example.co.uk'],
    ['a line feed inside', 'morag@exam\nple.co.uk'],
    ['a tab inside', 'morag@\texample.co.uk'],
    ['a no-break space at the end (not ASCII whitespace: a browser keeps it)', 'morag@example.co.uk\u00a0'],
    ['an ideographic space in front', '\u3000morag@example.co.uk'],
    ['a NUL', 'morag@example.co.uk\u0000'],
    ['a soft hyphen', 'mo\u00adrag@example.co.uk'],
    ['a line separator', 'morag@example.co.uk\u2028'],
    ['only a zero-width space', '\u200b'],
  ])('%s is "Email is invalid", in the handler\'s check and the browser\'s alike', (_what, email) => {
    expect(validateContact({ ...contact, email })).toEqual({ ok: false, errors: { email: 'Email is invalid' } });
    expect(validateSubmission({ ...contact, email })).toEqual({ ok: false, form: 'contact', errors: { email: 'Email is invalid' } });
    expect(toContactPayload({ ...contact, email, honeypot: '' }, { timestamp: '2026-01-01T00:00:00Z', source: 'https://www.example.co.uk' })).toEqual({ ok: false, errors: { email: 'Email is invalid' } });
  });

  it('trims the ASCII whitespace round an address as a browser does (tab, line feed, form feed, carriage return, space), which is all it ever changes', () => {
    for (const email of ['  morag@example.co.uk ', '\tmorag@example.co.uk\t', 'morag@example.co.uk\r\n', '\f morag@example.co.uk\n']) {
      expect(validateContact({ ...contact, email }), JSON.stringify(email)).toMatchObject({ ok: true, data: { email: 'morag@example.co.uk' } });
      expect(validateSubmission({ ...contact, email }), JSON.stringify(email)).toMatchObject({ ok: true, submission: { data: { email: 'morag@example.co.uk' } } });
    }
  });
});

describe('format characters in one-line fields', () => {
  it('are removed from the name and the organisation, and kept in the message (a joiner holds an emoji together)', () => {
    const result = validateContact({ ...contact, name: 'Mo\u200brag\u2060 Camp\ufeffbell\u00ad', company: '\u200cAcme\u200d Ltd\u{E0001}', message: 'Family: \u{1F468}\u200d\u{1F469}\u200d\u{1F467}' });
    expect(result).toEqual({ ok: true, data: { ...contact, name: 'Morag Campbell', company: 'Acme Ltd', message: 'Family: \u{1F468}\u200d\u{1F469}\u200d\u{1F467}' } });
  });

  it('a name of nothing but zero-width characters is empty: "Name is required"', () => {
    const name = '\u200b\u200b\u200b';
    expect(validateContact({ ...contact, name })).toEqual({ ok: false, errors: { name: 'Name is required' } });
    expect(validateAssessment({ name, email: contact.email, isHuman: true, formType: ASSESSMENT_FORM_TYPE, assessmentData: {} })).toMatchObject({ ok: false, errors: { name: 'Name is required' } });
    expect(toContactPayload({ ...contact, name, honeypot: '' }, { timestamp: '2026-01-01T00:00:00Z', source: 'https://www.example.co.uk' })).toEqual({ ok: false, errors: { name: 'Name is required' } });
  });
});
