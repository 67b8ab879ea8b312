// A CMS save of an existing entry changes what the author changed and nothing else: Decap prints the
// whole file afresh (here: the yaml package's stringify, as a CMS would), and serve writes it back as
// an edit of the file, so that one word changed is one line changed.
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { scratchProject } from '../scratch-project.ts';
import { CmsLocalBackend } from '../../src/cms/local-backend.ts';
import { loadSite } from '../../src/content/load.ts';
import { keepYamlStyle } from '../../src/cms/yaml-edits.ts';

let dir: string;
let backend: CmsLocalBackend;
beforeAll(async () => {
  dir = await scratchProject('site-cms-yaml-');
  backend = new CmsLocalBackend(dir, (contentDir) => loadSite(contentDir));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

type Data = Record<string, unknown>;
/** The longest text of the entry, with one word in its middle changed. */
function oneWordChanged(data: Data): { data: Data; before: string; after: string } {
  const texts: Array<{ holder: Record<string | number, unknown>; key: string | number; text: string }> = [];
  const walk = (v: unknown) => {
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string') texts.push({ holder: v as Record<string, unknown>, key: Array.isArray(v) ? Number(k) : k, text: x });
      else walk(x);
    }
  };
  const copy = structuredClone(data);
  walk(copy);
  const longest = texts.sort((a, b) => b.text.length - a.text.length)[0]!;
  const words = longest.text.split(' ');
  const i = Math.floor(words.length / 2);
  words[i] = words[i] === 'clearly' ? 'plainly' : 'clearly';
  longest.holder[longest.key] = words.join(' ');
  return { data: copy, before: longest.text, after: words.join(' ') };
}

const changedLines = (a: string, b: string) => {
  const [x, y] = [a.split('\n'), b.split('\n')];
  return x.length !== y.length ? Number.POSITIVE_INFINITY : x.filter((line, i) => line !== y[i]).length;
};

describe('an existing YAML entry saved with one word changed', () => {
  const kinds = [["a service's file", 'content/services/data-visualisation.yaml'], ["a case study's file", 'content/case-studies/dc-thomson.yaml'], ["a page's file", 'content/pages/home.yaml'], ['the site settings file', 'content/site.yaml']] as const;
  for (const [kind, file] of kinds) {
    it(`changes one line of ${kind}, its comments and layout kept`, async () => {
      const full = path.join(dir, file);
      const before = await readFile(full, 'utf8');
      const changed = oneWordChanged(parseDocument(before).toJS() as Data);
      const answer = await backend.handle({ action: 'persistEntry', params: { dataFiles: [{ path: file, raw: stringify(changed.data) }], assets: [] } });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      const after = await readFile(full, 'utf8');
      expect(changedLines(before, after)).toBe(1);
      expect(parseDocument(after).toJS()).toEqual(changed.data);
    });
  }

  it("changes one line of an article's front matter", async () => {
    const file = 'content/blog/what-is-data.md';
    const full = path.join(dir, file);
    const before = await readFile(full, 'utf8');
    const [, front, body] = /^---\n([\s\S]*?\n)---\n([\s\S]*)$/.exec(before)!;
    const changed = oneWordChanged(parseDocument(front!).toJS() as Data);
    const answer = await backend.handle({ action: 'persistEntry', params: { dataFiles: [{ path: file, raw: `---\n${stringify(changed.data)}---\n${body}` }], assets: [] } });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(changedLines(before, await readFile(full, 'utf8'))).toBe(1);
  });

  it('changes one line for any word of any text in every YAML file of the site', async () => {
    const files = ['content/site.yaml', ...(await Promise.all(['pages', 'services', 'case-studies'].map(async (d) => (await readdir(path.join('content', d))).filter((n) => n.endsWith('.yaml')).map((n) => `content/${d}/${n}`)))).flat()];
    const wrong: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      const changed = oneWordChanged(parseDocument(text).toJS() as Data);
      const saved = keepYamlStyle(text, stringify(changed.data));
      if (changedLines(text, saved) !== 1 || JSON.stringify(parseDocument(saved).toJS()) !== JSON.stringify(changed.data)) wrong.push(file);
    }
    expect(wrong).toEqual([]);
  });

  it('keeps the data right when the new words cannot stay plain', () => {
    const text = '# Settings\nname: Dundee Data   # the working name\nlist:\n  - one\n  - two\n';
    const quoted = keepYamlStyle(text, stringify({ name: 'Dundee: Data #1', list: ['one', 'two'] }));
    expect(parseDocument(quoted).toJS()).toEqual({ name: 'Dundee: Data #1', list: ['one', 'two'] });
    expect(changedLines(text, quoted)).toBe(1);
  });

  it('adds and removes list items and keys as lines of their own, the rest of the file as it was', async () => {
    const text = await readFile('content/services/data-visualisation.yaml', 'utf8');
    const data = parseDocument(text).toJS() as { faq: { items: Array<Record<string, string>> }; [k: string]: unknown };
    const added = structuredClone(data);
    added.faq.items.push({ question: 'Can you start next week?', answer: 'Usually, yes.' });
    const grown = keepYamlStyle(text, stringify(added));
    expect(parseDocument(grown).toJS()).toEqual(added);
    expect(grown.startsWith(text.slice(0, text.indexOf('faq:')))).toBe(true);
    expect(grown.split('\n').length - text.split('\n').length).toBe(2);

    const removed = structuredClone(data);
    removed.faq.items.pop();
    delete removed.metaTitle;
    const shrunk = keepYamlStyle(text, stringify(removed));
    expect(parseDocument(shrunk).toJS()).toEqual(removed);
    const kept = new Set(text.split('\n'));
    expect(shrunk.split('\n').every((line) => kept.has(line))).toBe(true);
  });

  it('keeps comments when the shape changes in a way it cannot edit line by line', () => {
    const text = '# Settings\nname: Dundee Data   # the working name\nlist: [one, two]\n';
    const grown = keepYamlStyle(text, stringify({ name: 'Dundee Data', list: ['one', 'two', 'three'] }));
    expect(parseDocument(grown).toJS()).toEqual({ name: 'Dundee Data', list: ['one', 'two', 'three'] });
    expect(grown).toContain('# Settings');
    expect(grown).toContain('# the working name');
  });
});
