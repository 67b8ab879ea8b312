import { readFile, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMarkdownFile } from '../../src/content/markdown-job.ts';
import { ContentErrors } from '../../src/content/errors.ts';
import { sourceLinks } from '../../src/content/load.ts';
import { editFile, scratchProject } from '../scratch-project.ts';
import { cachedLoad } from './cached-load.ts';
import { notedFrontDigest } from '../../src/content/front-digest.ts';
import { siteInputsHash } from '../../src/routes/route-inputs.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';

let dir: string;
beforeAll(async () => { dir = await scratchProject('site-checked-'); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const load = () => cachedLoad(dir);
const markdownPack = () => path.join(dir, CACHE_DIR, 'markdown.pack');

describe("the build cache's checked front matter", () => {
  it('loads the same site when every front matter comes checked from the cache, and checks none of it again', async () => {
    const first = await load();
    expect(first.handed.every((p) => p.checked === undefined)).toBe(true);

    const second = await load();
    // Every article and legal page comes with its front matter as the first load found it valid.
    expect(second.handed.length).toBeGreaterThan(5);
    expect(second.handed.every((p) => p.checked !== undefined)).toBe(true);
    expect(second.site).toEqual(first.site);
    // The addresses the front matter names, with their lines, for the link checks.
    expect(second.site.links).toEqual(first.site.links);
    expect(sourceLinks(second.site)).toEqual(sourceLinks(first.site));
    expect(sourceLinks(second.site).filter((l) => l.path === 'body').length).toBeGreaterThan(5);
  });

  it("gives the site's inputs hash the digest of each article's front matter, the one worked out from the article itself", async () => {
    await load();
    const { site } = await load();
    // Each article comes with the digest its checked front matter was filed with...
    expect(site.posts.every((post) => notedFrontDigest(post) !== undefined)).toBe(true);
    // ...which is what the site's inputs hash would work out from copies of the articles, which carry none.
    const copies = { ...site, posts: site.posts.map((post) => ({ ...post })) };
    expect(copies.posts.some((post) => notedFrontDigest(post) !== undefined)).toBe(false);
    expect(siteInputsHash(site, 'code')).toBe(siteInputsHash(copies, 'code'));
    // And another front matter is another source, noted or not.
    const retitled = { ...site, posts: site.posts.map((post, i) => (i === 0 ? { ...post, title: 'Another title' } : post)) };
    expect(siteInputsHash(retitled, 'code')).not.toBe(siteInputsHash(site, 'code'));
  });

  it('checks an edited article again, and reports its error with file, field and line', async () => {
    await load();
    await editFile(dir, 'content/blog/what-is-data.md', (s) => s.replace(/^date: .*$/m, 'date: 13 May 2025'));
    const error = await load().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ContentErrors);
    const found = (error as ContentErrors).errors.find((e) => e.file === 'content/blog/what-is-data.md');
    expect(found).toMatchObject({ path: 'date', line: 4 });
    await editFile(dir, 'content/blog/what-is-data.md', (s) => s.replace(/^date: .*$/m, 'date: 2025-05-13'));
    expect((await load()).site.posts.find((p) => p.slug === 'what-is-data')?.date).toBe('2025-05-13');
  });

  it("keeps no front matter text in a checked entry, and still gives an error between two unchanged articles its lines", async () => {
    // Two spellings of one category, each in an article found valid alone (so each is filed as checked).
    const [a, b] = ['content/blog/what-is-data.md', 'content/blog/your-data-is-fine.md'];
    await editFile(dir, a, (s) => s.replace(/^categories:\n/m, 'categories:\n  - Data Ethics\n'));
    await editFile(dir, b, (s) => s.replace(/^categories:\n/m, 'categories:\n  - data ethics\n'));
    try {
      const clash = (found: unknown) => (found as ContentErrors).errors.filter((e) => e.path === 'categories[0]');
      const first = await load().then(() => undefined, (e: unknown) => e);
      expect(first).toBeInstanceOf(ContentErrors);
      const again = await load().then(() => undefined, (e: unknown) => e);
      expect(again).toBeInstanceOf(ContentErrors);
      // Both articles came from the cache as checked, without their front matter's text...
      const entries = (await readFile(markdownPack(), 'utf8')).split('\n').slice(1).filter(Boolean).map((line) => JSON.parse(line.slice(65)) as ParsedMarkdownFile);
      const filed = entries.filter((e) => e.checked && (e.checked.data as { categories?: string[] }).categories?.some((c) => /data ethics/i.test(c)));
      expect(filed.length).toBeGreaterThanOrEqual(2);
      expect(filed.every((e) => e.front === undefined)).toBe(true);
      // ...and the error still names the line of the spelling that lost, read again from its file.
      expect(clash(again)).toEqual(clash(first));
      expect(clash(again)).toContainEqual(expect.objectContaining({ line: expect.any(Number) }));
    } finally {
      await editFile(dir, a, (s) => s.replace('  - Data Ethics\n', ''));
      await editFile(dir, b, (s) => s.replace('  - data ethics\n', ''));
    }
  });

  it('still refuses an article whose image is gone, though its front matter was found valid before', async () => {
    await load();
    const image = path.join(dir, 'content/images/blog-what-is-data.svg');
    const kept = await readFile(image);
    await unlink(image);
    try {
      const error = await load().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ContentErrors);
      expect((error as ContentErrors).errors).toContainEqual(expect.objectContaining({ file: 'content/blog/what-is-data.md', path: 'image.src', message: expect.stringContaining('/images/blog-what-is-data.svg') }));
    } finally {
      await writeFile(image, kept);
    }
  });

  it('parses and checks again what another version of the generator checked: its schemas may differ', async () => {
    const before = (await load()).site;
    // The same entries, as if another generator had checked them and found other data.
    const pack = await readFile(markdownPack(), 'utf8');
    const others = pack.split('\n').map((line) => {
      const tab = line.indexOf('\t');
      if (tab === -1) return line;
      const entry = JSON.parse(line.slice(tab + 1)) as ParsedMarkdownFile;
      if (!entry.checked) return line;
      return `${line.slice(0, tab)}\t${JSON.stringify({ ...entry, checked: { ...entry.checked, by: 'another generator', data: { ...entry.checked.data, title: 'Not what the file says' } } })}`;
    });
    await writeFile(markdownPack(), others.join('\n'));
    await rm(`${markdownPack()}.index`, { force: true });

    const again = await load();
    expect(again.handed.every((p) => p.checked === undefined)).toBe(true);
    expect(again.site).toEqual(before);
    // And filed again as this generator checked them.
    expect((await load()).handed.every((p) => p.checked !== undefined)).toBe(true);
  });

  it("takes each YAML file as this generator last found it valid, and checks it again once it, the images or the generator change", async () => {
    const contact = 'content/pages/contact.yaml';
    const before = (await load()).site;
    expect((await load()).site).toEqual(before);
    const record = path.join(dir, CACHE_DIR, 'sources.json');
    const saved = JSON.parse(await readFile(record, 'utf8')) as { yaml: { by: string; checked: Record<string, { data: { title?: string } }> } };
    const retitled = (by: string) => JSON.stringify({ ...saved, yaml: { by, checked: Object.fromEntries(Object.entries(saved.yaml.checked).map(([key, c]) => [key, { ...c, data: { ...c.data, title: 'Recorded, not read' } }])) } });

    // What the record holds is what the load takes: nothing is parsed or checked again...
    await writeFile(record, retitled(saved.yaml.by));
    expect((await load()).site.pages.contact.title).toBe('Recorded, not read');
    // ...unless another generator recorded it.
    await writeFile(record, retitled('another generator'));
    expect((await load()).site.pages.contact.title).toBe(before.pages.contact.title);

    // An edit is checked, and its error reported with file, field and line.
    await editFile(dir, contact, (s) => s.replace(/^title: .*$/m, 'title: [Contact, Us]'));
    const error = await load().then(() => undefined, (e: unknown) => e);
    expect((error as ContentErrors).errors).toContainEqual(expect.objectContaining({ file: contact, path: 'title', line: 1 }));
    await editFile(dir, contact, (s) => s.replace(/^title: .*$/m, 'title: Contact Us'));
    expect((await load()).site.pages.contact.title).toBe('Contact Us');

    // An image a YAML file names, gone, is reported though the file is as it was.
    const image = path.join(dir, 'content/images/dialog-assessment.svg');
    const kept = await readFile(image);
    await unlink(image);
    try {
      const gone = await load().then(() => undefined, (e: unknown) => e);
      expect((gone as ContentErrors).errors).toContainEqual(expect.objectContaining({ file: 'content/pages/dialog-assessment.yaml', path: 'image.src' }));
    } finally {
      await writeFile(image, kept);
    }
  });
});
