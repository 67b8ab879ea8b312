import { describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { quickRead, readYaml } from '../../src/content/yaml.ts';
import { splitFrontMatter } from '../../src/content/front-matter.ts';
// @ts-expect-error: a plain .mjs script of the bench, without types
import { writeArticles } from '../../scripts/bench-articles.mjs';

/**
 * Differential test of the front matter's fast path: wherever js-yaml's reading is taken
 * (quickRead returns data), it must be exactly the yaml package's, which the build used before and
 * still uses for everything else. An upgrade of either package that changes a reading fails here.
 */
const CONTENT = path.resolve(__dirname, '../../content');

/** The yaml package's reading, as the build takes it: the data, or undefined when it reports an error. */
function slow(text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  return doc.errors.length ? undefined : doc.toJS();
}

async function filesUnder(dir: string, ext: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith(ext)).map((e) => path.join(e.parentPath, e.name));
}

/** Awkward YAML an author could write: numbers that are not, dates, block scalars, quotes, comments, CRLF. */
const AWKWARD = [
  'a: 0755', 'a: 0o17', 'a: 0x1F', 'a: 0b101', 'a: 1_000', 'a: 1:30', 'a: 1e3', 'a: .5', 'a: +12', 'a: -0', 'a: 12.', 'a: 1.2.3',
  'a: 0.1e-2', 'a: .inf', 'a: -.inf', 'a: .NaN', 'a: 00', 'a: 09', 'a: 123456789012345678901', 'a: 0x',
  'a: ~', 'a:', 'a: null\nb: Null\nc: NULL', 'a: yes', 'a: no', 'a: on', 'a: True', 'a: FALSE',
  'date: 2024-01-02', 'a: 2024-01-02T10:00:00Z', 'date: 24 September 2025', 'readingTime: 4 min read',
  'a: "x\\ty"', "a: 'it''s'", 'a: "\\u00e9 caf\u00e9"', 'a: "#not a comment"', 'a: x#y', 'a: v # trailing', 'a: 1 # c',
  'a: |\n  line one\n  line two\n', 'a: >-\n  folded\n  text\n\nb: 1', 'a: |+\n  kept\n\n', 'a: >\n  para one\n\n  para two\n',
  "a: 'multi\n  line'", 'a: plain\n  continued\n  more', 'a: # comment\n  - x', 'a:\n  - b: 1\n    c: 2\n  - d',
  'title: Data & AI: where to start', 'title: "Q&A with our team"', 'title: Five * Stars', 'a: [1, "2", three]', 'a: {b: 1, c: [x, y]}',
  'key with spaces: v', '"quoted key": v', '1: one\ntrue: yes', 'a: 1\n__proto__: {x: 1}', 'a: 1\nconstructor: 2',
  'title: Windows\r\nexcerpt: line\r\n', 'a: "unterminated', 'a: [1, 2', 'a: b: c', 'a: 1\na: 2', 'a:\n\t- x',
  '- a\n- b', 'just a string', '', '# only a comment', '---\na: 1\n...', '---\na: 1\n---\nb: 2',
  'a: !foo x', 'a: !!float 1', 'a: !!str 1', 'a: !!binary aGVsbG8=', '%YAML 1.1\n---\na: yes', 'a: &x 1\nb: *x', '<<: {a: 1}',
  '? [a, b]\n: c', 'a: @x', 'a: `x', 'a: **bold**', 'a: "**bold**"', 'a: -x', 'a: ?x', 'a: :x', 'a: x:',
];

describe('front matter, the fast way (js-yaml) and the yaml package', () => {
  it('read every awkward case the same wherever the fast way is taken', () => {
    const taken: string[] = [];
    for (const text of AWKWARD) {
      const quick = quickRead(text);
      if (quick === undefined) continue;
      taken.push(text);
      expect(quick, JSON.stringify(text)).toEqual(slow(text));
    }
    // The fast way is taken on most of them, so the comparison above means something.
    expect(taken.length).toBeGreaterThan(AWKWARD.length / 2);
  });

  it('leaves tags, anchors, aliases, directives, errors and documents that are not mappings to the yaml package', () => {
    for (const text of ['a: !!float 1', 'a: !foo x', 'a: &x 1\nb: *x', '%YAML 1.1\n---\na: yes', 'a: 1\na: 2', 'a: [1, 2', '- a\n- b', 'just a string', '', '---\na: 1\n---\nb: 2']) {
      expect(quickRead(text), JSON.stringify(text)).toBeUndefined();
    }
    // The yaml package reads these differently from js-yaml, and the build keeps its reading.
    expect(readYaml('a: !!float 1', 'f.md').data).toEqual({ a: '1' });
    expect(readYaml('%YAML 1.1\n---\na: yes', 'f.md').data).toEqual({ a: true });
    // Aliases are the yaml package's to count: a document that multiplies them is refused, not expanded.
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefghij'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefghij'[i]}`).join(', ')}]`)].join('\n');
    expect(quickRead(bomb)).toBeUndefined();
    expect(readYaml(bomb, 'f.md').errors[0]?.message).toMatch(/alias/i);
  });

  it('reports errors with their lines as before', () => {
    const read = readYaml('title: A\ntitle: B\n', 'content/blog/x.md', 3);
    expect(read.data).toBeUndefined();
    expect(read.errors).toHaveLength(1);
    expect(read.errors[0]).toMatchObject({ file: 'content/blog/x.md', line: 5 });
    expect(read.errors[0]!.message).toMatch(/is not valid YAML/);
  });

  it("read the same data from the site's own content files and takes the fast way on every article", async () => {
    const markdown = await filesUnder(CONTENT, '.md');
    const yamlFiles = await filesUnder(CONTENT, '.yaml');
    expect(markdown.length).toBeGreaterThan(5);
    for (const file of markdown) {
      const { front } = splitFrontMatter(await readFile(file, 'utf8'));
      const quick = quickRead(front);
      expect(quick, file).toBeDefined();
      expect(quick, file).toEqual(slow(front));
    }
    for (const file of yamlFiles) {
      const text = await readFile(file, 'utf8');
      const quick = quickRead(text);
      if (quick !== undefined) expect(quick, file).toEqual(slow(text));
    }
  });

  it("reads the bench's generated articles the same, the fast way", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'yaml-quick-'));
    try {
      await writeArticles(dir, 200);
      const files = await filesUnder(dir, '.md');
      expect(files).toHaveLength(200);
      for (const file of files) {
        const { front } = splitFrontMatter(await readFile(file, 'utf8'));
        const quick = quickRead(front);
        expect(quick, file).toBeDefined();
        expect(quick, file).toEqual(slow(front));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
