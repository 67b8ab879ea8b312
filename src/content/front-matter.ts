import type { ContentError } from './errors.ts';
import { readYaml } from './yaml.ts';

/** A markdown file's front matter, read, and its body, with the lines before each so that errors name the file's own lines. */
export interface FrontMatter {
  /** The front matter's text: from just after the opening '---' (its line break included) to the closing '\n---'. */
  front: string;
  frontLine: number;
  /** The front matter parsed (see yaml.ts), and its errors with their lines. */
  data: unknown;
  errors: ContentError[];
  /** The body, from the line after the closing delimiter. */
  body: string;
  bodyLine: number;
}

const linesBefore = (source: string, at: number) => {
  let n = 0;
  for (let i = source.indexOf('\n'); i !== -1 && i < at; i = source.indexOf('\n', i + 1)) n++;
  return n;
};

const OPEN = '---';
const CLOSE = '\n---';

/** A markdown file cut where gray-matter 4 cuts it: the front matter's text (absent: none), the body, and the language its opening line names. */
export interface FrontSplit { matter?: string; content: string; language: string }

/**
 * gray-matter 4's split, as this generator called it (YAML, the default delimiters, no excerpt), in
 * a few lines of its own: the package built option objects three times per file and turned each
 * whole file into a Buffer it never used (0.19 ms an article, 93 ms of each build worker at 1,000
 * articles), and its load (js-yaml 3 and esprima, for engines never called) cost every thread some
 * 35 ms. tests/content/front-matter-split.test.ts holds the two to the same answers.
 * What it does: a BOM dropped; front matter only when the file opens with exactly three dashes; a
 * word after them names the language; the text runs to the first line that opens with `---` (to the
 * end of the file if none, leaving no body); the body starts after the rest of that line's `---`,
 * less one line break.
 */
export function splitFront(input: string): FrontSplit {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (!text.startsWith(OPEN) || text.charAt(OPEN.length) === '-') return { content: text, language: 'yaml' };
  let rest = text.slice(OPEN.length);
  const length = rest.length;
  const raw = rest.slice(0, rest.search(/\r?\n/));
  const language = raw.trim();
  if (language) rest = rest.slice(raw.length);
  const close = rest.indexOf(CLOSE);
  if (close === -1) return { matter: rest.slice(0, length), content: '', language: language || 'yaml' };
  let content = rest.slice(close + CLOSE.length);
  if (content[0] === '\r') content = content.slice(1);
  if (content[0] === '\n') content = content.slice(1);
  return { matter: rest.slice(0, close), content, language: language || 'yaml' };
}

/** Front matter with nothing but comments and blank space: no parser is asked (the schema still reports what is missing). */
const isBlank = (matter: string) => matter.replace(/^\s*#[^\n]+/gm, '').trim() === '';

/**
 * The file split (`splitFront`) and its front matter read by the yaml package's rules, with
 * positions kept, so that a bad field names its line (see yaml.ts). Only YAML is read: an opening
 * line naming another language is an error (gray-matter would have run `---js` front matter as code).
 */
export function readFrontMatter(source: string, file: string): FrontMatter {
  const { matter, content: body, language } = splitFront(source);
  const front = matter ?? '';
  if (!isBlank(front) && !/^(?:yaml|yml)$/i.test(language)) {
    const message = `has front matter that is not YAML (its opening line names ${JSON.stringify(language)})`;
    return { front: '', frontLine: 0, data: undefined, errors: [{ file, line: 1, path: '', message, hint: 'open the file with a line of three dashes, ---, and write YAML' }], body: '', bodyLine: 0 };
  }
  const frontLine = front ? linesBefore(source, source.indexOf(front)) : 0;
  const read = readYaml(front, file, frontLine);
  return { front, frontLine, data: read.data, errors: read.errors, body, bodyLine: linesBefore(source, source.length - body.length) };
}

/** The front matter's text and the body, as readFrontMatter splits them. */
export function splitFrontMatter(source: string): { front: string; body: string } {
  const { front, body } = readFrontMatter(source, '');
  return { front, body };
}
