// A CMS save written back into the YAML file it edits as an author would edit it: the file's own text
// with only the changed values rewritten, in their own style (plain, quoted, folded or literal) and
// with their line breaks kept outside the changed words. Its comments, key order and layout stay.
// A change of shape (a key or list item added or removed) is applied through the yaml package's
// document, which keeps the comments and order but lays the file out afresh.
import { isMap, isScalar, isSeq, parseDocument, stringify, type Document, type Node, Scalar } from 'yaml';

interface Edit { from: number; to: number; text: string }

/** Whether two values read from YAML hold the same data, a mapping's keys in any order (the CMS's client uses this too: no node:util). */
function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameData(x, b[i]));
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && sameData(x[k], y[k]));
}

/** `saved` (the CMS's text of the file) as an edit of `existing` (the file as it is): the same data, `existing`'s style. */
export function keepYamlStyle(existing: string, saved: string): string {
  const wanted = parseDocument(saved).toJS() as unknown;
  const doc = parseDocument(existing);
  if (doc.errors.length || !doc.contents) return saved;
  const same = (text: string) => { const d = parseDocument(text); return !d.errors.length && sameData(d.toJS(), wanted); };
  for (const folded of [true, false]) {
    const edits: Edit[] = [];
    if (!scalarEdits(existing, doc.contents, wanted, edits, folded)) break;
    const text = applyEdits(existing, edits);
    if (same(text)) return text;
  }
  const merged = mergeInto(doc, wanted);
  return same(merged) ? merged : saved;
}

/** The front matter of a markdown file kept as keepYamlStyle keeps a YAML file; the body as saved. */
export function keepFrontMatterStyle(existing: string, saved: string): string {
  const split = (text: string) => /^(---\r?\n)([\s\S]*?\r?\n)(---\r?\n?[\s\S]*)$/.exec(text);
  const [a, b] = [split(existing), split(saved)];
  if (!a || !b) return saved;
  return `${a[1]}${keepYamlStyle(a[2]!, b[2]!)}${b[3]}`;
}

function applyEdits(text: string, edits: Edit[]): string {
  let out = text;
  // From the end back; at one place, a removal before an insertion.
  for (const e of [...edits].sort((x, y) => y.from - x.from || y.to - x.to)) out = out.slice(0, e.from) + e.text + out.slice(e.to);
  return out;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

const lineStart = (text: string, at: number) => text.lastIndexOf('\n', at - 1) + 1;
/** The end of the line `at` is on (after its newline), or `at` itself when a newline ends just before it. */
const lineEnd = (text: string, at: number) => {
  if (text[at - 1] === '\n') return at;
  const i = text.indexOf('\n', at);
  return i === -1 ? text.length : i + 1;
};
/** `data` printed as block YAML, each line indented `col` columns. */
const printedAt = (data: unknown, col: number) => stringify(data, { lineWidth: 0 }).replace(/^(?=.)/gm, ' '.repeat(col));
const endOf = (node: Node) => node.range![1];

/**
 * The edits that turn `node` into `value`: changed scalars rewritten, keys and list items added or
 * removed as lines of their own; false when the change is of another shape (a flow collection, a
 * value that changes kind), which the document API then makes.
 */
function scalarEdits(text: string, node: unknown, value: unknown, edits: Edit[], folded: boolean): boolean {
  if (isScalar(node)) {
    if (sameData(node.value, value)) return true;
    if (value !== null && typeof value === 'object') return false;
    edits.push(scalarEdit(text, node, value, folded));
    return true;
  }
  if (sameData(isMap(node) || isSeq(node) ? node.toJSON() : undefined, value)) return true;
  if (isMap(node)) {
    if (!isPlainObject(value) || !node.items.length) return false;
    const col = (at: number) => at - lineStart(text, at);
    const first = node.items[0]!.key as Node;
    const indent = col(first.range![0]);
    let after = lineStart(text, first.range![0]);
    const pairs = new Map(node.items.map((p) => [isScalar(p.key) ? p.key.value : undefined, p]));
    for (const [key, v] of Object.entries(value)) {
      const pair = pairs.get(key);
      if (!pair) {
        if (node.flow) return false;
        edits.push({ from: after, to: after, text: printedAt({ [key]: v }, indent) });
        continue;
      }
      if (!isScalar(pair.value) && !isMap(pair.value) && !isSeq(pair.value)) return false;
      if (!scalarEdits(text, pair.value, v, edits, folded)) return false;
      after = lineEnd(text, endOf(pair.value));
    }
    for (const [key, pair] of pairs) {
      if (typeof key === 'string' && key in value) continue;
      if (typeof key !== 'string' || !pair.value || pair.key === first || node.flow) return false;
      edits.push({ from: lineStart(text, (pair.key as Node).range![0]), to: lineEnd(text, endOf(pair.value as Node)), text: '' });
    }
    return true;
  }
  if (isSeq(node)) {
    if (!Array.isArray(value) || !node.items.length) return false;
    const items = node.items as Node[];
    const shared = Math.min(items.length, value.length);
    for (let i = 0; i < shared; i++) if (!scalarEdits(text, items[i], value[i], edits, folded)) return false;
    if (value.length === items.length) return true;
    if (node.flow) return false;
    // The column of the items' dash.
    let dash = items[0]!.range![0] - 1;
    while (text[dash] === ' ') dash--;
    if (text[dash] !== '-') return false;
    const last = lineEnd(text, endOf(items[items.length - 1]!));
    if (value.length > items.length) edits.push({ from: last, to: last, text: printedAt(value.slice(items.length), dash - lineStart(text, dash)) });
    if (value.length < items.length) {
      if (value.length === 0) return false;
      edits.push({ from: lineEnd(text, endOf(items[value.length - 1]!)), to: last, text: '' });
    }
    return true;
  }
  return false;
}

/** One scalar rewritten: its changed lines only, in its style, when `folded`; else on one line, double-quoted. */
function scalarEdit(text: string, node: Scalar, value: unknown, folded: boolean): Edit {
  const [from, to] = node.range!;
  const source = text.slice(from, to);
  const oneLine = typeof value === 'string' ? JSON.stringify(value) : String(value);
  if (!folded || typeof value !== 'string' || typeof node.value !== 'string') return { from, to: from + source.trimEnd().length, text: oneLine };
  const kept = keptLines(source, node, node.value, value);
  return kept === undefined ? { from, to: from + source.trimEnd().length, text: oneLine } : { from, to, text: kept };
}

/**
 * A plain, folded or literal scalar's source with only the lines that hold the change rewritten: the
 * old value is its lines joined (by a space when folded, a newline when literal), so each line's
 * place in the value is known, and the lines before and after the change are kept as they were.
 */
function keptLines(source: string, node: Scalar, before: string, after: string): string | undefined {
  const block = node.type === Scalar.BLOCK_FOLDED || node.type === Scalar.BLOCK_LITERAL;
  if (!block && node.type !== Scalar.PLAIN) return undefined;
  const header = block ? source.slice(0, source.indexOf('\n') + 1) : '';
  const trailing = /\n*$/.exec(source)![0];
  const lines = source.slice(header.length, source.length - trailing.length).split('\n');
  const indent = lines.map((l) => /^[ \t]*/.exec(l)![0]);
  const words = lines.map((l, i) => l.slice(indent[i]!.length));
  const sep = node.type === Scalar.BLOCK_LITERAL ? '\n' : ' ';
  if (words.join(sep) !== before || (sep === ' ' && words.some((w) => !w || /\s$/.test(w)))) return undefined;
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < before.length - prefix && suffix < after.length - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  // Each line's span in the old value; the first and last lines the change touches.
  const starts: number[] = [];
  let at = 0;
  for (const w of words) { starts.push(at); at += w.length + sep.length; }
  const ends = words.map((w, i) => starts[i]! + w.length);
  const changeEnd = before.length - suffix;
  let first = starts.findIndex((s, i) => ends[i]! >= prefix && s <= prefix);
  let last = ends.findIndex((e) => e >= changeEnd);
  if (first < 0) first = 0;
  if (last < first) last = first;
  const middle = after.slice(starts[first]!, after.length - (before.length - ends[last]!));
  const rewritten = [...lines.slice(0, first), `${indent[first]}${middle}`, ...lines.slice(last + 1)];
  return header + rewritten.join('\n') + trailing;
}

/** The document changed to `value` through its own API (comments and key order kept), then printed. */
function mergeInto(doc: Document, value: unknown): string {
  doc.contents = merged(doc, doc.contents as Node, value) as typeof doc.contents;
  return doc.toString();
}

function merged(doc: Document, node: Node | null, value: unknown): unknown {
  if (isMap(node) && isPlainObject(value)) {
    for (const pair of [...node.items]) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      if (typeof key !== 'string' || !(key in value)) node.delete(pair.key);
    }
    for (const [key, v] of Object.entries(value)) {
      const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
      if (pair) pair.value = merged(doc, pair.value as Node, v) as Node;
      else node.set(key, doc.createNode(v));
    }
    return node;
  }
  if (isSeq(node) && Array.isArray(value)) {
    node.items = value.map((v, i) => merged(doc, (node.items[i] as Node | undefined) ?? null, v)) as typeof node.items;
    return node;
  }
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    if (!sameData(node.value, value)) node.value = value;
    return node;
  }
  return doc.createNode(value);
}
