// A zod schema of the build read as Decap CMS fields: the widget, the label, whether it is required,
// the list's shape, the choices and the limits, each taken from the schema itself, so that the CMS's
// forms and the build's validation are written once.
import type { z } from 'zod';

/** A field of Decap CMS's config (the subset this site's schemas need). */
export interface CmsField {
  name: string;
  label: string;
  widget: string;
  required?: boolean;
  hint?: string;
  /** Decap's pattern: a regular expression's source (no flags) and the message shown when it fails. */
  pattern?: [string, string];
  min?: number;
  max?: number;
  value_type?: 'int';
  options?: string[];
  multiple?: boolean;
  default?: unknown;
  fields?: CmsField[];
  field?: CmsField;
  /** The markdown widget's editing modes. */
  modes?: Array<'raw' | 'rich_text'>;
  /** The date widget's optional time of day. */
  time?: boolean;
  /** The title a list item is shown by, in the list. */
  summary?: string;
  /** Rules the form cannot express, checked when the entry is saved (see local-backend.ts). */
  saveRules?: string[];
}

/** What a caller decides beyond the schema: a widget for a field by its path ('image.src', 'date'). */
export type FieldOverride = Partial<CmsField> | ((generated: CmsField) => CmsField);
export interface FieldOptions {
  overrides?: Record<string, FieldOverride>;
  /** Filled with each field path met, so that an override naming no field can be told. */
  seen?: Set<string>;
}

/** Fields an author writes sentences in: a text area rather than one line. */
const LONG = new Set(['text', 'excerpt', 'description', 'bio', 'answer', 'quote', 'challenge', 'aboutClient', 'lead', 'intro', 'summary', 'note', 'noScript', 'paragraphs', 'solution', 'results', 'whyUs', 'problems', 'happens', 'outcome', 'questionsLead', 'contactLead']);

/** 'metaDescription' → 'Meta description', 'faq' → 'FAQ'. */
export function labelOf(name: string): string {
  if (name === 'faq') return 'FAQ';
  if (name === 'url') return 'URL';
  if (name === 'src') return 'Image file';
  if (name === 'alt') return 'Alt text (what the image shows, for screen readers)';
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def) => ((def.checks as Array<{ _zod: { def: Record<string, unknown> } }> | undefined) ?? []).map((c) => c._zod.def);
const messageOf = (check: Record<string, unknown>, fallback: string): string => {
  const error = check.error as ((issue: unknown) => unknown) | undefined;
  const said = typeof error === 'function' ? error({}) : undefined;
  return typeof said === 'string' ? said : typeof (said as { message?: unknown })?.message === 'string' ? (said as { message: string }).message : fallback;
};

/** A case-insensitive expression spelt without the flag (Decap compiles a pattern without flags). */
function withoutFlags(re: RegExp): string {
  if (!re.flags.includes('i')) return re.source;
  return re.source.replace(/\\.|\[[^\]]*\]|[a-zA-Z]/g, (m) => (m.length === 1 ? `[${m.toUpperCase()}${m.toLowerCase()}]` : m));
}

/** Anchored at both ends, so that Decap's test (`RegExp.test`) means the whole value. */
const anchored = (source: string) => (source.startsWith('^') ? source : `^[\\s\\S]*?${source}`) + (source.endsWith('$') && !source.endsWith('\\$') ? '' : '[\\s\\S]*$');

/** Trimmed text of `min` to `max` characters, as one expression without look-arounds. */
function lengthPattern(min: number, max: number | undefined, trimmed: boolean): string {
  const upper = max === undefined ? '' : String(Math.max(max - 2, 0));
  if (!trimmed) return `^[\\s\\S]{${min},${max ?? ''}}$`;
  // One character, or two and what lies between them.
  if (min <= 1) return `^\\s*\\S(?:[\\s\\S]{0,${upper}}\\S)?\\s*$`;
  return `^\\s*\\S[\\s\\S]{${Math.max(min - 2, 0)},${upper}}\\S\\s*$`;
}

/** A web address a URL parser takes: a host of dotted labels, the last opening with a letter (else it reads as an IPv4 address), then a path and query of plain characters. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const webAddress = (scheme: string) => `^${scheme}://${LABEL}(?:\\.${LABEL})*\\.[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:/[A-Za-z0-9._~!$&'()*+,;=:@/-]*)?(?:\\?[A-Za-z0-9._~!$&'()*+,;=:@/?-]*)?$`;

interface StringRule { pattern?: [string, string]; hint?: string }

/** The one pattern a string schema comes to: its expression, else its length. */
function stringRule(def: Def): StringRule {
  const checks = checksOf(def);
  const trimmed = checks.some((c) => c.check === 'overwrite');
  let min: number | undefined;
  let max: number | undefined;
  let tooShort = 'must not be empty';
  let tooLong = '';
  const patterns: Array<[string, string]> = [];
  if (def.format === 'url') patterns.push([webAddress((def.protocol as RegExp | undefined)?.source === '^https$' ? 'https' : 'https?'), 'expected a web address such as https://www.example.com']);
  // zod's own expression for the formats that have one (e-mail): the form is held to what the schema checks.
  if (def.format === 'email' && def.pattern instanceof RegExp) patterns.push([withoutFlags(def.pattern), 'expected an e-mail address such as hello@example.com']);
  for (const check of checks) {
    if (check.check === 'min_length') { min = check.minimum as number; if (min > 1) tooShort = messageOf(check, `must be at least ${min} characters`); }
    if (check.check === 'max_length') { max = check.maximum as number; tooLong = messageOf(check, `must be at most ${max} characters`); }
    if (check.check === 'string_format' && check.format === 'regex') patterns.push([anchored(withoutFlags(check.pattern as RegExp)), messageOf(check, 'is not in the expected form')]);
    if (check.check === 'string_format' && check.format === 'url') patterns.push([webAddress('https?'), 'expected a web address such as https://www.example.com']);
  }
  if (patterns.length) return { pattern: patterns[0], hint: patterns.length > 1 ? patterns.slice(1).map((p) => p[1]).join('; ') : undefined };
  // The limit is said beside the field before it is met, and the field's message says it once passed.
  if (min !== undefined || max !== undefined) return { pattern: [lengthPattern(min ?? 0, max, trimmed), max !== undefined ? tooLong || tooShort : tooShort], ...(max !== undefined ? { hint: `At most ${max} characters.` } : {}) };
  return {};
}

/** A union of strings (a path, an address or a mailto: link; '' or an address): one pattern of alternatives. */
function unionRule(options: Def[]): { rule: StringRule; empty: boolean } | undefined {
  let empty = false;
  const sources: string[] = [];
  const words: string[] = [];
  for (const o of options) {
    if (o.type === 'literal' && (o.values as unknown[]).length === 1 && (o.values as unknown[])[0] === '') { empty = true; continue; }
    if (o.type !== 'string') return undefined;
    const rule = stringRule(o);
    if (!rule.pattern) return { rule: {}, empty };
    sources.push(rule.pattern[0]);
    words.push(rule.pattern[1]);
  }
  if (!sources.length) return { rule: {}, empty };
  return { rule: { pattern: [sources.length === 1 ? sources[0]! : sources.map((s) => `(?:${s})`).join('|'), words.join(', or ')] }, empty };
}

/** Decap's field for the schema `schema` at `name` (`at`: its path from the collection's root, for overrides). */
export function fieldOf(name: string, schema: z.ZodType, options: FieldOptions = {}, at = name): CmsField {
  let def = defOf(schema);
  let required = true;
  let fallback: unknown;
  const saveRules: string[] = [];
  for (;;) {
    if (def.type === 'optional') { required = false; def = defOf(def.innerType); continue; }
    if (def.type === 'default' || def.type === 'prefault') {
      required = false;
      const value = def.defaultValue;
      fallback = typeof value === 'function' ? (value as () => unknown)() : value;
      def = defOf(def.innerType);
      continue;
    }
    break;
  }
  const field: CmsField = { name, label: labelOf(name), widget: 'string' };
  if (!required) field.required = false;
  if (fallback !== undefined && (typeof fallback !== 'object' || Array.isArray(fallback))) field.default = fallback;
  for (const check of checksOf(def)) if (check.check === 'custom') saveRules.push(`${at}: ${messageOf(check, 'a rule across fields')}`);

  switch (def.type) {
    case 'string': {
      const rule = stringRule(def);
      field.widget = LONG.has(name) ? 'text' : 'string';
      if (rule.pattern) field.pattern = rule.pattern;
      if (rule.hint) field.hint = rule.hint;
      break;
    }
    case 'number': {
      field.widget = 'number';
      for (const c of checksOf(def)) {
        if (c.check === 'number_format' && /int/.test(String(c.format))) field.value_type = 'int';
        if (c.check === 'greater_than') field.min = (c.value as number) + (c.inclusive ? 0 : 1);
        if (c.check === 'less_than') field.max = (c.value as number) - (c.inclusive ? 0 : 1);
      }
      if (def.format && /int/.test(String(def.format))) field.value_type = 'int';
      if (field.value_type === undefined) field.value_type = 'int';
      break;
    }
    case 'boolean':
      field.widget = 'boolean';
      break;
    case 'enum':
      field.widget = 'select';
      field.options = Object.values(def.entries as Record<string, string>);
      break;
    case 'literal':
      field.widget = 'select';
      field.options = (def.values as unknown[]).map(String);
      if (required && field.options.length === 1) field.default = field.options[0];
      break;
    case 'union': {
      const union = unionRule((def.options as z.ZodType[]).map(defOf));
      if (!union) throw new Error(`${at}: a union the CMS has no widget for`);
      if (union.empty) field.required = false;
      if (union.rule.pattern) field.pattern = union.empty ? [`^$|${union.rule.pattern[0]}`, `${union.rule.pattern[1]}, or empty`] : union.rule.pattern;
      break;
    }
    case 'array': {
      field.widget = 'list';
      const element = def.element as z.ZodType;
      const inner = fieldOf(name, element, options, `${at}[]`);
      if (inner.widget === 'object' && inner.fields) {
        field.fields = inner.fields;
        field.summary = `{{fields.${inner.fields[0]!.name}}}`;
        if (inner.saveRules) saveRules.push(...inner.saveRules);
      } else {
        field.field = { ...inner, label: labelOf(name) };
        delete field.field.saveRules;
      }
      for (const c of checksOf(def)) {
        if (c.check === 'min_length') field.min = c.minimum as number;
        if (c.check === 'max_length') field.max = c.maximum as number;
        if (c.check === 'length_equals') { field.min = c.length as number; field.max = c.length as number; }
      }
      break;
    }
    case 'object': {
      field.widget = 'object';
      field.fields = objectFields(schema, options, at);
      for (const f of field.fields) if (f.saveRules) { saveRules.push(...f.saveRules); delete f.saveRules; }
      // Decap asks for an optional object's required fields even when the author leaves it out: they
      // are optional in the form, and their being needed once the object is filled in is checked on save.
      if (!required) {
        field.fields = field.fields.map((f) => {
          if (f.required === false) return f;
          saveRules.push(`${at}.${f.name}: needed once ${at} is filled in`);
          return { ...f, required: false };
        });
      }
      break;
    }
    default:
      throw new Error(`${at}: a ${def.type} field the CMS has no widget for`);
  }
  if (saveRules.length) field.saveRules = saveRules;
  options.seen?.add(at);
  const override = options.overrides?.[at];
  if (!override) return field;
  return typeof override === 'function' ? override(field) : { ...field, ...override };
}

/** The fields of an object schema (optional, default and refinement wrappers looked through). */
export function objectFields(schema: z.ZodType, options: FieldOptions = {}, at = ''): CmsField[] {
  let def = defOf(schema);
  while (def.type !== 'object') {
    if (!('innerType' in def)) throw new Error(`${at || 'the schema'}: expected an object schema, got ${def.type}`);
    def = defOf(def.innerType);
  }
  return Object.entries(def.shape as Record<string, z.ZodType>).map(([name, s]) => fieldOf(name, s, options, at ? `${at}.${name}` : name));
}

/** The rules of an object schema that no field carries (its refinements across fields). */
export function schemaRules(schema: z.ZodType, at = ''): string[] {
  return checksOf(defOf(schema)).filter((c) => c.check === 'custom').map((c) => `${at || 'entry'}: ${messageOf(c, 'a rule across fields')}`);
}
