import { readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentErrors } from '../../src/content/errors.ts';
import { digestOf, parseJob } from '../../src/content/markdown-job.ts';
import { scratchProject } from '../scratch-project.ts';
import { cachedLoad } from './cached-load.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';

let dir: string;
const blog = () => path.join(dir, 'content/blog');
const article = () => path.join(blog(), 'what-is-data.md');
const anHourAgo = () => new Date(Date.now() - 3_600_000);

/** Every markdown file made an hour old, as a blog's files are between one build and the next. */
async function settle(): Promise<void> {
  for (const name of await readdir(blog())) await utimes(path.join(blog(), name), anHourAgo(), anHourAgo());
  for (const name of ['privacy-policy.md', 'terms-of-service.md']) await utimes(path.join(dir, 'content/pages', name), anHourAgo(), anHourAgo());
}
const unread = (jobs: Array<{ rel: string; source?: unknown }>) => jobs.filter((j) => j.source === undefined).map((j) => j.rel);

beforeAll(async () => { dir = await scratchProject('site-sources-'); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe("the build cache's record of the markdown it read", () => {
  it('reads no markdown file that is unchanged since the last load, and loads the same site', async () => {
    await settle();
    const first = await cachedLoad(dir);
    expect(unread(first.jobs)).toEqual([]);
    const second = await cachedLoad(dir);
    expect(unread(second.jobs)).toHaveLength(second.jobs.length);
    expect(second.site).toEqual(first.site);
  });

  it('reads a file written since, even with the same size and its old modification time put back', async () => {
    await settle();
    await cachedLoad(dir);
    const before = await stat(article());
    const text = await readFile(article(), 'utf8');
    // The same number of bytes, a different word; then the old modification time, as a careless tool might leave it.
    await writeFile(article(), text.replace('Plain-English Guide', 'Plain-Spoken Guide!'));
    await utimes(article(), before.atime, before.mtime);
    expect((await stat(article())).size).toBe(before.size);

    const after = await cachedLoad(dir);
    expect(unread(after.jobs)).not.toContain('content/blog/what-is-data.md');
    expect(after.site.posts.find((p) => p.slug === 'what-is-data')?.title).toContain('Plain-Spoken Guide!');
    await writeFile(article(), text);
  });

  it('reads again next time a file modified just before it was read: a write in the same clock tick would not show in its stat', async () => {
    await settle();
    await cachedLoad(dir);
    await writeFile(article(), `${await readFile(article(), 'utf8')}\nA line written just now.\n`);
    await cachedLoad(dir);
    const next = await cachedLoad(dir);
    expect(unread(next.jobs)).not.toContain('content/blog/what-is-data.md');
    expect(unread(next.jobs)).toHaveLength(next.jobs.length - 1);
  });

  it('parses a file it did not read when the cache has lost its entry', async () => {
    await settle();
    const first = await cachedLoad(dir);
    await rm(path.join(dir, CACHE_DIR, 'markdown.pack'));
    await rm(path.join(dir, CACHE_DIR, 'markdown.pack.index'), { force: true });
    const second = await cachedLoad(dir);
    expect(unread(second.jobs)).toHaveLength(second.jobs.length);
    expect(second.site).toEqual(first.site);
  });

  it('finds an image an unchanged article names once the image is added, and refuses it again once it is gone', async () => {
    const text = await readFile(article(), 'utf8');
    await writeFile(article(), `${text}\n![A chart of the example](/images/chart-added-later.svg)\n`);
    await settle();
    const missing = await cachedLoad(dir).then(() => undefined, (e: unknown) => e);
    expect(missing).toBeInstanceOf(ContentErrors);
    expect((missing as ContentErrors).errors.map((e) => e.message).join('\n')).toContain('/images/chart-added-later.svg');

    const image = path.join(dir, 'content/images/chart-added-later.svg');
    await writeFile(image, '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20"><rect width="40" height="20" fill="#123456"/></svg>');
    const found = await cachedLoad(dir);
    expect(found.site.posts.find((p) => p.slug === 'what-is-data')?.bodyImages.map((i) => i.src)).toContain('/images/chart-added-later.svg');

    await rm(image);
    const gone = await cachedLoad(dir).then(() => undefined, (e: unknown) => e);
    expect(gone).toBeInstanceOf(ContentErrors);
    await writeFile(article(), text);
  });

  it('takes an image of content/images as found last time while its inode, size and time are the same, and checks it again once it changes', async () => {
    const logo = path.join(dir, 'content/images/logo.svg');
    await utimes(logo, anHourAgo(), anHourAgo());
    const first = await cachedLoad(dir);
    const width = first.site.images['/images/logo.svg']!.width;
    // What the last check found, altered under the file's own stat: taken as it is, the file not read.
    const index = path.join(dir, CACHE_DIR, 'sources.json');
    const saved = JSON.parse(await readFile(index, 'utf8')) as { images: Record<string, [number, number, number, number, { source: { width: number } }]> };
    saved.images[logo]![4].source.width = width + 1;
    await writeFile(index, JSON.stringify(saved));
    expect((await cachedLoad(dir)).site.images['/images/logo.svg']!.source.width).toBe(width + 1);
    // Written again (the same bytes): its modification time differs, and it is read and measured.
    await writeFile(logo, await readFile(logo));
    expect((await cachedLoad(dir)).site.images['/images/logo.svg']!.source.width).toBe(first.site.images['/images/logo.svg']!.source.width);
  });

  it('refuses to parse a file left unread whose bytes are no longer those its key was made from', () => {
    const job = { rel: 'content/blog/changing.md', digest: digestOf('---\ntitle: Before\n---\n'), read: () => Buffer.from('---\ntitle: After\n---\n') };
    expect(() => parseJob(job)).toThrow('content/blog/changing.md changed while the build was reading it');
    expect(parseJob({ ...job, read: () => Buffer.from('---\ntitle: Before\n---\n') }).source).toEqual(Buffer.from('---\ntitle: Before\n---\n'));
  });
});
