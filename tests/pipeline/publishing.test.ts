/**
 * Drafts, scheduled and expiring articles through a whole build, in a temp project root with a fixed
 * clock: what each output contains at a given moment. Pure rules are in tests/content/publication and published.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildResult } from '../../src/pipeline/build.ts';
import { ContentErrors, formatContentError } from '../../src/content/errors.ts';
import { resolve, type RoutingTable } from '../../src/url-resolution/resolve.ts';
import { checkLinksCommand } from '../../src/links/command.ts';
import { main } from '../../src/cli.ts';
import { formatSummary } from '../../src/measure/summary.ts';
import { addPublishingArticles, CLOCK, fixtureProject, type FixtureProject } from '../support/fixture-project.ts';
import { deployDirFor } from '../../src/output/layout.ts';

const UNPUBLISHED_IN_JUNE = ['draft-article', 'scheduled-article'];
const BANNER_TEXTS = ['Draft: not published', 'Scheduled for'];

let project: FixtureProject;
const built: Record<'june' | 'december' | 'preview', { result: BuildResult; out: string }> = {} as never;

/** Every file under `dir`, through links too (.site/deploy/routing.json and the rest link into the current build's tree). */
async function walk(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, e.name);
    const info = e.isSymbolicLink() ? await stat(file) : e;
    if (info.isDirectory()) files.push(...await walk(file));
    else if (info.isFile()) files.push(file);
  }
  return files;
}

/** Every file a build wrote, dist/ and .site/deploy/ alike, with its text. */
async function outputs(out: string): Promise<Array<{ file: string; text: string }>> {
  const files = [...await walk(out), ...await walk(deployDirFor(out))];
  return Promise.all(files.filter((f) => !/\.(png|jpe?g|webp|avif)$/.test(f)).map(async (file) => ({ file: path.relative(path.dirname(out), file), text: await readFile(file, 'utf8') })));
}

const read = (out: string, file: string) => readFile(path.join(out, file), 'utf8');
const cardSlugs = (html: string) => [...html.matchAll(/<h3 class="post-card__title"><a class="stretched" href="\/blog\/([^"]+)"/g)].map((m) => m[1]);
const table = async (out: string) => JSON.parse(await readFile(path.join(deployDirFor(out), 'routing.json'), 'utf8')) as RoutingTable;

beforeAll(async () => {
  project = await fixtureProject('site-publishing-', { seeded: true });
  await addPublishingArticles(project);
  for (const [name, opts] of [['june', { now: CLOCK.june }], ['december', { now: CLOCK.december }], ['preview', { now: CLOCK.june, preview: true }]] as const) {
    const out = path.join(project.root, name, 'dist');
    built[name] = { result: await buildSite({ root: project.root, outDir: out, budgets: false, ...opts }), out };
  }
}, 180_000);
afterAll(() => project?.remove());

describe('a production build at a fixed clock', () => {
  it('leaves the draft and the not-yet-scheduled article out of every file it writes', async () => {
    const { out } = built.june;
    const files = await outputs(out);
    expect(files.map((f) => f.file)).toEqual(expect.arrayContaining(['dist/sitemap.xml', 'dist/blog/feed.xml', '.site/deploy/routing.json', '.site/deploy/cloudfront/viewer-request.js']));
    for (const slug of UNPUBLISHED_IN_JUNE) {
      const mentions = files.filter((f) => f.text.includes(slug)).map((f) => f.file);
      expect(mentions, slug).toEqual([]);
    }
    // Their titles appear nowhere either: no card, teaser, feed entry or JSON-LD.
    for (const title of ['Drafting a Data Strategy Your Board Will Read', 'Planning the Year Ahead for Your Data']) {
      expect(files.filter((f) => f.text.includes(title)).map((f) => f.file), title).toEqual([]);
    }
    // The expiring article is still live in June, everywhere.
    expect(await read(out, 'sitemap.xml')).toContain('/blog/expiring-article</loc>');
    expect(await read(out, 'blog/feed.xml')).toContain('/blog/expiring-article"/>');
  });

  it('numbers the list by the live articles alone, and sends their addresses to /blog like any unknown article', async () => {
    const { out, result } = built.june;
    // 12 live: two full pages. Counting the two unpublished would make a third.
    const pages = result.routes.filter((r) => r.template === 'blogList' && !r.url.startsWith('/blog/category/')).map((r) => r.url);
    expect(pages).toEqual(['/blog', '/blog/page/2']);
    expect(cardSlugs(await read(out, 'blog/page/2.html'))).toHaveLength(6);
    const routing = await table(out);
    for (const slug of UNPUBLISHED_IN_JUNE) expect(resolve(`/blog/${slug}`, routing)).toEqual({ kind: 'redirect', location: '/blog', status: 302 });
    expect(resolve('/blog/expiring-article', routing)).toEqual({ kind: 'file', file: '/blog/expiring-article.html', status: 200 });
  });

  it("gives the link checker a site without them, and nothing broken", async () => {
    const lines: string[] = [];
    const code = await checkLinksCommand({ dir: built.june.out, external: false, json: true, out: (l) => lines.push(l) });
    expect(code, lines.join('\n')).toBe(0);
    const report = lines.join('\n');
    expect(report).not.toMatch(/draft-article|scheduled-article/);
  });

  it('publishes the scheduled article at its minute, and takes the expired one down', async () => {
    const { out } = built.december;
    const files = await outputs(out);
    expect(files.filter((f) => f.text.includes('expiring-article')).map((f) => f.file)).toEqual([]);
    expect(files.filter((f) => f.text.includes('draft-article')).map((f) => f.file)).toEqual([]);
    expect(await read(out, 'blog/scheduled-article.html')).toContain('Planning the Year Ahead for Your Data');
    expect(await read(out, 'sitemap.xml')).toContain('/blog/scheduled-article</loc>');
    expect(await read(out, 'blog/feed.xml')).toContain('/blog/scheduled-article"/>');
    expect(cardSlugs(await read(out, 'blog.html'))[0]).toBe('scheduled-article');
    // Continue Reading on the newest real article now offers it.
    expect(await read(out, 'blog/strategy-note-3.html')).toContain('href="/blog/scheduled-article"');
    expect((await table(out)).pageUrls).toContain('/blog/scheduled-article');
    expect(resolve('/blog/expiring-article', await table(out))).toEqual({ kind: 'redirect', location: '/blog', status: 302 });
  });

  it('never writes the preview banner or markers', async () => {
    for (const name of ['june', 'december'] as const) {
      for (const { file, text } of await outputs(built[name].out)) {
        for (const banner of BANNER_TEXTS) expect(text.includes(banner), `${file}: ${banner}`).toBe(false);
        expect(text.includes('data-preview'), file).toBe(false);
        if (file.endsWith('.html')) expect(/preview-(banner|marker)/.test(text), file).toBe(false);
      }
    }
  });

  it('counts live, draft, scheduled and expired articles, and names the next change', () => {
    expect(built.june.result.summary.articles).toEqual({
      live: 12, draft: 1, scheduled: 1, expired: 0,
      nextChange: { at: '2026-06-30T23:00:00.000Z', local: '2026-07-01 00:00 Europe/London', publishes: [], expires: ['expiring-article'] },
    });
    const lines = formatSummary(built.june.result.summary).split('\n');
    expect(lines).toContain('  articles: 12 live, 1 draft, 1 scheduled, 0 expired');
    expect(lines).toContain('  next change: 2026-07-01 00:00 Europe/London, expires expiring-article');
    expect(built.december.result.summary.articles).toMatchObject({ live: 12, draft: 1, scheduled: 0, expired: 1, nextChange: null });
  });
});

describe('category pages in a build', () => {
  it('page the live articles of a category newest first, six a page, and leave out unpublished ones', async () => {
    const { out } = built.june;
    const one = cardSlugs(await read(out, 'blog/category/data-strategy.html'));
    const two = cardSlugs(await read(out, 'blog/category/data-strategy/page/2.html'));
    expect(one.slice(0, 4)).toEqual(['expiring-article', 'strategy-note-3', 'strategy-note-2', 'strategy-note-1']);
    expect([one.length, two.length]).toEqual([6, 3]);
    expect([...one, ...two]).not.toContain('draft-article');
    const sitemap = await read(out, 'sitemap.xml');
    expect(sitemap).toContain('<loc>https://www.example.com/blog/category/data-strategy</loc>');
    expect(sitemap).toContain('<loc>https://www.example.com/blog/category/data-strategy/page/2</loc>');
  });

  it('exist only while a category has a live article', async () => {
    const june = (await table(built.june.out)).pageUrls;
    const december = (await table(built.december.out)).pageUrls;
    expect(june).toContain('/blog/category/seasonal-offers');
    expect(december).not.toContain('/blog/category/seasonal-offers');
    expect(june).not.toContain('/blog/category/unreleased-topic');
    expect(built.preview.result.table.pageUrls).toContain('/blog/category/unreleased-topic');
  });
});

describe('the preview build (site serve)', () => {
  it('includes drafts and scheduled articles, each page with its banner and each card with its marker', async () => {
    const { out } = built.preview;
    const draft = await read(out, 'blog/draft-article.html');
    expect(draft).toMatch(/<div class="preview-banner" role="note" aria-label="Publication status" data-preview="draft">.*Draft: not published/);
    expect(await read(out, 'blog/scheduled-article.html')).toContain('Scheduled for 1 December 2026 at 09:00');
    const list = await read(out, 'blog.html');
    expect(list).toContain('<p class="preview-marker" data-preview="draft">Draft: not published</p>');
    expect(list).toContain('<p class="preview-marker" data-preview="scheduled">Scheduled for 1 December 2026 at 09:00</p>');
    // Live articles carry no mark.
    expect(await read(out, 'blog/strategy-note-1.html')).not.toContain('preview-banner');
    expect(built.preview.result.summary.articles).toMatchObject({ live: 12, draft: 1, scheduled: 1 });
  });
});

describe('a link from a live page to an unpublished article', () => {
  it('stops the build, naming the linking file and line and the unpublished file; a preview only warns', async () => {
    const broken = await fixtureProject('site-publishing-link-', { seeded: true });
    try {
      await addPublishingArticles(broken);
      await broken.edit('blog/what-is-data.md', (t) => `${t}\nRead next: [our board-ready strategy guide](/blog/draft-article).\n`);
      const error = await buildSite({ root: broken.root, outDir: path.join(broken.root, 'dist'), now: CLOCK.june, budgets: false }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ContentErrors);
      const lines = (error as ContentErrors).errors.map(formatContentError);
      const source = (await readFile(path.join(broken.root, 'content/blog/what-is-data.md'), 'utf8')).split('\n');
      const line = source.findIndex((l) => l.startsWith('Read next:')) + 1;
      expect(lines).toEqual([`content/blog/what-is-data.md:${line} body: links to /blog/draft-article, which this build leaves out because it is a draft (content/blog/draft-article.md) (hint: remove the link until that article is live, or publish the article first)`]);

      const preview = await buildSite({ root: broken.root, outDir: path.join(broken.root, 'dist'), now: CLOCK.june, budgets: false, preview: true });
      expect(preview.warnings.map(formatContentError)).toEqual(lines);
    } finally {
      await broken.remove();
    }
  });
});

describe('site build --now and --json-summary', () => {
  const run = async (args: string[], env: Record<string, string> = {}) => {
    const out: string[] = []; const err: string[] = [];
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const code = await main(['node', 'site', '--root', project.root, ...args], { out: (s) => out.push(s), err: (s) => err.push(s) });
      return { code, out: out.join('\n'), err: err.join('\n') };
    } finally {
      for (const k of Object.keys(env)) if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k];
    }
  };

  it('prints the figures as JSON for a CI job, at the clock --now gives', async () => {
    const { code, out, err } = await run(['build', '--out', path.join(project.root, 'cli', 'dist'), '--now', '2026-12-01T09:00:00Z', '--json-summary']);
    expect(code, err).toBe(0);
    const summary = JSON.parse(out) as { pages: number; articles: unknown; perPage?: unknown };
    expect(summary.articles).toEqual({ live: 12, draft: 1, scheduled: 0, expired: 1, nextChange: null });
    expect(summary.pages).toBe(built.december.result.summary.pages);
    expect(summary.perPage).toBeUndefined();
  });

  it('reads SITE_NOW when there is no --now, and refuses a malformed clock as a usage error', async () => {
    const outDir = path.join(project.root, 'cli-env', 'dist');
    const bad = await run(['build', '--out', outDir, '--now', '1 June 2026']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("option '--now <iso>' argument '1 June 2026' is invalid. expected an ISO date like 2026-12-01, or a date and time with its offset like 2026-12-01T09:00:00+00:00");
    const badEnv = await run(['build', '--out', outDir], { SITE_NOW: 'soon' });
    expect(badEnv).toMatchObject({ code: 2, err: "error: SITE_NOW 'soon': expected an ISO date like 2026-12-01, or a date and time with its offset like 2026-12-01T09:00:00+00:00" });
    const ok = await run(['build', '--out', outDir], { SITE_NOW: '2026-06-01' });
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toContain('  articles: 12 live, 1 draft, 1 scheduled, 0 expired');
    expect(ok.out).toContain('  clock: 2026-06-01 00:00 Europe/London (SITE_NOW), not the real time');
  });

  it("--drafts builds the drafts and scheduled articles, marked, for a pull request's preview, and says so; the build after it without --drafts leaves them out again", async () => {
    const out = path.join(project.root, 'cli-drafts', 'dist');
    const drafts = await run(['build', '--out', out, '--now', '2026-06-01', '--drafts']);
    expect(drafts.code, drafts.err).toBe(0);
    expect(drafts.out).toContain("  drafts and scheduled articles built too, each marked (--drafts): site deploy puts this build up only as a pull request's preview");
    expect(drafts.out).toContain('  articles: 12 live, 1 draft, 1 scheduled, 0 expired');
    expect(await read(out, 'blog/draft-article.html')).toMatch(/data-preview="draft">.*Draft: not published/);
    expect(await read(out, 'blog/scheduled-article.html')).toContain('Scheduled for 1 December 2026 at 09:00');
    // Never the live-reload script of site serve.
    expect(await read(out, 'blog/draft-article.html')).not.toContain('/__site/');
    // The next build without --drafts is a whole one (no quick rebuild on top of the drafts' pages), and leaves them out.
    const live = await run(['build', '--out', out, '--now', '2026-06-01']);
    expect(live.code, live.err).toBe(0);
    expect(live.out).not.toContain('a quick rebuild');
    expect(live.out).not.toContain('--drafts');
    await expect(read(out, 'blog/draft-article.html')).rejects.toThrow(/ENOENT/);
    expect(await read(out, 'blog.html')).not.toContain('preview-marker');
  });
});
