import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseParser } from '../../src/content/markdown-parser.ts';
import { renderMarkdown } from '../../src/content/markdown.ts';

/**
 * Where satteri's native binding cannot load (another platform, a missing optional package), the
 * build says so in one line and parses with remark-parse instead: the same pages, slower. Forced
 * here by an injected loader (and in tests/pool/fallback-build.test.ts by SITE_MARKDOWN_PARSER),
 * never by breaking node_modules.
 */
const missing = () => { throw new Error("Cannot find module '@bruits/satteri-linux-x64-gnu'\nRequire stack: …"); };

describe('the markdown parser where satteri cannot load', () => {
  it('falls back to remark-parse and says so once, in one line', () => {
    const lines: string[] = [];
    const first = chooseParser(missing, {}, (line) => lines.push(line));
    const second = chooseParser(missing, {}, (line) => lines.push(line));
    expect([first.name, second.name]).toEqual(['remark-parse', 'remark-parse']);
    expect(lines).toEqual(["site: markdown falls back to remark-parse (same output, slower): satteri's native parser did not load (Cannot find module '@bruits/satteri-linux-x64-gnu')"]);
  });

  it('renders every construct as satteri does', async () => {
    const source = await readFile(path.resolve('tests/fixtures/markdown/tour.md'), 'utf8');
    const native = chooseParser(undefined, {}, () => undefined);
    expect(native.name).toBe('satteri');
    const fallback = chooseParser(missing, {}, () => undefined);
    expect(renderMarkdown(source, 'tour.md', 3, undefined, {}, fallback)).toEqual(renderMarkdown(source, 'tour.md', 3, undefined, {}, native));
  });
});
