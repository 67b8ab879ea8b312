// The rules across fields the content manager checks in the browser before saving through GitHub
// (cms/client/save-rules.ts): the build's own schemas, said in the build's own sentences; and what
// the author reads when GitHub itself refuses the save (cms/client/messages.ts).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { brokenRules } from '../../src/cms/client/save-rules.ts';
import { githubRefusal } from '../../src/cms/client/messages.ts';
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

describe('a save GitHub refuses', () => {
  it("says someone else saved first for a branch that moved on, and GitHub's status and message otherwise", () => {
    for (const [status, said] of [[422, 'Update is not a fast forward'], [409, 'Conflict']] as const) {
      expect(githubRefusal(status, '', said)).toMatch(/^Not saved: someone else saved a change on GitHub while you were saving this\. Reload to see their change .*Your changes are still in the form\.$/);
    }
    expect(githubRefusal(422, '', 'Tree SHA does not exist')).toBe('Not saved: GitHub refused the save (422: Tree SHA does not exist). Nothing was published. Your changes are still in the form. Save again to retry.');
    expect(githubRefusal(502, 'Bad Gateway', undefined)).toBe('Not saved: GitHub refused the save (502 Bad Gateway). Nothing was published. Your changes are still in the form. Save again to retry.');
  });

  it('says a draft that no longer merges would undo a change published since, and is kept; a draft changed while publishing, to reload', () => {
    const merge = '/repos/dundee-data/site/pulls/3/merge';
    expect(githubRefusal(405, '', 'Pull Request is not mergeable', merge)).toMatch(/^Not published: since this draft was saved, someone else published a change to the same lines, .* The draft is kept as it is\. .*Delete unpublished changes/);
    expect(githubRefusal(409, '', 'Head branch was modified. Review and try the merge again.', merge)).toBe('Not published: someone else changed this draft on GitHub while you were publishing it. Reload to see their change, then Publish again.');
    expect(githubRefusal(502, 'Bad Gateway', undefined, merge)).toBe('Not published: GitHub refused to merge the draft (502 Bad Gateway). The draft is kept as it is; Publish again to retry.');
  });
});
