import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSite, sourceLinks } from '../../src/content/load.ts';
import { ContentErrors, formatContentError, type ContentError } from '../../src/content/errors.ts';
import { main } from '../../src/cli.ts';
import { EXCERPT_MAX } from '../../src/content/field-rules.ts';

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

  it('refuses an excerpt over its limit, naming the file, line, field and reason', async () => {
    const file = 'blog/what-is-data.md';
    const long = 'Data work pays when it starts from the decisions people make. '.repeat(46).trim();
    await edit(file, (t) => t.replace(/^excerpt: .*$/m, `excerpt: ${long}`));
    const [error, ...rest] = await errorsOf();
    expect(rest).toEqual([]);
    expect(formatContentError(error!)).toBe(`content/${file}:${await lineOf(file, /^excerpt:/)} excerpt: must be at most ${EXCERPT_MAX} characters (it has ${long.length})`);
    // An excerpt of exactly the limit is taken.
    await edit(file, (t) => t.replace(/^excerpt: .*$/m, `excerpt: ${long.slice(0, EXCERPT_MAX)}`));
    await expect(loadSite(content())).resolves.toBeDefined();
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
    // The hint sends the author to the guide that lists the fields, which exists.
    const hint = errors.find((e) => e.message === 'unknown field excerpts')?.hint ?? '';
    expect(hint).toBe('check the spelling against the files and fields listed in docs/authors.md');
    expect(existsSync(hint.split(' ').at(-1)!)).toBe(true);
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

  it('refuses a file name that is not a URL slug in every folder of entries, each named', async () => {
    await rename(path.join(content(), 'services/data-cleaning.yaml'), path.join(content(), 'services/Data Cleaning.yaml'));
    await rename(path.join(content(), 'case-studies/dc-thomson.yaml'), path.join(content(), 'case-studies/DC_Thomson.yaml'));
    const refused = (await errorsOf()).filter((e) => e.message === 'has a file name that is not a URL slug').map((e) => e.file);
    expect(refused.sort()).toEqual(['content/case-studies/DC_Thomson', 'content/services/Data Cleaning']);
  });

  it('reports a missing required file', async () => {
    await rm(path.join(content(), 'pages/home.yaml'));
    expect(await errorsOf()).toContainEqual({ file: 'content/pages/home.yaml', path: '', message: 'is missing: this file is required' });
  });

  it('reports the files in the order it reads them: the YAML files, then the markdown files', async () => {
    // The markdown files go to be parsed before the pages' and collections' YAML is read; their errors still come after.
    await rm(path.join(content(), 'pages/privacy-policy.md'));
    await rm(path.join(content(), 'pages/home.yaml'));
    await edit('services/data-cleaning.yaml', (t) => t.replace(/^name: .*$/m, 'name: [a, list]'));
    const files = (await errorsOf()).map((e) => e.file);
    expect(files).toEqual(['content/pages/home.yaml', 'content/services/data-cleaning.yaml', 'content/pages/privacy-policy.md']);
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

describe('publication fields', () => {
  const file = 'blog/what-is-data.md';
  const addFront = (lines: string) => edit(file, (t) => t.replace(/^faq:/m, `${lines}\nfaq:`));

  it('loads draft, publishDate and expiryDate', async () => {
    await addFront('draft: true\npublishDate: 2026-12-01T09:00:00+00:00\nexpiryDate: 2027-01-01');
    const post = (await loadSite(content())).posts.find((p) => p.slug === 'what-is-data')!;
    expect(post).toMatchObject({ draft: true, publishDate: '2026-12-01T09:00:00+00:00', expiryDate: '2027-01-01' });
  });

  it('refuses an expiry before (or at) the publish date, at the expiryDate line', async () => {
    await addFront('publishDate: 2026-12-01\nexpiryDate: 2026-11-30');
    const [error, ...rest] = await errorsOf();
    expect(rest).toEqual([]);
    expect(formatContentError(error!)).toBe(`content/${file}:${await lineOf(file, /^expiryDate:/)} expiryDate: is not after publishDate (2026-12-01), so the article would never be live`);
  });

  it('refuses a malformed publish date, a time without offset, and a draft flag that is not true or false', async () => {
    await addFront('publishDate: 1 December 2026\nexpiryDate: 2027-01-01T09:00\ndraft: yes');
    const errors = await errorsOf();
    const message = 'expected an ISO date like 2026-12-01, or a date and time with its offset like 2026-12-01T09:00:00+00:00';
    expect(errors.map((e) => `${e.line} ${e.path}: ${e.message}`)).toEqual(expect.arrayContaining([
      `${await lineOf(file, /^draft:/)} draft: expected true or false, got "yes"`,
      `${await lineOf(file, /^expiryDate:/)} expiryDate: ${message}`,
      `${await lineOf(file, /^publishDate:/)} publishDate: ${message}`,
    ]));
    expect(errors).toHaveLength(3);
  });
});

describe('categories and links in content', () => {
  it('refuses two spellings of one category, naming both files and lines', async () => {
    await edit('blog/what-is-data.md', (t) => t.replace('  - Data Culture', '  - data culture'));
    const [error, ...rest] = await errorsOf();
    expect(rest).toEqual([]);
    const first = await lineOf('blog/how-to-avoid-the-four-data-pitfalls.md', /^ {2}- Data Culture/);
    expect(formatContentError(error!)).toBe(`content/blog/what-is-data.md:${await lineOf('blog/what-is-data.md', /^ {2}- data culture/)} categories[1]: "data culture" and "Data Culture" (content/blog/how-to-avoid-the-four-data-pitfalls.md:${first}) would share the address /blog/category/data-culture (hint: spell the category the same way in every article, e.g. "Data Culture")`);
  });

  it('records every markdown link with its file and line', async () => {
    await edit('blog/your-data-is-fine.md', (t) => `${t}\nSee [what data is](/blog/what-is-data) and [ref][r].\n\n[r]: https://www.example.com/blog/what-is-data\n`);
    const site = await loadSite(content());
    const text = await readFile(path.join(content(), 'blog/your-data-is-fine.md'), 'utf8');
    const lines = text.split('\n');
    const ours = sourceLinks(site).filter((l) => l.file === 'content/blog/your-data-is-fine.md' && l.href.includes('what-is-data'));
    expect(ours).toEqual([
      { file: 'content/blog/your-data-is-fine.md', line: lines.findIndex((l) => l.startsWith('See [what data is]')) + 1, path: 'body', href: '/blog/what-is-data' },
      { file: 'content/blog/your-data-is-fine.md', line: lines.findIndex((l) => l.startsWith('[r]:')) + 1, path: 'body', href: 'https://www.example.com/blog/what-is-data' },
    ]);
  });

  it('records addresses written in YAML with their field and line', async () => {
    const site = await loadSite(content());
    const endpoint = site.links.find((l) => l.file === 'content/site.yaml' && l.path === 'url');
    expect(endpoint).toEqual({ file: 'content/site.yaml', line: await lineOf('site.yaml', /^url:/), path: 'url', href: site.settings.url });
  });
});
