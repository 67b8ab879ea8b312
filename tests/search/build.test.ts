import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { parseHeadersFile } from '../../src/response-headers.ts';
import { fixtureProject, type FixtureProject } from '../support/fixture-project.ts';
import { deployDirFor } from '../../src/output/layout.ts';

let project: FixtureProject;
beforeAll(async () => {
  project = await fixtureProject('site-search-build-', { seeded: true });
  await project.article('kept-out-of-search', { title: 'A Page Nobody Should Find by Searching', date: '2025-01-01', front: ['search: false'], body: 'Zanzibarian words appear here alone.' });
  await project.article('found-by-search', { title: 'A Page Anyone Can Find', date: '2025-01-02', body: 'Quokkas appear here alone.' });
});
afterAll(() => project.remove());

const out = () => path.join(project.root, 'dist');
const indexedPages = async () => {
  const entry = JSON.parse(await readFile(path.join(out(), 'pagefind', 'pagefind-entry.json'), 'utf8')) as { languages: { en: { page_count: number } } };
  return entry.languages.en.page_count;
};

describe('the build with search', () => {
  it('indexes every article, case study and service but the one marked search: false, reports the stage, and reuses the index on a rebuild', async () => {
    const first = await buildSite({ root: project.root, outDir: out(), budgets: false });
    const articles = first.site.posts.length;
    expect(first.summary.search).toMatchObject({ indexed: true, pages: articles - 1 + first.site.caseStudies.length + first.site.collections.services.length });
    expect(await indexedPages()).toBe(first.summary.search!.pages);
    expect(first.summary.stages.search).toBeGreaterThan(0);
    expect(first.routes.some((r) => r.url === '/search')).toBe(true);
    expect(await readFile(path.join(out(), 'blog.html'), 'utf8')).toMatch(/<form role="search"[^>]* action="\/search"/);
    expect(parseHeadersFile(await readFile(path.join(deployDirFor(out()), 'headers.json'), 'utf8')).paths).toHaveLength(1);

    const again = await buildSite({ root: project.root, outDir: out(), budgets: false });
    expect(again.summary.search).toMatchObject({ indexed: false, pages: first.summary.search!.pages });
    expect(existsSync(path.join(out(), 'pagefind', 'pagefind.js'))).toBe(true);

    // A changed body is indexed again.
    await project.edit('blog/found-by-search.md', (t) => t.replace('Quokkas', 'Wombats'));
    const changed = await buildSite({ root: project.root, outDir: out(), budgets: false });
    expect(changed.summary.search?.indexed).toBe(true);
  });

  it('off for one build (site build --no-search): no index, no page, no form, no CSP change; the next build has them again', async () => {
    const off = await buildSite({ root: project.root, outDir: out(), budgets: false, overrides: { search: false } });
    expect(off.summary.search).toBeUndefined();
    expect(off.routes.some((r) => r.url === '/search')).toBe(false);
    expect(existsSync(path.join(out(), 'pagefind'))).toBe(false);
    expect(existsSync(path.join(out(), 'search'))).toBe(false);
    expect(await readFile(path.join(out(), 'blog.html'), 'utf8')).not.toContain('role="search"');
    expect(parseHeadersFile(await readFile(path.join(deployDirFor(out()), 'headers.json'), 'utf8')).paths).toEqual([]);
    expect(await readFile(path.join(out(), 'sitemap.xml'), 'utf8')).not.toContain('/search');

    const on = await buildSite({ root: project.root, outDir: out(), budgets: false });
    expect(on.summary.search?.indexed).toBe(false);
    expect(existsSync(path.join(out(), 'pagefind', 'pagefind.js'))).toBe(true);
    expect(await readFile(path.join(out(), 'sitemap.xml'), 'utf8')).toContain('/search</loc>');
  });
});
