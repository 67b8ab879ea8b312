import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildSession } from '../../src/build.ts';
import { CACHE_FORMAT } from '../../src/cache/store.ts';
import { editFile, filesOf, scratchProject } from '../scratch-project.ts';

const now = new Date('2026-01-15T12:00:00Z');
let dir: string;
const build = (outDir: string, warn: (line: string) => void = () => {}) => buildSite({ root: dir, outDir: path.join(dir, outDir), now, budgets: false, warn });

beforeAll(async () => { dir = await scratchProject('site-cache-'); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

/** Every file under .site-cache/<kind>/. */
async function entries(kind: string): Promise<string[]> {
  const root = path.join(dir, '.site-cache', kind);
  return (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('the build cache (.site-cache/)', () => {
  it('parses again only the article that changed, and renders again only the pages it appears on', async () => {
    const cold = await build('dist');
    expect(cold.redone.parsed).toBe(cold.site.posts.length + 2);
    expect(cold.redone.rendered).toBe(cold.routes.length);

    await editFile(dir, 'content/blog/what-is-data.md', (s) => `${s}\nA closing line added while testing the cache.\n`);
    const warm = await build('dist');
    expect(warm.redone.parsed).toBe(1);
    // The article's own page; list pages and neighbours show only its title and excerpt, which did not change.
    expect(warm.redone.rendered).toBe(1);
    expect(await readFile(path.join(dir, 'dist/blog/what-is-data/index.html'), 'utf8')).toContain('A closing line added while testing the cache.');

    await editFile(dir, 'content/blog/what-is-data.md', (s) => s.replace(/^title: .*$/m, 'title: "What Is Data, Really?"'));
    const retitled = await build('dist');
    expect(retitled.redone.parsed).toBe(1);
    // Now the pages that list or link to it change too, and no others.
    expect(retitled.redone.rendered).toBeGreaterThan(1);
    expect(retitled.redone.rendered).toBeLessThan(retitled.routes.length / 2);
    expect(await readFile(path.join(dir, 'dist/blog/index.html'), 'utf8')).toContain('What Is Data, Really?');
  }, 120_000);

  it('renders every page again when a template changes, and parses no markdown again', async () => {
    await build('dist');
    await editFile(dir, 'templates/pages/NotFound.tsx', (s) => s.replace('Return to Home', 'Back to the home page'));
    const result = await build('dist');
    expect(result.redone).toMatchObject({ parsed: 0, rendered: result.routes.length });
    expect(await readFile(path.join(dir, 'dist/404.html'), 'utf8')).toContain('Back to the home page');
  }, 120_000);

  it('discards a corrupt cache with a one-line warning and builds the same site as a clean build', async () => {
    await rm(path.join(dir, '.site-cache'), { recursive: true, force: true });
    await build('clean');
    const expected = await filesOf(path.join(dir, 'clean'));

    const markdown = await entries('markdown');
    const pages = await entries('pages');
    // Garbage, a truncated entry, and valid JSON of another shape: none may reach a page.
    await writeFile(markdown[0]!, 'not json');
    await writeFile(markdown[1]!, (await readFile(markdown[1]!, 'utf8')).slice(0, 40));
    for (const file of pages) await writeFile(file, JSON.stringify({ format: CACHE_FORMAT, key: path.basename(file, '.json'), value: { head: '<title>wrong</title>', body: 1, islands: [] } }));
    await writeFile(markdown[2]!, JSON.stringify({ format: CACHE_FORMAT, key: 'another key', value: JSON.parse(await readFile(markdown[3]!, 'utf8')).value }));

    const warnings: string[] = [];
    const result = await build('clean', (line) => warnings.push(line));
    expect(warnings).toEqual([`warning: ${3 + pages.length} unreadable entries in .site-cache/ discarded and rebuilt`]);
    expect(result.redone).toMatchObject({ parsed: 3, rendered: result.routes.length });
    expect(await filesOf(path.join(dir, 'clean'))).toEqual(expected);
  }, 120_000);

  it('rewrites a page in dist/ that was changed by hand, and deletes files the build did not make', async () => {
    await build('dist');
    const expected = await filesOf(path.join(dir, 'dist'));
    await writeFile(path.join(dir, 'dist/about/index.html'), 'edited by hand');
    await writeFile(path.join(dir, 'dist/stray.html'), 'not made by the build');
    await build('dist');
    expect(await filesOf(path.join(dir, 'dist'))).toEqual(expected);
  }, 120_000);

  it("keeps serve's bundles between rebuilds: an article save bundles nothing and renders only its page", async () => {
    const session: BuildSession = { codeChanged: false };
    const serveBuild = () => buildSite({ root: dir, outDir: path.join(dir, 'served'), now, budgets: false, session, preview: true });
    await serveBuild();
    await editFile(dir, 'content/blog/your-data-is-fine.md', (s) => `${s}\nSaved while serve was running.\n`);
    const saved = await serveBuild();
    expect(saved.redone).toMatchObject({ parsed: 1, rendered: 1 });
    expect(saved.summary.stages.bundle).toBeUndefined();
    expect(await readFile(path.join(dir, 'served/blog/your-data-is-fine/index.html'), 'utf8')).toContain('Saved while serve was running.');

    // A template save: serve marks the code changed, and the next build bundles and renders every page.
    await editFile(dir, 'templates/pages/NotFound.tsx', (s) => s.replace(/Return to Home|Back to the home page/, 'Go to the home page'));
    session.codeChanged = true;
    const templated = await serveBuild();
    expect(templated.summary.stages.bundle).toBeGreaterThan(0);
    expect(templated.redone.rendered).toBe(templated.routes.length);
    expect(await readFile(path.join(dir, 'served/404.html'), 'utf8')).toContain('Go to the home page');
  }, 120_000);
});
