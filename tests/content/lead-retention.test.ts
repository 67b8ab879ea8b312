// The privacy policy states the leads retention period from content/site.yaml, the same setting
// the leads table's TTL is set from, so the page and the deletion cannot disagree.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentErrors } from '../../src/content/errors.ts';
import { loadSite } from '../../src/content/load.ts';

let dir: string;
const content = () => path.join(dir, 'content');
async function edit(file: string, change: (text: string) => string) {
  const target = path.join(content(), file);
  await writeFile(target, change(await readFile(target, 'utf8')));
}
async function errorsOf() {
  try { await loadSite(content()); } catch (error) { if (error instanceof ContentErrors) return error.errors; throw error; }
  throw new Error('expected the content to be refused');
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'site-retention-'));
  await cp(path.resolve('content'), content(), { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const formRecords = (html: string) => /<li><strong>What you send through the forms[^]*?<\/li>/.exec(html)?.[0] ?? '';

describe('leadRetentionMonths', () => {
  it('is stated on the privacy policy page: 24 months by default, and whatever site.yaml says', async () => {
    const site = await loadSite(content());
    expect(site.settings.leadRetentionMonths).toBe(24);
    expect(formRecords(site.legal['privacy-policy'].html)).toContain('for 24 months from when you send it');
    // What the deletion does not reach at once is said too: the table's backups (point-in-time
    // recovery, 35 days) and the copies the form e-mails leave in the inbox.
    expect(formRecords(site.legal['privacy-policy'].html)).toContain('each backup is deleted after 35 days');
    expect(site.legal['privacy-policy'].html).toContain('<strong>The email each form sends us</strong> carries the same details to our inbox');

    await edit('site.yaml', (text) => text.replace(/^leadRetentionMonths: .*$/m, 'leadRetentionMonths: 36'));
    const changed = await loadSite(content());
    expect(formRecords(changed.legal['privacy-policy'].html)).toContain('for 36 months from when you send it');
    expect(changed.legal['privacy-policy'].html).not.toContain('{{');
  });

  it('defaults to 24 when site.yaml leaves it out, and refuses a period that is not whole months from 1 to 120', async () => {
    await edit('site.yaml', (text) => text.replace(/^leadRetentionMonths: .*$/m, ''));
    expect((await loadSite(content())).settings.leadRetentionMonths).toBe(24);
    await edit('site.yaml', (text) => `${text}\nleadRetentionMonths: 1.5\n`);
    expect((await errorsOf()).map((e) => [e.file, e.path])).toContainEqual(['content/site.yaml', 'leadRetentionMonths']);
  });

  it('refuses a privacy policy that no longer states the period', async () => {
    await edit('pages/privacy-policy.md', (text) => text.replace('{{leadRetention}}', 'a while'));
    const errors = await errorsOf();
    expect(errors).toContainEqual(expect.objectContaining({ file: 'content/pages/privacy-policy.md', message: 'must state the leads retention period with {{leadRetention}}' }));
  });
});
