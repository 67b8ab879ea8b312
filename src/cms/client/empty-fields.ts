// An optional field left empty is left out of the file, as the schemas want: Decap writes a
// cleared field as '' (`publishDate: ""`), which the build refuses. Run before each save, on the
// entry's data as Decap holds it (Immutable), guided by the collection's fields.

interface Field { name: string; required?: boolean; pattern?: [string, string]; fields?: Field[]; field?: Field; widget: string }
interface Data { getIn(path: unknown[]): unknown; deleteIn(path: unknown[]): Data }
const sizeOf = (v: unknown): number => (v && typeof (v as { size?: unknown }).size === 'number' ? (v as { size: number }).size : 0);
const isList = (v: unknown) => !!v && typeof (v as { toJS?: unknown }).toJS === 'function' && typeof (v as { push?: unknown }).push === 'function';

/** Whether '' is a value the field keeps (its pattern takes it, as `''` in a union of addresses). */
const keepsEmpty = (f: Field) => f.required !== false || (f.pattern !== undefined && new RegExp(f.pattern[0]).test(''));

/** The paths under `at` of optional fields holding '' (or null), deepest first. */
export function emptyOptionalPaths(fields: Field[], data: Data, at: unknown[] = []): unknown[][] {
  const out: unknown[][] = [];
  for (const f of fields) {
    const here = [...at, f.name];
    const value = data.getIn(here);
    if (f.widget === 'object' && f.fields) out.push(...emptyOptionalPaths(f.fields, data, here));
    else if (f.widget === 'list' && f.fields && isList(value)) for (let i = 0; i < sizeOf(value); i++) out.push(...emptyOptionalPaths(f.fields, data, [...here, i]));
    else if ((value === '' || value === null) && !keepsEmpty(f)) out.push(here);
  }
  return out;
}

/** The data with every optional field that holds nothing removed. */
export function withoutEmptyOptional<T extends Data>(fields: Field[], data: T): T {
  return emptyOptionalPaths(fields, data).reduce<Data>((d, p) => d.deleteIn(p), data) as T;
}
