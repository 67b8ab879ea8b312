import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseParser, remarkParser, type MarkdownParser } from '../../src/content/markdown-parser.ts';
import { readFrontMatter } from '../../src/content/front-matter.ts';
// @ts-expect-error: a plain script of the bench, without types
import { writeArticles } from '../../scripts/bench-articles.mjs';

/**
 * The differential test that guards the native parser: for every document below, satteri's mdast
 * tree equals remark-parse + remark-gfm + remark-directive's, node for node, line and column of
 * each node's start and end included (content errors name lines). An upgrade of satteri that
 * changes a tree fails here, before any page changes.
 */
const satteri = chooseParser(undefined, {}, (line) => { throw new Error(`satteri must load in the tests: ${line}`); });
const remark = remarkParser();

/**
 * A tree as plain data, undefined fields dropped, and two things left out:
 * - offsets: satteri may count UTF-8 bytes where remark counts UTF-16 units; lines and columns,
 *   which content errors use, are compared.
 * - where a blockquote ends: a quote inside a quote closed by the next line ('> > nested' then
 *   '> - a list') ends, for remark, at the next line's marker; for satteri, at its own last
 *   character. satteri is right (the next line is not part of it), and no error names an end.
 */
function plain(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(plain);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  const blockquote = (node as { type?: string }).type === 'blockquote';
  for (const key of Object.keys(node).sort()) {
    const value = (node as Record<string, unknown>)[key];
    if (value === undefined || key === 'offset') continue;
    out[key] = blockquote && key === 'position' ? { start: plain((value as { start: unknown }).start) } : plain(value);
  }
  return out;
}

const treeOf = (parser: MarkdownParser, body: string) => plain(parser.parse(body));

async function bodies(dir: string): Promise<Array<[string, string]>> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.md')).sort();
  return Promise.all(files.map(async (f) => [f, readFrontMatter(await readFile(path.join(dir, f), 'utf8'), f).body] as [string, string]));
}

const AWKWARD = path.resolve('tests/fixtures/markdown/parser/awkward.md');

let generated: string;
beforeAll(async () => {
  generated = await mkdtemp(path.join(tmpdir(), 'parser-diff-'));
  await writeArticles(generated, 40);
});
afterAll(() => rm(generated, { recursive: true, force: true }));

describe('satteri against remark-parse: the same tree', () => {
  it('is the native parser in this environment', () => {
    expect(satteri.name).toBe('satteri');
  });

  it('for our articles, legal pages and markdown fixtures', async () => {
    const docs = [...await bodies('content/blog'), ...await bodies('content/pages'), ...await bodies('tests/fixtures/markdown')];
    expect(docs.length).toBeGreaterThanOrEqual(13);
    for (const [name, body] of docs) expect(treeOf(satteri, body), name).toEqual(treeOf(remark, body));
  });

  it('for generated bench articles', async () => {
    const docs = await bodies(generated);
    expect(docs.length).toBe(40);
    for (const [name, body] of docs) expect(treeOf(satteri, body), name).toEqual(treeOf(remark, body));
  });

  it('for every construct an author may write, and the ones the site refuses, with LF and CRLF line endings', async () => {
    const docs = (await readFile(AWKWARD, 'utf8')).split(/^%{5}\n/m).slice(1);
    expect(docs.length).toBeGreaterThan(15);
    for (const [i, lf] of docs.entries()) {
      for (const body of [lf, lf.replace(/\n/g, '\r\n')]) expect(treeOf(satteri, body), `document ${i + 1} of awkward.md:\n${body}`).toEqual(treeOf(remark, body));
    }
  });
});

describe('where satteri and remark-parse differ, satteri is right', () => {
  // An author showing a box's syntax inside a box. remark-directive closes the box at the first
  // ':::' line, even inside a fenced code block, and the rest of the document falls apart (the
  // fence's text becomes a paragraph, the next box a code block). satteri keeps the fence whole,
  // as CommonMark keeps a fence whole inside a list item or a quote: what the author meant.
  // Only the fallback (remark-parse, where satteri cannot load) prints the broken version.
  const source = ':::fix\n```md\n:::\nnot the end of the box\n:::\n```\n:::\n\n:::note\n> quoted in a note\n:::\n';

  it("keeps a fenced code block whole inside a box, its ':::' lines and all", () => {
    const tree = satteri.parse(source);
    expect(tree.children.map((n) => n.type)).toEqual(['containerDirective', 'containerDirective']);
    expect(plain(tree.children[0])).toMatchObject({ name: 'fix', children: [{ type: 'code', lang: 'md', value: ':::\nnot the end of the box\n:::' }] });
    expect(plain(tree.children[1])).toMatchObject({ name: 'note', children: [{ type: 'blockquote' }] });
  });

  it('where remark-parse closes the box inside the fence', () => {
    const tree = remark.parse(source);
    expect(plain(tree.children[0])).toMatchObject({ name: 'fix', children: [{ type: 'code', value: '' }] });
    expect(tree.children.map((n) => n.type)).toEqual(['containerDirective', 'paragraph', 'code']);
  });
});
