// What Decap CMS's widgets can produce for a field of the generated config, as fast-check arbitraries.
import fc from 'fast-check';
import type { CmsField } from '../../src/cms/fields.ts';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const day = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true });
const words = fc.array(fc.constantFrom('Data', 'quality', 'AI', 'Governance', 'Culture', 'Scotland', 'skills', 'Café'), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));

/** Strings the expression matches (fast-check knows neither \\b nor look-aheads: those made without them, kept where the whole expression holds). */
const matching = (re: RegExp) => {
  const loose = re.source.replace(/\\b/g, '').replace(/\(\?[=!][^()]*\)/g, '');
  return loose === re.source ? fc.stringMatching(re) : fc.stringMatching(new RegExp(loose)).filter((s) => re.test(s));
};

/** A value the field's widget can hand to the serialiser, or undefined (left empty: omitted, see omit_empty_optional_fields). */
export function widgetValue(field: CmsField): fc.Arbitrary<unknown> {
  const value = filled(field);
  return field.required === false && field.widget !== 'boolean' ? fc.option(value, { nil: undefined }) : value;
}

function filled(field: CmsField): fc.Arbitrary<unknown> {
  switch (field.widget) {
    case 'string':
    case 'text':
    case 'image':
      // Decap refuses a value its pattern does not match; with none, any text (a required one not empty).
      return field.pattern ? matching(new RegExp(field.pattern[0])) : field.required === false ? fc.string() : fc.string({ minLength: 1 });
    case 'markdown':
      return fc.array(fc.constantFrom('Plain words.', '## A heading', '- a list item', '**bold** text', 'A [link](/contact).'), { maxLength: 6 }).map((lines) => lines.join('\n\n'));
    case 'date':
      return day.map((d) => (!field.time ? d.toISOString().slice(0, 10) : `${d.toISOString().slice(0, 10)}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00+00:00`));
    case 'boolean':
      return field.required === false && field.default === undefined ? fc.option(fc.boolean(), { nil: undefined }) : fc.boolean();
    case 'number':
      return fc.integer({ min: field.min ?? -1000, max: field.max ?? 1000 });
    case 'select':
      return fc.constantFrom(...field.options!);
    case 'categories':
      return fc.uniqueArray(fc.oneof(fc.constantFrom(...(field.options?.length ? field.options : ['Data'])), words), { maxLength: 3 });
    case 'object':
      return record(field.fields!);
    case 'list': {
      const item = field.fields ? record(field.fields) : filled(field.field!);
      return fc.array(item, { minLength: field.min ?? 0, maxLength: field.max ?? Math.max(field.min ?? 0, 4) });
    }
    default:
      throw new Error(`${field.name}: no values for the widget ${field.widget}`);
  }
}

/** An object of the fields' values, the empty ones left out. */
export function record(fields: CmsField[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(...fields.map(widgetValue)).map((values) => Object.fromEntries(fields.map((f, i) => [f.name, values[i]]).filter(([, v]) => v !== undefined)));
}
