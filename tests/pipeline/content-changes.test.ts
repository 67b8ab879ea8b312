// Which content files changed since a build's record, as a quick rebuild asks it (in a thread of its
// own): held to the stats the full build records (build-record.ts, listContent and signatureOf).
import { chmod, link, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inputsFile, listContent, signatureOf, SETTLED_MS, writeQuickInputs, type QuickInputs, type Signature } from '../../src/pipeline/build-record.ts';
import { contentChanges, NotSmall } from '../../src/pipeline/content-changes.ts';

let dir: string;
let content: string;
let recordFile: string;
const hourAgo = new Date(Date.now() - 3_600_000);
// One article's entry with a place in the file list, and one that has none (`null`), as the record keeps them.
const articles = { 'blog/one.md': { file: '/blog/one.html', digest: 'd1', place: [10, 20] }, 'blog/two.md': { file: '/blog/two.html', digest: 'd2', place: null } };

/**
 * The inputs a full build would write beside its record of the content as it is now (their other members reduced to two);
 * `reorder`: the stats listed in another order than the content's listing (as after a folder lists its files otherwise).
 */
async function record(reorder: <T>(entries: T[]) => T[] = (entries) => entries): Promise<void> {
  const listed = listContent(content);
  const stats = Object.fromEntries(reorder([...listed.files]).map(([file, s]) => [file, signatureOf(s, listed.at)]));
  await writeQuickInputs(recordFile, { same: 'same-hash', until: 42, content: stats, articles } as unknown as QuickInputs);
}
const changes = (patch: Record<string, Signature | null> = {}, most = 20) => contentChanges(content, recordFile, patch, SETTLED_MS, most);

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'content-changes-'));
  content = path.join(dir, 'content');
  recordFile = path.join(dir, 'build-record.json');
  await mkdir(path.join(content, 'blog'), { recursive: true });
  await mkdir(path.join(content, 'images'));
  const files: Array<[string, string]> = [['blog/one.md', 'one'], ['blog/two.md', 'two'], ['settings.yaml', 'name: x'], ['images/logo.svg', '<svg/>']];
  for (const [file, text] of files) {
    await writeFile(path.join(content, file), text);
    await utimes(path.join(content, file), hourAgo, hourAgo);
  }
  await record();
});
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

describe('the content changes a quick rebuild asks for', () => {
  it('are none when nothing changed, with the inputs but for the site-sized members', async () => {
    const answer = await changes();
    expect(answer.changed).toEqual([]);
    expect(answer.inputs).toEqual({ same: 'same-hash', until: 42 });
    expect(answer.articles).toBe(2);
  });

  it('name an edited article with its stat now, unknown while it was modified within two seconds', async () => {
    await writeFile(path.join(content, 'blog/two.md'), 'two, edited');
    let answer = await changes();
    expect(answer.changed).toEqual([{ file: 'blog/two.md', article: articles['blog/two.md'], signature: null }]);
    await utimes(path.join(content, 'blog/two.md'), hourAgo, hourAgo);
    answer = await changes();
    const now = listContent(content);
    expect(answer.changed).toEqual([{ file: 'blog/two.md', article: articles['blog/two.md'], signature: signatureOf(now.files.get('blog/two.md')!, now.at) }]);
    // Once the record's patch holds that stat, it is not a change any more.
    expect((await changes({ 'blog/two.md': answer.changed[0]!.signature })).changed).toEqual([]);
  });

  it('ignore an image whose change time alone moved (builds hard-link it), not a settings file so touched', async () => {
    await link(path.join(content, 'images/logo.svg'), path.join(dir, 'linked.svg'));
    expect((await changes()).changed).toEqual([]);
    await chmod(path.join(content, 'settings.yaml'), 0o600);
    await expect(changes()).rejects.toThrow(new NotSmall('settings.yaml is not a live article'));
  });

  it('are the same when the record lists the files in another order than the folders list them now', async () => {
    await record((entries) => [...entries].reverse());
    expect((await changes()).changed).toEqual([]);
    await writeFile(path.join(content, 'blog/one.md'), 'one, edited');
    expect((await changes()).changed.map((c) => c.file)).toEqual(['blog/one.md']);
    await rm(path.join(content, 'settings.yaml'));
    await expect(changes()).rejects.toThrow(new NotSmall('a content file was removed'));
  });

  it('find a file removed from the end of the listing as from its middle', async () => {
    const last = [...listContent(content).files.keys()].at(-1)!;
    await rm(path.join(content, last));
    await expect(changes()).rejects.toThrow(new NotSmall('a content file was removed'));
  });

  it('are too much to be quick when a file is added or removed, or more articles changed than asked', async () => {
    await writeFile(path.join(content, 'blog/three.md'), 'three');
    await expect(changes()).rejects.toThrow(new NotSmall('blog/three.md is new'));
    await rm(path.join(content, 'blog/three.md'));
    await rm(path.join(content, 'blog/one.md'));
    await expect(changes()).rejects.toThrow(new NotSmall('a content file was removed'));
    await record();
    await writeFile(path.join(content, 'blog/two.md'), 'edited');
    await expect(changes({}, 0)).rejects.toThrow(new NotSmall('more than 0 articles changed'));
    await rm(inputsFile(recordFile));
    await expect(changes()).rejects.toThrow(new NotSmall("the last build's inputs cannot be read"));
  });
});
