import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSite } from '../../src/content/load.ts';
import { ContentErrors, formatContentError, type ContentError } from '../../src/content/errors.ts';
import { main } from '../../src/cli.ts';

let dir: string;
const content = () => path.join(dir, 'content');

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'site-load-'));
  await cp(path.resolve('content'), content(), { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function edit(file: string, change: (text: string) => string) {
  const target = path.join(content(), file);
  await writeFile(target, change(await readFile(target, 'utf8')));
}

async function errorsOf(): Promise<ContentError[]> {
  try {
    await loadSite(content());
  } catch (error) {
    if (error instanceof ContentErrors) return error.errors;
    throw error;
  }
  throw new Error('expected the content to be refused');
}

const lineOf = async (file: string, pattern: RegExp) =>
  (await readFile(path.join(content(), file), 'utf8')).split('\n').findIndex((l) => pattern.test(l)) + 1;

describe('loadSite', () => {
  it('loads the real content without errors', async () => {
    const site = await loadSite(content());
    expect(site.posts).toHaveLength(8);
    expect(site.posts.map((p) => p.date)).toEqual([...site.posts.map((p) => p.date)].sort().reverse());
    expect(site.caseStudies.map((c) => c.slug)).toEqual(['dc-thomson', 'south-of-scotland-enterprise', 'flexible-childcare-services-scotland']);
  });

  it('names the file, line, field and reason for a bad front-matter date', async () => {
    const file = 'blog/what-is-data.md';
    await edit(file, (t) => t.replace(/^date: .*$/m, 'date: 24/09/2025'));
    const [error, ...rest] = await errorsOf();
    expect(rest).toEqual([]);
    expect(error).toMatchObject({ file: `content/${file}`, path: 'date', message: 'expected an ISO date like 2025-09-24' });
    expect(error!.line).toBe(await lineOf(file, /^date:/));
    expect(formatContentError(error!)).toBe(`content/${file}:${error!.line} date: expected an ISO date like 2025-09-24`);
  });

  it('refuses a date that does not exist', async () => {
    await edit('blog/what-is-data.md', (t) => t.replace(/^date: .*$/m, 'date: 2025-02-30'));
    expect((await errorsOf())[0]).toMatchObject({ path: 'date', message: 'is not a real calendar date' });
  });

  it('reports a missing required field at its parent, and a misspelt one by name', async () => {
    await edit('blog/what-is-data.md', (t) => t.replace(/^title: .*\n/m, '').replace(/^excerpt:/m, 'excerpts:'));
    const errors = await errorsOf();
    expect(errors.map((e) => `${e.path}: ${e.message}`).sort()).toEqual([
      ': unknown field excerpts',
      'excerpt: is required but missing',
      'title: is required but missing',
    ]);
    expect(errors.every((e) => e.file === 'content/blog/what-is-data.md')).toBe(true);
  });

  it('reports every bad file at once, not only the first', async () => {
    await edit('blog/what-is-data.md', (t) => t.replace(/^readingTime: .*$/m, 'readingTime: soon'));
    await edit('case-studies/dc-thomson.yaml', (t) => t.replace(/^client: .*$/m, 'client: ""'));
    await edit('pages/home.yaml', (t) => t.replace(/^title: .*$/m, 'title: [1, 2]'));
    const errors = await errorsOf();
    expect(errors.map((e) => `${e.file} ${e.path}`).sort()).toEqual([
      'content/blog/what-is-data.md readingTime',
      'content/case-studies/dc-thomson.yaml client',
      'content/pages/home.yaml title',
    ]);
    expect(errors.find((e) => e.path === 'title')?.message).toBe('expected text, got a list');
    expect(errors.find((e) => e.path === 'client')?.message).toBe('must not be empty');
  });

  it('reports a missing required file', async () => {
    await rm(path.join(content(), 'pages/home.yaml'));
    expect(await errorsOf()).toContainEqual({ file: 'content/pages/home.yaml', path: '', message: 'is missing: this file is required' });
  });

  it('points at the line of a YAML syntax error', async () => {
    await edit('site.yaml', (t) => t.replace(/^email: .*$/m, 'email: [unclosed'));
    const [error] = await errorsOf();
    expect(error?.file).toBe('content/site.yaml');
    expect(error?.message).toMatch(/^is not valid YAML/);
    expect(error?.line).toBeGreaterThanOrEqual(await lineOf('site.yaml', /^email:/));
  });

  it('refuses an image that is not in content/images, with a hint', async () => {
    await edit('pages/home.yaml', (t) => t.replace('/images/hero-analytics.svg', '/images/hero-analytic.svg'));
    const [error] = await errorsOf();
    expect(error).toMatchObject({ file: 'content/pages/home.yaml', path: 'hero.image.src', hint: 'did you mean /images/hero-analytics.svg?' });
    expect(error?.line).toBe(await lineOf('pages/home.yaml', /hero-analytic\.svg/));
  });

  it('refuses raw HTML in markdown with the line it is on', async () => {
    await edit('blog/what-is-data.md', (t) => `${t}\n\n<div onclick="x()">hi</div>\n`);
    const [error] = await errorsOf();
    expect(error).toMatchObject({ file: 'content/blog/what-is-data.md', path: 'body' });
    expect(error?.message).toMatch(/raw HTML/);
    expect(error?.line).toBe(await lineOf('blog/what-is-data.md', /<div onclick/));
  });

  it('points at the line of a YAML syntax error in front matter', async () => {
    await edit('blog/what-is-data.md', (t) => t.replace(/^readingTime: .*$/m, 'readingTime: 6 min read: or so'));
    const [error] = await errorsOf();
    expect(error).toMatchObject({ file: 'content/blog/what-is-data.md' });
    expect(error?.line).toBe(await lineOf('blog/what-is-data.md', /^readingTime: 6 min read: or so/));
  });

  it('keeps times like 5:30pm as text rather than directives', async () => {
    await edit('blog/what-is-data.md', (t) => `${t}\n\nWe open at 9:30am and close at 5:30pm.\n`);
    const site = await loadSite(content());
    expect(site.posts.find((p) => p.slug === 'what-is-data')?.html).toContain('close at 5:30pm');
  });

  it('site build exits 1 with one line per error and never a raw zod dump', async () => {
    await edit('blog/what-is-data.md', (t) => t.replace(/^date: .*$/m, 'date: soon'));
    await edit('case-studies/dc-thomson.yaml', (t) => t.replace(/^solution:/m, 'solutions:'));
    const err: string[] = [];
    const code = await main(['node', 'site', '--root', dir, 'build', '--out', path.join(dir, 'dist')], { out: () => {}, err: (s) => err.push(s) });
    expect(code).toBe(1);
    expect(err.at(-1)).toBe('build stopped: 3 content errors in 2 file(s)');
    expect(err.slice(0, -1).every((l) => /^content\/[\w/.-]+(:\d+)? [\w.[\]]*:? /.test(l))).toBe(true);
    expect(err.join('\n')).not.toMatch(/invalid_type|"code"|ZodError/);
  });
});
