import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSite } from '../../src/content/load.ts';
import { ContentErrors } from '../../src/content/errors.ts';
import { renderMarkdown, type FormAddresses } from '../../src/content/markdown.ts';
import { siteSchema } from '../../src/content/schemas.ts';
import { ASSESSMENT_FORMS, assessmentHref } from '../../src/content/assessment-forms.ts';

const FORMS: FormAddresses = { organisation: 'https://forms.example.com/o', leaders: '', teams: '', readiness: 'https://forms.example.com/r?a=1&b=2' };
const SETTINGS = { name: 'N', description: 'D', url: 'https://www.example.com', email: 'a@example.com', location: 'L', officeHours: 'H', author: { name: 'A', role: 'R', bio: 'B' } };

describe('assessment form settings', () => {
  it('go to the named survey when its address is set, and to /dialog-assessment when it is empty', () => {
    expect(assessmentHref({ assessmentForms: FORMS }, 'readiness')).toEqual({ href: 'https://forms.example.com/r?a=1&b=2', external: true });
    expect(assessmentHref({ assessmentForms: FORMS })).toEqual({ href: 'https://forms.example.com/o', external: true });
    expect(assessmentHref({ assessmentForms: FORMS }, 'leaders')).toEqual({ href: '/dialog-assessment', external: false });
  });

  it('default every address to empty when site.yaml names none', () => {
    const parsed = siteSchema.parse(SETTINGS);
    expect(parsed.assessmentForms).toEqual({ organisation: '', leaders: '', teams: '', readiness: '' });
  });

  it('refuse an address that is not https, and a form the site does not know', () => {
    const plain = siteSchema.safeParse({ ...SETTINGS, assessmentForms: { leaders: 'http://forms.example.com/l' } });
    expect(plain.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['assessmentForms.leaders', 'expected an https:// address, or empty to use /dialog-assessment']]);
    const unknown = siteSchema.safeParse({ ...SETTINGS, assessmentForms: { board: 'https://forms.example.com/b' } });
    expect(unknown.success).toBe(false);
  });

  it('hold a placeholder on the example domain for every form until launch', async () => {
    const site = await loadSite(path.resolve('content'));
    for (const name of ASSESSMENT_FORMS) expect(site.settings.assessmentForms[name], name).toMatch(/^https:\/\/forms\.example\.com\/dialog\/[a-z-]+$/);
  });
});

describe('assessment-form: links in markdown', () => {
  it('resolve to the address in the settings, open in a new tab without an opener, and say so', async () => {
    const { html, errors } = await renderMarkdown('Try our [free *readiness* assessment](assessment-form:readiness) today.', 'x.md', 0, FORMS);
    expect(errors).toEqual([]);
    const link = /<a ([^>]*)>(.*?)<\/a>/.exec(html);
    expect(link?.[1]).toBe('href="https://forms.example.com/r?a=1&#x26;b=2" target="_blank" rel="noopener noreferrer"');
    expect(link?.[2]).toMatch(/^free <em>readiness<\/em> assessment<svg class="icon icon--external"[^>]* aria-hidden="true"[^>]*>.*<\/svg><span class="visually-hidden"> \(opens in a new tab\)<\/span>$/);
  });

  it('fall back to /dialog-assessment, in the same tab, when the address is empty', async () => {
    const { html } = await renderMarkdown('[Start the survey](assessment-form:teams)', 'x.md', 0, FORMS);
    expect(html.trim()).toBe('<p><a href="/dialog-assessment">Start the survey</a></p>');
  });

  it('refuse a form name the settings do not have, naming the file, line and the names there are', async () => {
    const { errors } = await renderMarkdown('One.\n\nTwo [here](assessment-form:board).', 'content/blog/x.md', 5, FORMS);
    expect(errors).toEqual([{
      file: 'content/blog/x.md', line: 8, path: 'body',
      message: 'links to assessment-form:board, which names no assessment form',
      hint: 'use one of assessment-form:organisation, assessment-form:leaders, assessment-form:teams, assessment-form:readiness (assessmentForms in content/site.yaml)',
    }]);
  });
});

describe('loading content with assessment-form: links', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-forms-'));
    await cp(path.resolve('content'), dir, { recursive: true });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const edit = async (file: string, change: (t: string) => string) => writeFile(path.join(dir, file), change(await readFile(path.join(dir, file), 'utf8')));

  it("link the article that offers the free assessment to site.yaml's readiness survey", async () => {
    const site = await loadSite(dir);
    const post = site.posts.find((p) => p.slug === 'scotland-data-transformation-readiness')!;
    expect(post.html).toContain(`<a href="${site.settings.assessmentForms.readiness}" target="_blank" rel="noopener noreferrer">`);
    expect(post.html).not.toContain('assessment-form:');
  });

  it('follow an address changed in site.yaml, and fall back when it is emptied', async () => {
    await edit('site.yaml', (t) => t.replace(/^  readiness: .*$/m, "  readiness: ''"));
    const site = await loadSite(dir);
    const post = site.posts.find((p) => p.slug === 'scotland-data-transformation-readiness')!;
    expect(post.html).toContain('<a href="/dialog-assessment">DIAlog readiness assessment</a>');
  });

  it('stop the build at an unknown form name, with the line it is on', async () => {
    const file = 'blog/what-is-data.md';
    await edit(file, (t) => `${t}\n\nTake the [survey](assessment-form:everyone).\n`);
    const line = (await readFile(path.join(dir, file), 'utf8')).split('\n').findIndex((l) => l.includes('assessment-form:everyone')) + 1;
    const error = await loadSite(dir).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ContentErrors);
    expect((error as ContentErrors).errors).toEqual([expect.objectContaining({ file: `content/${file}`, line, message: 'links to assessment-form:everyone, which names no assessment form' })]);
  });
});
