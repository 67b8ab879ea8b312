import type { ReactNode } from 'react';
import { controlType, HONEYPOT_FIELD, type TextFieldDefinition } from '../../forms/fields.ts';

/**
 * The controls (markup) of the contact and assessment forms, rendered by the form islands on the server
 * and again when they hydrate. Every id derives from the form's idPrefix, so two forms can share a
 * page. Without an error a field renders exactly the static markup (an empty, hidden error slot,
 * no aria-invalid), so hydration matches; with one, the slot shows it and the control points at it.
 * Inputs are uncontrolled: what a visitor typed before the island woke is kept as it is.
 */

export const fieldId = (idPrefix: string, name: string) => `${idPrefix}-${name}`;
export const errorId = (idPrefix: string, name: string) => `${idPrefix}-${name}-error`;

/** The attributes that tie an invalid control to its message (none while it is valid). */
function invalidProps(idPrefix: string, name: string, error: string | undefined) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': errorId(idPrefix, name) } : {};
}

export function ErrorSlot({ idPrefix, name, error }: { idPrefix: string; name: string; error?: string | undefined }) {
  return <p id={errorId(idPrefix, name)} className="field-error" hidden={!error}>{error}</p>;
}

function Label({ htmlFor, required, children }: { htmlFor: string; required: boolean; children: ReactNode }) {
  return (
    <label className="field__label" htmlFor={htmlFor}>
      {children}
      {required ? <span className="field__required" aria-hidden="true"> *</span> : <span className="field__optional"> (optional)</span>}
    </label>
  );
}

/**
 * A text field's control: its name, type, maxlength, required and autocomplete all from the field's
 * definition (forms/fields.ts); `label` is the words shown, where the page asks in words of its own
 * ("How can we help?"); the definition's label otherwise.
 */
interface FieldProps {
  idPrefix: string;
  field: TextFieldDefinition;
  label?: string;
  error?: string | undefined;
}

/** A one-line field: <input> of the type its definition says (text, email, tel, url). */
export function TextField({ idPrefix, field, label = field.label, error }: FieldProps) {
  const { name, required, max } = field;
  const id = fieldId(idPrefix, name);
  const type = controlType(field);
  if (type === 'textarea') throw new Error(`field ${name} takes several lines: it is a TextArea`);
  return (
    <div className="field">
      <Label htmlFor={id} required={required}>{label}</Label>
      <input
        className="field__control"
        id={id}
        name={name}
        type={type}
        required={required || undefined}
        maxLength={max}
        autoComplete={field.autoComplete}
        {...(type === 'email' ? { inputMode: 'email' as const, spellCheck: false } : {})}
        {...invalidProps(idPrefix, name, error)}
      />
      <ErrorSlot idPrefix={idPrefix} name={name} error={error} />
    </div>
  );
}

/** A field of several lines: <textarea>. */
export function TextArea({ idPrefix, field, label = field.label, error, rows = 5 }: FieldProps & { rows?: number }) {
  const { name, required, max } = field;
  const id = fieldId(idPrefix, name);
  if (controlType(field) !== 'textarea') throw new Error(`field ${name} takes one line: it is a TextField`);
  return (
    <div className="field">
      <Label htmlFor={id} required={required}>{label}</Label>
      <textarea className="field__control" id={id} name={name} rows={rows} required={required || undefined} maxLength={max} autoComplete={field.autoComplete} {...invalidProps(idPrefix, name, error)} />
      <ErrorSlot idPrefix={idPrefix} name={name} error={error} />
    </div>
  );
}

export interface SelectOption { value: string; label: string }

/**
 * A dropdown whose first option is a prompt. Its value is never empty (the product rules forbid an
 * empty option value), so 'required' would be met by the prompt; aria-required says it instead.
 */
export function SelectField({ idPrefix, name, label, placeholder, placeholderValue, options, error }: {
  idPrefix: string; name: string; label: string; placeholder: string; placeholderValue: string; options: readonly SelectOption[]; error?: string | undefined;
}) {
  const id = fieldId(idPrefix, name);
  return (
    <div className="field">
      <Label htmlFor={id} required>{label}</Label>
      <select className="field__control field__select" id={id} name={name} aria-required="true" defaultValue={placeholderValue} {...invalidProps(idPrefix, name, error)}>
        <option value={placeholderValue}>{placeholder}</option>
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      <ErrorSlot idPrefix={idPrefix} name={name} error={error} />
    </div>
  );
}

/** The required human-confirmation checkbox, tied to the privacy policy. Posts isHuman=true. */
export function HumanCheckbox({ idPrefix, error }: { idPrefix: string; error?: string | undefined }) {
  const id = fieldId(idPrefix, 'isHuman');
  return (
    <div className="field field--check">
      <div className="field__check-row">
        <input className="field__checkbox" id={id} name="isHuman" type="checkbox" value="true" required {...invalidProps(idPrefix, 'isHuman', error)} />
        <label htmlFor={id}>
          I confirm I am a human and agree to the processing of my details as described in
          the <a href="/privacy-policy">Privacy Policy</a>
          <span className="field__required" aria-hidden="true"> *</span>
        </label>
      </div>
      <ErrorSlot idPrefix={idPrefix} name="isHuman" error={error} />
    </div>
  );
}

/** The hidden field carrying the island's submissionId (empty in a plain post: the handler derives one). */
export const SUBMISSION_ID_FIELD = 'submissionId';

/**
 * A field people never see or reach; software that fills it in marks its lead as likely spam
 * (stored, and mailed only in the digest). Hidden with `hidden` (display: none, and out of the accessibility tree), not a 1-pixel box:
 * autofill fills only fields that can take focus, so a saved address never lands in it.
 */
export function Honeypot({ idPrefix }: { idPrefix: string }) {
  const id = fieldId(idPrefix, HONEYPOT_FIELD);
  return (
    <div hidden>
      <input type="hidden" name={SUBMISSION_ID_FIELD} defaultValue="" />
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

export function RequiredNote() {
  return <p className="form-note">Fields marked with an asterisk (*) are required.</p>;
}

/**
 * A polite live region that sums up what went wrong after a submit. Focus already moves to the
 * first invalid field (whose message is its description); this tells how many others need work.
 */
export function ErrorSummary({ id, text }: { id: string; text: string }) {
  return <p id={id} className="visually-hidden" role="status">{text}</p>;
}

/** The busy indicator beside 'Submitting...': decorative, the button's text says it. */
export function Spinner() {
  return (
    <svg className="spinner" width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
