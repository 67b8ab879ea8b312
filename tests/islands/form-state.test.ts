import { describe, expect, it } from 'vitest';
import { errorSummary, firstInvalidField, formReducer, initialFormState, type FormState } from '../../islands/shared/form-state.ts';
import { ASSESSMENT_FIELDS } from '../../islands/assessment-form.tsx';
import { CONTACT_FIELDS } from '../../islands/contact-form.tsx';

const order = CONTACT_FIELDS.map((f) => f.name);

describe('formReducer', () => {
  it('goes idle → submitting → sent, and ignores a second submit while sending', () => {
    let s = formReducer(initialFormState, { type: 'submit' });
    expect(s.status).toBe('submitting');
    expect(formReducer(s, { type: 'submit' })).toBe(s);
    s = formReducer(s, { type: 'sent' });
    expect(s).toMatchObject({ status: 'sent', errors: {} });
  });

  it('returns to idle after a failure, so the visitor can try again', () => {
    const sending = formReducer(initialFormState, { type: 'submit' });
    expect(formReducer(sending, { type: 'failed' }).status).toBe('idle');
    // A late failure cannot undo a form that has already been sent.
    const sent = formReducer(sending, { type: 'sent' });
    expect(formReducer(sent, { type: 'failed' })).toBe(sent);
  });

  it('counts each refused submit, even with the same errors, so focus moves every time', () => {
    const errors = { name: 'Name is required' };
    const once = formReducer(initialFormState, { type: 'invalid', errors });
    const twice = formReducer(once, { type: 'invalid', errors });
    expect([once.attempt, twice.attempt]).toEqual([1, 2]);
    expect(twice).toMatchObject({ status: 'idle', errors });
  });

  it("takes the server's field errors while sending and goes back to idle", () => {
    const sending = formReducer(initialFormState, { type: 'submit' });
    const refused = formReducer(sending, { type: 'invalid', errors: { email: 'Email is invalid' } });
    expect(refused).toMatchObject({ status: 'idle', errors: { email: 'Email is invalid' }, attempt: 1 });
  });

  it('clears old errors when a valid form is submitted', () => {
    const invalid = formReducer(initialFormState, { type: 'invalid', errors: { name: 'Name is required' } });
    expect(formReducer(invalid, { type: 'submit' }).errors).toEqual({});
  });

  it('re-checks only fields that already show an error, and keeps focus still', () => {
    const invalid: FormState = formReducer(initialFormState, { type: 'invalid', errors: { email: 'Email is required', name: 'Name is required' } });
    const typing = formReducer(invalid, { type: 'checked', field: 'email', error: 'Email is invalid' });
    expect(typing.errors).toEqual({ email: 'Email is invalid', name: 'Name is required' });
    const fixed = formReducer(typing, { type: 'checked', field: 'email', error: undefined });
    expect(fixed.errors).toEqual({ name: 'Name is required' });
    expect(fixed.attempt).toBe(invalid.attempt);
    // A field without an error is not flagged while someone is still typing in it.
    expect(formReducer(fixed, { type: 'checked', field: 'message', error: 'Message is required' })).toBe(fixed);
  });
});

describe('firstInvalidField', () => {
  it('is the first field in page order, not in the order the errors came', () => {
    expect(firstInvalidField(order, { isHuman: 'Please confirm you are human', email: 'Email is invalid', message: 'Message is required' })).toBe('email');
    expect(firstInvalidField(order, {})).toBeUndefined();
  });

  it('puts the assessment questions before the contact details', () => {
    const assessment = ASSESSMENT_FIELDS.map((f) => f.name);
    expect(firstInvalidField(assessment, { name: 'Name is required', timeframe: 'Please select an option' })).toBe('timeframe');
    expect(assessment.slice(0, 6)).toEqual(['dataApproach', 'dataChallenges', 'dataCulture', 'dataOwnership', 'organisationType', 'timeframe']);
  });

  it('ignores errors for fields the form does not have', () => {
    expect(firstInvalidField(order, { form: 'Unknown form type' })).toBeUndefined();
  });
});

describe('errorSummary', () => {
  it('says how many fields need attention and names them in page order', () => {
    expect(errorSummary(CONTACT_FIELDS, { message: 'Message is required', name: 'Name is required' })).toBe('2 fields need attention: Name, Message.');
    expect(errorSummary(CONTACT_FIELDS, { isHuman: 'Please confirm you are human' })).toBe('1 field needs attention: Human confirmation.');
  });

  it('is empty when no field of the form is wrong', () => {
    expect(errorSummary(CONTACT_FIELDS, {})).toBe('');
    expect(errorSummary(CONTACT_FIELDS, { form: 'Something else' })).toBe('');
  });
});
