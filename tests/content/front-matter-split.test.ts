// The front matter's split (src/content/front-matter.ts) held to gray-matter's, which it replaced:
// the reader as it was with gray-matter is the reference here, and every file of the site, a set of
// hand-made variants and a few thousand random ones must read the same through both, front matter,
// lines, data, errors and body alike. Only the message for a language other than YAML differs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { readFrontMatter, splitFront, type FrontMatter } from '../../src/content/front-matter.ts';
import { readYaml } from '../../src/content/yaml.ts';

const linesBefore = (source: string, at: number) => {
  let n = 0;
  for (let i = source.indexOf('\n'); i !== -1 && i < at; i = source.indexOf('\n', i + 1)) n++;
  return n;
};

/** readFrontMatter as it was, with gray-matter splitting the file and calling the YAML reader as its engine. */
function throughGrayMatter(source: string, file: string): FrontMatter {
  let read: { data: unknown; errors: FrontMatter['errors'] } | undefined;
  let frontLine = 0;
  const yaml = (text: string) => {
    frontLine = linesBefore(source, source.indexOf(text));
    read = readYaml(text, file, frontLine);
    return {};
  };
  let parsed: { matter?: string; content: string };
  try {
    parsed = matter(source, { engines: { yaml } });
  } catch {
    return { front: '', frontLine: 0, data: undefined, errors: [{ file, line: 1, path: '', message: 'not YAML' }], body: '', bodyLine: 0 };
  }
  const front = parsed.matter ?? '';
  if (!read) {
    frontLine = front ? linesBefore(source, source.indexOf(front)) : 0;
    read = readYaml(front, file, frontLine);
  }
  const body = parsed.content;
  return { front, frontLine, data: read.data, errors: read.errors, body, bodyLine: linesBefore(source, source.length - body.length) };
}

/** Both readers' answers, with the wording of a not-YAML error set aside. */
function expectSame(source: string) {
  const ours = readFrontMatter(source, 'content/blog/a.md');
  const theirs = throughGrayMatter(source, 'content/blog/a.md');
  const plain = (r: FrontMatter) => ({ ...r, errors: r.errors.map((e) => (/not YAML \(/.test(e.message) || e.message === 'not YAML' ? { ...e, message: 'not YAML', hint: undefined } : e)) });
  expect(plain(ours), JSON.stringify(source)).toEqual(plain(theirs));
}

const VARIANTS = [
  '', '---', '---\n', '----\ntitle: A\n---\nBody', '---\ntitle: A\n---\nBody\n', '---\r\ntitle: A\r\n---\r\nBody\r\n',
  '---\ntitle: A\n----\nBody', '---\ntitle: A\n--- trailing\nBody', '---\ntitle: A\n---\r\r\nBody', '---\ntitle: A\n---\n\nBody',
  '---\ntitle: A', '---\ntitle: A\n', '---yaml\ntitle: A\n---\nBody', '--- YAML \ntitle: A\n---\nBody', '---yml\ntitle: A\n---\n',
  '---toml\ntitle = "A"\n---\nBody', '---toml\n# only a comment\n---\nBody', '---toml\n---\nBody', '---title: A', '---title: A\n---\n',
  '\ufeff---\ntitle: A\n---\nBody', '\ufeffNo front matter', '# Heading\n---\ntitle: A\n---\n', ' ---\ntitle: A\n---\n',
  '---\n# a comment\n---\nBody', '---\n   \n---\nBody', '---\n---\nBody', '---\n---\n---\nBody', '---\ntitle: [unclosed\n---\nBody',
  '---\ntitle: A\ntitle: B\n---\nBody', '---\n- a list\n---\nBody', '---\ntitle: A\n---', '---\ntitle: A\n---x', '---\r\n---\r\n',
  '---\ntitle: "Data you can trust"\ndate: 2026-03-02\ncategories: [Data Strategy]\n---\n\nThe body.\n\n---\n\nAfter a rule.\n',
];

const PIECES = ['---', '----', '-', '\n', '\r\n', '\r', 'yaml', 'YML', 'toml', ' ', '# c', 'a: 1', 'b: [x', '\ufeff', 'x', 'title: A\n'];

describe('the front matter split', () => {
  it('reads every markdown file of the site as gray-matter did', () => {
    const files = readdirSync('content', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expectSame(readFileSync(path.join('content', file), 'utf8'));
  });

  it('reads the edge cases as gray-matter did: delimiters, languages, line breaks, a BOM, no end', () => {
    for (const source of VARIANTS) expectSame(source);
  });

  it('reads thousands of random files as gray-matter did', () => {
    const pieces = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 });
    fc.assert(fc.property(fc.boolean(), pieces, (opens, rest) => { expectSame(`${opens ? '---' : ''}${rest.join('')}`); }), { numRuns: 4000 });
  });

  it('names the language when the front matter is not YAML, and runs none of it', () => {
    (globalThis as { ran?: boolean }).ran = false;
    for (const source of ['---js\n{ title: (globalThis.ran = true) }\n---\nBody', '---json\n{ "title": "A" }\n---\nBody', '---toml\ntitle = "A"\n---\nBody']) {
      const read = readFrontMatter(source, 'content/blog/a.md');
      expect(read.errors).toHaveLength(1);
      expect(read.errors[0]!.message).toMatch(/^has front matter that is not YAML \(its opening line names "(js|json|toml)"\)$/);
    }
    expect((globalThis as { ran?: boolean }).ran).toBe(false);
  });

  it('gives the front matter, the body and the language named', () => {
    expect(splitFront('---yaml\ntitle: A\n---\nBody')).toEqual({ matter: '\ntitle: A', content: 'Body', language: 'yaml' });
    expect(splitFront('No front matter')).toEqual({ content: 'No front matter', language: 'yaml' });
    expect(splitFront('---\ntitle: A\n')).toEqual({ matter: '\ntitle: A\n', content: '', language: 'yaml' });
  });
});
