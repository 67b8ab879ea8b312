// The rules across fields the content manager checks in the browser before saving through GitHub
// (cms/client/save-rules.ts): the build's own schemas, said in the build's own sentences.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { brokenRules } from '../../src/cms/client/save-rules.ts';
import { readFrontMatter } from '../../src/content/front-matter.ts';

describe('the rules across fields, checked before a save through GitHub', () => {
  it("refuses an article whose expiry is not after its publication, in the build's sentence; its body and its other fields are the form's", async () => {
    const file = 'content/blog/what-is-data.md';
    const { data, body } = readFrontMatter(await readFile(file, 'utf8'), file);
    const post = { ...(data as Record<string, unknown>), body };
    expect(brokenRules('blog', undefined, post, file)).toEqual([]);
    expect(brokenRules('blog', undefined, { ...post, publishDate: '2026-12-01', expiryDate: '2026-11-01' }, file))
      .toEqual([`${file} expiryDate: is not after publishDate (2026-12-01), so the article would never be live`]);
  });

  it('checks a page of the pages collection by its own schema: the method stages in their fixed order', async () => {
    const file = 'content/pages/services.yaml';
    const page = parse(await readFile(file, 'utf8')) as { method: { stages: unknown[] } } & Record<string, unknown>;
    expect(brokenRules('pages', 'services', page, file)).toEqual([]);
    const [first, second, ...rest] = page.method.stages;
    const swapped = { ...page, method: { ...page.method, stages: [second, first, ...rest] } };
    expect(brokenRules('pages', 'services', swapped, file)).toEqual([`${file} method.stages: must list the stages in order: Unearth, Reveal, Build, Achieve`]);
  });
});
