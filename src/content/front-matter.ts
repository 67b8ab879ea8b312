import matter from 'gray-matter';
import type { ContentError } from './errors.ts';
import { readYaml } from './yaml.ts';

/** A markdown file's front matter, read, and its body, with the lines before each so that errors name the file's own lines. */
export interface FrontMatter {
  /** The front matter's text: from just after the opening '---' (its line break included) to the closing '\n---'. */
  front: string;
  frontLine: number;
  /** The front matter parsed by the yaml package (gray-matter's engine here), and its errors with their lines. */
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

/**
 * gray-matter splits the file; its YAML engine is the yaml package with positions kept (js-yaml,
 * its default, would lose the lines of a bad field). gray-matter's cache is off: it is used only
 * without options, and would keep every file of a large blog.
 */
export function readFrontMatter(source: string, file: string): FrontMatter {
  let read: { data: unknown; errors: ContentError[] } | undefined;
  let frontLine = 0;
  const yaml = (text: string) => {
    frontLine = linesBefore(source, source.indexOf(text));
    read = readYaml(text, file, frontLine);
    return {};
  };
  let parsed: { matter?: string; content: string; language?: string };
  try {
    parsed = matter(source, { engines: { yaml } });
  } catch (error) {
    // Only a language gray-matter has no engine for ('---toml'): the site's front matter is YAML.
    const message = `has front matter that is not YAML (${error instanceof Error ? error.message : String(error)})`;
    return { front: '', frontLine: 0, data: undefined, errors: [{ file, line: 1, path: '', message, hint: 'open the file with a line of three dashes, ---, and write YAML' }], body: '', bodyLine: 0 };
  }
  const front = parsed.matter ?? '';
  if (!read) {
    // Empty or absent front matter: gray-matter calls no engine, and the schema still reports what is missing.
    frontLine = front ? linesBefore(source, source.indexOf(front)) : 0;
    read = readYaml(front, file, frontLine);
  }
  const body = parsed.content;
  return { front, frontLine, data: read.data, errors: read.errors, body, bodyLine: linesBefore(source, source.length - body.length) };
}

/** The front matter's text and the body, as readFrontMatter splits them. */
export function splitFrontMatter(source: string): { front: string; body: string } {
  const { front, body } = readFrontMatter(source, '');
  return { front, body };
}
