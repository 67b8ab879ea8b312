import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { load } from 'js-yaml';
import type { ContentError } from './errors.ts';

/** YAML parsed with positions kept, so that a bad field can be reported with its line. */
export interface ParsedYaml {
  data: unknown;
  lineOf(path: readonly PropertyKey[]): number | undefined;
  errors: ContentError[];
}

/**
 * The last parse of each file, reused while its text is the same: `site serve` rebuilds after every
 * save, and parsing every YAML file again was most of a rebuild's time. Bounded, so that a blog of
 * thousands of articles does not keep every front matter's syntax tree.
 */
const recent = new Map<string, { text: string; parsed: ParsedYaml }>();
const RECENT_MAX = 1000;

export function parseYaml(text: string, file: string, lineOffset = 0): ParsedYaml {
  const key = `${file}\0${lineOffset}`;
  const hit = recent.get(key);
  if (hit?.text === text) return hit.parsed;
  const parsed = parseYamlAfresh(text, file, lineOffset);
  recent.delete(key);
  recent.set(key, { text, parsed });
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
  return parsed;
}

/**
 * Only the data and the errors, keeping no syntax tree: for a worker thread, whose result is cached.
 * Every article's front matter comes through here, so the common case is read the fast way (see
 * `quickRead`); anything else, and every error, by the yaml package, which gives the lines.
 */
export function readYaml(text: string, file: string, lineOffset = 0): Pick<ParsedYaml, 'data' | 'errors'> {
  const quick = quickRead(text);
  if (quick !== undefined) return { data: quick, errors: [] };
  const { data, errors } = parseYamlAfresh(text, file, lineOffset);
  return { data, errors };
}

/**
 * A tag (`!foo`, `!!float`) or a directive (`%YAML`): js-yaml refuses some tags the yaml package
 * reads, and `!!float 1` and `%YAML 1.1` come out differently, so a text with either is left to the
 * yaml package. A false alarm ('Hello !world' in a sentence) costs only the slower reading.
 */
const LEFT_TO_YAML = /(?:^|[\s,[{])![^\s,[\]{}]|^%/m;

/**
 * The front matter read by js-yaml, which reads YAML 1.2 with the core schema as the yaml package
 * does, some seven times as fast (20 µs against 140 µs on an article's front matter); a thousandth of
 * a second per article was a tenth of a worker's time on a large blog. Taken only when it is a
 * mapping read without error, without the constructs above and without aliases (which only the yaml
 * package counts and limits); anything else goes to the yaml package, so the data and the errors are
 * the yaml package's. tests/content/yaml-quick.test.ts holds the two parsers to the same data.
 */
export function quickRead(text: string): Record<string, unknown> | undefined {
  if (LEFT_TO_YAML.test(text)) return undefined;
  let value: unknown;
  try { value = load(text, { maxAliases: 0 }); } catch { return undefined; }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
}

function parseYamlAfresh(text: string, file: string, lineOffset: number): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const errors: ContentError[] = doc.errors.map((err) => ({
    file,
    line: err.linePos?.[0]?.line !== undefined ? err.linePos[0].line + lineOffset : undefined,
    path: '',
    message: `is not valid YAML: ${err.message.split('\n')[0]}`,
  }));
  for (const err of doc.errors) {
    const at = errors.find((e) => e.line === undefined);
    if (at && typeof err.pos?.[0] === 'number') at.line = lineCounter.linePos(err.pos[0]).line + lineOffset;
  }
  let data: unknown;
  if (!errors.length) {
    // toJS throws where the document is valid YAML but cannot be made data: aliases multiplied past
    // the yaml package's limit (a document that would take the machine's memory), say.
    try { data = doc.toJS(); } catch (error) {
      errors.push({ file, line: lineOffset + 1, path: '', message: `is not valid YAML: ${error instanceof Error ? error.message : String(error)}`, hint: 'use each &anchor a few times at most, or write the values out' });
    }
  }
  return {
    data,
    errors,
    lineOf(path) {
      // The deepest node that exists on the path: a missing field points at its parent.
      for (let n = path.length; n >= 0; n--) {
        const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n) as unknown[], true);
        if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line + lineOffset;
      }
      return undefined;
    },
  };
}
