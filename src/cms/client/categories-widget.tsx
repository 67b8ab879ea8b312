// The categories of an article: a tick box for each category the articles already name, and a box
// to add a new one. Decap CMS has no select that takes a new value, so the site registers this one.
// A new name that would share a category's address with one already listed ('data culture' beside
// 'Data Culture') is refused as the build refuses it, naming the spelling to use.
import { useId, useState, type ChangeEvent } from 'react';
import { categorySlug } from '../../content/categories.ts';

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

/** Why `name` cannot be added beside `listed`, or undefined. */
export function newCategoryProblem(name: string, listed: readonly string[]): string | undefined {
  const slug = categorySlug(name);
  if (!slug) return `"${name}" has no letters or digits to make the category's address from`;
  const same = listed.find((n) => n !== name && categorySlug(n) === slug);
  return same ? `"${name}" would share the address /blog/category/${slug} with "${same}": tick "${same}" instead` : undefined;
}

export function CategoriesControl({ value, onChange, forID, classNameWrapper, field }: ControlProps) {
  const chosen = namesOf(value);
  const known = namesOf(field.get('options'));
  // Names added here stay listed when unticked, until the page is left.
  const [added, setAdded] = useState<string[]>([]);
  const all = [...new Set([...known, ...added, ...chosen])];
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const hintId = useId();
  const problemId = useId();
  const toggle = (name: string) => (e: ChangeEvent<HTMLInputElement>) => onChange(e.target.checked ? [...chosen, name] : chosen.filter((c) => c !== name));
  const add = () => {
    const name = draft.trim();
    if (!name) return;
    const refused = newCategoryProblem(name, all);
    setProblem(refused);
    if (refused) return;
    if (!all.includes(name)) setAdded([...added, name]);
    if (!chosen.includes(name)) onChange([...chosen, name]);
    setDraft('');
  };
  return (
    <div id={forID} className={classNameWrapper} role="group" aria-label={String(field.get('label') ?? 'Categories')} aria-describedby={hintId}>
      <p id={hintId}>Tick the categories this article belongs to, or add a new one. None ticked: it is listed under Data.</p>
      {all.map((name) => (
        <label key={name} style={{ display: 'block' }}>
          <input type="checkbox" checked={chosen.includes(name)} onChange={toggle(name)} /> {name}
        </label>
      ))}
      <label>
        New category{' '}
        <input
          type="text" value={draft} aria-invalid={problem ? true : undefined} aria-describedby={problem ? problemId : undefined}
          style={{ border: '1px solid #6b6b6b', borderRadius: '4px', padding: '0.35rem 0.5rem', background: '#fff' }}
          onChange={(e) => { setDraft(e.target.value); setProblem(undefined); }}
          onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); add(); } }}
        />
      </label>{' '}
      <button type="button" onClick={add}>Add category</button>
      {problem ? <p id={problemId} role="alert" style={{ color: '#b3261e' }}>{problem}</p> : null}
    </div>
  );
}

export function CategoriesPreview({ value }: { value?: unknown }) {
  return <span>{namesOf(value).join(', ')}</span>;
}
