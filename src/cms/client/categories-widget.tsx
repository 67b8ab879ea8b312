// The categories of an article: a tick box for each category the articles already name, and a box
// to add a new one. Decap CMS has no select that takes a new value, so the site registers this one.
import { useId, useState, type ChangeEvent } from 'react';

interface ControlProps {
  value?: unknown;
  onChange(value: string[]): void;
  forID: string;
  classNameWrapper: string;
  field: { get(key: string): unknown };
}

/** The value as a plain list of names (Decap hands over an Immutable List, or nothing). */
export function namesOf(value: unknown): string[] {
  const plain = value && typeof (value as { toJS?: unknown }).toJS === 'function' ? (value as { toJS(): unknown }).toJS() : value;
  return Array.isArray(plain) ? plain.filter((v): v is string => typeof v === 'string') : [];
}

export function CategoriesControl({ value, onChange, forID, classNameWrapper, field }: ControlProps) {
  const chosen = namesOf(value);
  const known = namesOf(field.get('options'));
  const all = [...known, ...chosen.filter((c) => !known.includes(c))];
  const [draft, setDraft] = useState('');
  const hintId = useId();
  const toggle = (name: string) => (e: ChangeEvent<HTMLInputElement>) => onChange(e.target.checked ? [...chosen, name] : chosen.filter((c) => c !== name));
  const add = () => {
    const name = draft.trim();
    if (name && !chosen.includes(name)) onChange([...chosen, name]);
    setDraft('');
  };
  return (
    <div id={forID} className={classNameWrapper} role="group" aria-describedby={hintId}>
      <p id={hintId}>Tick the categories this article belongs to, or add a new one. None ticked: it is listed under Data.</p>
      {all.map((name) => (
        <label key={name} style={{ display: 'block' }}>
          <input type="checkbox" checked={chosen.includes(name)} onChange={toggle(name)} /> {name}
        </label>
      ))}
      <label>
        New category{' '}
        <input type="text" value={draft} onChange={(e) => setDraft(e.target.value)} onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); add(); } }} />
      </label>{' '}
      <button type="button" onClick={add}>Add category</button>
    </div>
  );
}

export function CategoriesPreview({ value }: { value?: unknown }) {
  return <span>{namesOf(value).join(', ')}</span>;
}
