import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { editFile, filesOf, scratchProject } from '../scratch-project.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';

/**
 * Article bodies are kept in .site/cache/bodies.pack, apart from the parsed entries, and the parsed
 * article carries a marker in their place until its page is rendered (see src/render/article-body.ts).
 */
const now = new Date('2026-01-15T12:00:00Z');
const MARKER = '\u0000body:';
let dir: string;
const build = (outDir: string, opts: { warn?: (line: string) => void; poolThreshold?: number } = {}) =>
  buildSite({ root: dir, outDir: path.join(dir, outDir), now, budgets: false, warn: opts.warn ?? (() => {}), poolThreshold: opts.poolThreshold });

beforeAll(async () => { dir = await scratchProject('site-bodies-', { seeded: true }); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const pack = (kind: string) => path.join(dir, CACHE_DIR, `${kind}.pack`);
const packLines = async (kind: string) => (await readFile(pack(kind), 'utf8')).split('\n').filter(Boolean);
const dropIndexes = () => Promise.all(['bodies', 'markdown'].map((kind) => rm(`${pack(kind)}.index`, { force: true })));

/** Every HTML file a build wrote, with its text. */
async function htmlOf(outDir: string): Promise<Map<string, string>> {
  const root = path.join(dir, outDir);
  const out = new Map<string, string>();
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (e.isFile() && e.name.endsWith('.html')) out.set(path.relative(root, path.join(e.parentPath, e.name)), await readFile(path.join(e.parentPath, e.name), 'utf8'));
  }
  return out;
}

const expectNoMarker = (pages: Map<string, string>) => {
  expect(pages.size).toBeGreaterThan(10);
  for (const [file, html] of pages) expect(html, file).not.toMatch(/\u0000|\\u0000body:/);
};

describe('article bodies in the build cache', () => {
  it('keeps bodies and their tables of contents out of the parsed entries, renders an edited article with its new body and leaves the other pages byte for byte', async () => {
    const cold = await build('dist');
    const coldPages = await htmlOf('dist');
    expectNoMarker(coldPages);
    expect(coldPages.get('blog/what-is-data.html')).toMatch(/<h2[^>]*>/);

    // One line per article in bodies.pack; the articles' parsed entries hold the marker, not the HTML.
    const articles = cold.site.posts.length;
    expect((await packLines('bodies')).length).toBe(1 + articles);
    const markdown = (await packLines('markdown')).slice(1);
    expect(markdown.filter((line) => line.includes('\\u0000body:')).length).toBe(articles);
    const body = /<p>[^<]{40,}/.exec(coldPages.get('blog/what-is-data.html')!)![0];
    expect(markdown.some((line) => line.includes(body))).toBe(false);
    // Nor their tables of contents, which only their pages read: kept with the bodies, and on the page.
    expect(coldPages.get('blog/what-is-data.html')).toContain('id="toc-heading"');
    expect(markdown.filter((line) => line.includes('\\u0000body:')).every((line) => line.includes('"toc":[]'))).toBe(true);

    await editFile(dir, 'content/blog/what-is-data.md', (s) => `${s}\nA sentence added to test the bodies cache.\n`);
    const warm = await build('dist');
    expect(warm.redone).toMatchObject({ parsed: 1, rendered: 1 });
    const warmPages = await htmlOf('dist');
    expectNoMarker(warmPages);
    const edited = warmPages.get('blog/what-is-data.html')!;
    expect(edited).toContain('A sentence added to test the bodies cache.');
    expect(edited).toContain(body);
    for (const [file, html] of coldPages) if (file !== 'blog/what-is-data.html') expect(warmPages.get(file), file).toBe(html);

    // Rendered afresh from bodies read back from the pack (a template change), in worker threads: the same pages.
    await editFile(dir, 'templates/pages/NotFound.tsx', (s) => s.replace('Return to Home', 'Back to the home page'));
    const templated = await build('dist', { poolThreshold: 1 });
    expect(templated.redone).toMatchObject({ pool: true, parsed: 0, rendered: templated.routes.length });
    const again = await htmlOf('dist');
    expectNoMarker(again);
    for (const [file, html] of warmPages) if (file !== '404.html') expect(again.get(file), file).toBe(html);
  }, 180_000);

  it('builds the right pages from a damaged bodies pack, and discards what was damaged', async () => {
    await rm(path.join(dir, CACHE_DIR), { recursive: true, force: true });
    await build('clean');
    const expected = await filesOf(path.join(dir, 'clean'));
    const [header, ...bodies] = await packLines('bodies');
    expect(bodies.length).toBeGreaterThan(3);

    // Two bodies garbled (still under their keys, so that the index finds them), and the last one cut short.
    const garble = (line: string) => `${line.slice(0, 65)}"<p>half a bo`;
    const damaged = [garble(bodies[0]!), garble(bodies[1]!), ...bodies.slice(2)];
    await writeFile(pack('bodies'), `${[header, ...damaged].join('\n')}\n`.slice(0, -200));
    // No page standing (a new folder): every article's page must be rendered from its body.
    await dropIndexes();

    const warnings: string[] = [];
    const result = await build('rebuilt', { warn: (line) => warnings.push(line), poolThreshold: 1 });
    expect(await filesOf(path.join(dir, 'rebuilt'))).toEqual(expected);
    expectNoMarker(await htmlOf('rebuilt'));
    // The cut-short body is found missing while parsing (its line and its parsed entry: 2), and the article
    // parsed again at once; the garbled two only when their pages render (2 entries each), and the build
    // runs once more, which parses those two again and renders every page (none was left complete to cut up).
    expect(warnings).toEqual(['warning: 6 unreadable entries in .site/cache/ discarded and rebuilt']);
    expect(result.redone).toMatchObject({ parsed: 2, rendered: result.routes.length });

    // The damage is gone: the next build parses nothing and warns of nothing, and makes the same pages.
    const quiet: string[] = [];
    const next = await build('next', { warn: (line) => quiet.push(line) });
    expect(quiet).toEqual([]);
    expect(next.redone.parsed).toBe(0);
    expect(await filesOf(path.join(dir, 'next'))).toEqual(expected);
    for (const line of (await packLines('bodies')).slice(1)) expect(() => JSON.parse(line.slice(65))).not.toThrow();
  }, 180_000);

  it('parses an article again when its body is missing from the pack', async () => {
    await build('dist');
    const [header, ...bodies] = await packLines('bodies');
    await writeFile(pack('bodies'), `${[header, ...bodies.slice(1)].join('\n')}\n`);
    await dropIndexes();
    const warnings: string[] = [];
    const result = await build('dist', { warn: (line) => warnings.push(line) });
    expect(result.redone.parsed).toBe(1);
    expect(warnings).toEqual(['warning: 1 unreadable entry in .site/cache/ discarded and rebuilt']);
    expectNoMarker(await htmlOf('dist'));
    expect((await packLines('bodies')).length).toBe(bodies.length + 1);
  }, 180_000);
});
