import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
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

/** Only the data and the errors, keeping no syntax tree: for a worker thread, whose result is cached. */
export function readYaml(text: string, file: string, lineOffset = 0): Pick<ParsedYaml, 'data' | 'errors'> {
  const { data, errors } = parseYamlAfresh(text, file, lineOffset);
  return { data, errors };
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
  return {
    data: errors.length ? undefined : doc.toJS(),
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
