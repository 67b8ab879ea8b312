import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildSession } from '../../src/pipeline/build.ts';
import { editFile, filesOf, scratchProject } from '../scratch-project.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';

const now = new Date('2026-01-15T12:00:00Z');
let dir: string;
const build = (outDir: string, warn: (line: string) => void = () => {}) => buildSite({ root: dir, outDir: path.join(dir, outDir), now, budgets: false, warn });

beforeAll(async () => { dir = await scratchProject('site-cache-', { seeded: true }); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

/** The lines of .site/cache/<kind>.pack: its header, then `<key>\t<JSON>` per entry. */
async function packLines(kind: string): Promise<{ file: string; header: string; entries: Array<[string, string]> }> {
  const file = path.join(dir, CACHE_DIR, `${kind}.pack`);
  const [header, ...rest] = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  return { file, header: header!, entries: rest.map((line) => [line.slice(0, line.indexOf('\t')), line.slice(line.indexOf('\t') + 1)]) };
}
const writePack = (pack: { file: string; header: string; entries: Array<[string, string]> }, tail = '') =>
  writeFile(pack.file, `${[pack.header, ...pack.entries.map(([k, v]) => `${k}\t${v}`)].join('\n')}\n${tail}`);

describe('the build cache (.site/cache/)', () => {
  it('parses again only the article that changed, and renders again only the pages it appears on', async () => {
    const cold = await build('dist');
    expect(cold.redone.parsed).toBe(cold.site.posts.length + 2);
    expect(cold.redone.rendered).toBe(cold.routes.length);

    await editFile(dir, 'content/blog/what-is-data.md', (s) => `${s}\nA closing line added while testing the cache.\n`);
    const warm = await build('dist');
    expect(warm.redone.parsed).toBe(1);
    // The article's own page; list pages and neighbours show only its title and excerpt, which did not change.
    expect(warm.redone.rendered).toBe(1);
    // Every other route is made from the sources of the last build: its key is the one recorded, not worked out again.
    expect(warm.redone.keyed).toBe(1);
    expect(await readFile(path.join(dir, 'dist/blog/what-is-data.html'), 'utf8')).toContain('A closing line added while testing the cache.');

    const same = await build('dist');
    expect(same.redone).toMatchObject({ parsed: 0, rendered: 0, keyed: 0 });

    await editFile(dir, 'content/blog/what-is-data.md', (s) => s.replace(/^title: .*$/m, 'title: "What Is Data, Really?"'));
    const retitled = await build('dist');
    expect(retitled.redone.parsed).toBe(1);
    // A title is read by lists and neighbours: every route's key is worked out from its props again.
    expect(retitled.redone.keyed).toBe(retitled.routes.length);
    // Now the pages that list or link to it change too, and no others.
    expect(retitled.redone.rendered).toBeGreaterThan(1);
    expect(retitled.redone.rendered).toBeLessThan(retitled.routes.length / 2);
    expect(await readFile(path.join(dir, 'dist/blog.html'), 'utf8')).toContain('What Is Data, Really?');
  });

  it('renders every page again when a template changes, and parses no markdown again', async () => {
    await build('dist');
    await editFile(dir, 'templates/pages/NotFound.tsx', (s) => s.replace('Return to Home', 'Back to the home page'));
    const result = await build('dist');
    expect(result.redone).toMatchObject({ parsed: 0, rendered: result.routes.length });
    expect(await readFile(path.join(dir, 'dist/404.html'), 'utf8')).toContain('Back to the home page');
  });

  it('discards a corrupt cache with a one-line warning and builds the same site as a clean build', async () => {
    await rm(path.join(dir, CACHE_DIR), { recursive: true, force: true });
    await build('clean');
    const expected = await filesOf(path.join(dir, 'clean'));

    const markdown = await packLines('markdown');
    // Garbage, a truncated entry, and a line whose key is not a key: none may reach a page.
    markdown.entries[0]![1] = 'not json';
    markdown.entries[1]![1] = markdown.entries[1]![1].slice(0, 40);
    markdown.entries[2]![0] = 'another key';
    // And a last line cut short, as an interrupted build leaves it.
    await writePack(markdown, `${'0'.repeat(64)}\t{"front":"cut`);

    // Into a new folder, so that no page can stand as the last build wrote it, nor be cut out of its document.
    const warnings: string[] = [];
    const result = await build('rebuilt', (line) => warnings.push(line));
    expect(warnings).toEqual(['warning: 4 unreadable entries in .site/cache/ discarded and rebuilt']);
    expect(result.redone).toMatchObject({ parsed: 3, rendered: result.routes.length });
    expect(await filesOf(path.join(dir, 'rebuilt'))).toEqual(expected);

    // The bad lines are gone from the pack: the next build reads every entry back.
    const again: string[] = [];
    expect((await build('rebuilt', (line) => again.push(line))).redone).toMatchObject({ parsed: 0, rendered: 0 });
    expect(again).toEqual([]);
  });

  it('removes the copy of every rendered page that older versions kept (.site/cache/pages.pack)', async () => {
    await build('dist');
    await writeFile(path.join(dir, CACHE_DIR, 'pages.pack'), 'site-cache pages 5\n');
    await writeFile(path.join(dir, CACHE_DIR, 'pages.pack.index'), '{}');
    await build('dist');
    await expect(stat(path.join(dir, CACHE_DIR, 'pages.pack'))).rejects.toThrow();
    await expect(stat(path.join(dir, CACHE_DIR, 'pages.pack.index'))).rejects.toThrow();
  });

  it('starts a pack of another format afresh, and appends what each edit adds', async () => {
    await build('dist');
    const markdown = await packLines('markdown');
    await writeFile(markdown.file, `site-cache markdown 1\n${markdown.entries.map(([k, v]) => `${k}\t${v}`).join('\n')}\n`);
    expect((await build('dist')).redone.parsed).toBeGreaterThan(0);
    expect((await packLines('markdown')).header).toBe(markdown.header);

    // Each edit appends a line (old lines go only once they outnumber the live ones: see store.test.ts).
    const live = (await packLines('markdown')).entries.length;
    for (let i = 0; i < 3; i++) {
      await editFile(dir, 'content/blog/what-is-data.md', (s) => `${s}\nEdit ${i}.\n`);
      await build('dist');
    }
    const grown = await packLines('markdown');
    expect(grown.entries.length).toBe(live + 3);
    expect(new Set(grown.entries.map(([k]) => k)).size).toBe(live + 3);
  });

  it('leaves standing every page whose inputs and document shell are unchanged, and remakes them all when the shell changes', async () => {
    await build('dist');
    const about = path.join(dir, 'dist/about.html');
    const before = await stat(about);
    await editFile(dir, 'content/blog/what-is-data.md', (s) => `${s}\nOne more line, so that this build has something to do.\n`);
    const warm = await build('dist');
    // Only the article's own document is made again: the others are neither read nor written.
    expect(warm.redone).toMatchObject({ rendered: 1, documents: 1 });
    expect((await stat(about)).mtimeMs).toBe(before.mtimeMs);

    // Serve's live-reload tag is part of every document's shell: every page is written again, none rendered.
    const withTag = await buildSite({ root: dir, outDir: path.join(dir, 'dist'), now, budgets: false, extraHead: '<meta name="x-test" content="shell">' });
    expect(withTag.redone).toMatchObject({ rendered: 0, documents: withTag.routes.length });
    expect(await readFile(about, 'utf8')).toContain('<meta name="x-test" content="shell">');
    expect((await stat(about)).mtimeMs).not.toBe(before.mtimeMs);
  });

  it('rewrites a page in dist/ that was changed by hand, and deletes files the build did not make', async () => {
    await build('dist');
    const expected = await filesOf(path.join(dir, 'dist'));
    await writeFile(path.join(dir, 'dist/about.html'), 'edited by hand');
    await writeFile(path.join(dir, 'dist/stray.html'), 'not made by the build');
    await build('dist');
    expect(await filesOf(path.join(dir, 'dist'))).toEqual(expected);
  });

  it('rewrites a page changed by hand once both output trees share it, whether edited in place or replaced', async () => {
    // Two builds: the two trees now share every page's inode, and a build decides by one stat that a page stands.
    await build('dist');
    await build('dist');
    const expected = await filesOf(path.join(dir, 'dist'));
    const about = path.join(dir, 'dist/about.html');
    // Edited in place: the inode both trees share changes, so the build makes the page again.
    await writeFile(about, 'edited by hand');
    await build('dist');
    expect(await filesOf(path.join(dir, 'dist'))).toEqual(expected);
    // Replaced by another file: the live tree's page is a new inode; the build still puts back its own.
    await writeFile(`${about}.tmp`, 'replaced by hand');
    await rename(`${about}.tmp`, about);
    await build('dist');
    expect(await filesOf(path.join(dir, 'dist'))).toEqual(expected);
    await build('dist');
    expect(await filesOf(path.join(dir, 'dist'))).toEqual(expected);
  });

  it("keeps serve's bundles between rebuilds: an article save bundles nothing and renders only its page", async () => {
    const session: BuildSession = { codeChanged: false };
    const serveBuild = () => buildSite({ root: dir, outDir: path.join(dir, 'served'), now, budgets: false, session, preview: true });
    await serveBuild();
    await editFile(dir, 'content/blog/your-data-is-fine.md', (s) => `${s}\nSaved while serve was running.\n`);
    const saved = await serveBuild();
    expect(saved.redone).toMatchObject({ parsed: 1, rendered: 1 });
    expect(saved.summary.stages.bundle).toBeUndefined();
    expect(await readFile(path.join(dir, 'served/blog/your-data-is-fine.html'), 'utf8')).toContain('Saved while serve was running.');

    // A template save: serve marks the code changed, and the next build bundles and renders every page.
    await editFile(dir, 'templates/pages/NotFound.tsx', (s) => s.replace(/Return to Home|Back to the home page/, 'Go to the home page'));
    session.codeChanged = true;
    const templated = await serveBuild();
    expect(templated.summary.stages.bundle).toBeGreaterThan(0);
    expect(templated.redone.rendered).toBe(templated.routes.length);
    expect(await readFile(path.join(dir, 'served/404.html'), 'utf8')).toContain('Go to the home page');
  });
});
