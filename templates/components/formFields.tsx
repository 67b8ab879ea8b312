import type { ReactNode } from 'react';
import { HONEYPOT_FIELD } from '../../lambda/schemas/fields.ts';

/**
 * Field markup shared by the contact and assessment forms. Every id derives from the form's
 * idPrefix, so two forms can share a page. Each field carries an empty, hidden error slot
 * (`<prefix>-<name>-error`) that the forms island fills; the island also adds aria-invalid and
 * aria-describedby when it shows an error, so the server markup leaves them off.
 */

export const fieldId = (idPrefix: string, name: string) => `${idPrefix}-${name}`;
export const errorId = (idPrefix: string, name: string) => `${idPrefix}-${name}-error`;

export function ErrorSlot({ idPrefix, name }: { idPrefix: string; name: string }) {
  return <p id={errorId(idPrefix, name)} className="field-error" hidden />;
}

function Label({ htmlFor, required, children }: { htmlFor: string; required: boolean; children: ReactNode }) {
  return (
    <label className="field__label" htmlFor={htmlFor}>
      {children}
      {required ? <span className="field__required" aria-hidden="true"> *</span> : <span className="field__optional"> (optional)</span>}
    </label>
  );
}

interface FieldProps {
  idPrefix: string;
  name: string;
  label: string;
  required?: boolean;
  maxLength?: number;
  autoComplete?: string;
}

export function TextField({ idPrefix, name, label, required = false, maxLength, autoComplete, type = 'text' }: FieldProps & { type?: 'text' | 'email' }) {
  const id = fieldId(idPrefix, name);
  return (
    <div className="field">
      <Label htmlFor={id} required={required}>{label}</Label>
      <input
        className="field__control"
        id={id}
        name={name}
        type={type}
        required={required || undefined}
        maxLength={maxLength}
        autoComplete={autoComplete}
        {...(type === 'email' ? { inputMode: 'email' as const, spellCheck: false } : {})}
      />
      <ErrorSlot idPrefix={idPrefix} name={name} />
    </div>
  );
}

export function TextArea({ idPrefix, name, label, required = false, maxLength, rows = 5 }: FieldProps & { rows?: number }) {
  const id = fieldId(idPrefix, name);
  return (
    <div className="field">
      <Label htmlFor={id} required={required}>{label}</Label>
      <textarea className="field__control" id={id} name={name} rows={rows} required={required || undefined} maxLength={maxLength} />
      <ErrorSlot idPrefix={idPrefix} name={name} />
    </div>
  );
}

export interface SelectOption { value: string; label: string }

/**
 * A dropdown whose first option is a prompt. Its value is never empty (the spec forbids empty
 * option values), so 'required' would be met by the prompt; aria-required says it instead.
 */
export function SelectField({ idPrefix, name, label, placeholder, placeholderValue, options }: {
  idPrefix: string; name: string; label: string; placeholder: string; placeholderValue: string; options: readonly SelectOption[];
}) {
  const id = fieldId(idPrefix, name);
  return (
    <div className="field">
      <Label htmlFor={id} required>{label}</Label>
      <select className="field__control field__select" id={id} name={name} aria-required="true" defaultValue={placeholderValue}>
        <option value={placeholderValue}>{placeholder}</option>
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      <ErrorSlot idPrefix={idPrefix} name={name} />
    </div>
  );
}

/** The required human-confirmation checkbox, tied to the privacy policy. Posts isHuman=true. */
export function HumanCheckbox({ idPrefix }: { idPrefix: string }) {
  const id = fieldId(idPrefix, 'isHuman');
  return (
    <div className="field field--check">
      <div className="field__check-row">
        <input className="field__checkbox" id={id} name="isHuman" type="checkbox" value="true" required />
        <label htmlFor={id}>
          I confirm I am a human and agree to the processing of my details as described in
          the <a href="/privacy-policy">Privacy Policy</a>
          <span className="field__required" aria-hidden="true"> *</span>
        </label>
      </div>
      <ErrorSlot idPrefix={idPrefix} name="isHuman" />
    </div>
  );
}

/** A field people never see or reach; software that fills it in is quietly ignored by the handler. */
export function Honeypot({ idPrefix }: { idPrefix: string }) {
  const id = fieldId(idPrefix, HONEYPOT_FIELD);
  return (
    <div className="visually-hidden" aria-hidden="true">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

export function RequiredNote() {
  return <p className="form-note">Fields marked with an asterisk (*) are required.</p>;
}
