import { cp, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLinksCommand } from '../../src/links/command.ts';
import type { Report } from '../../src/links/report.ts';
import { deployDirFor } from '../../src/output/layout.ts';

const fixtures = fileURLToPath(new URL('../fixtures/links/', import.meta.url));
let tmp: string;
let dist: string;

/** Runs the command and returns its exit code, its report lines and its error lines. */
async function run(dir: string, flags: { external?: boolean; json?: boolean } = {}, fetchStub?: typeof fetch) {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await checkLinksCommand({
    dir, external: flags.external ?? false, json: flags.json ?? false,
    out: (l) => lines.push(l), err: (l) => errors.push(l),
    ...(fetchStub && { externalOptions: { fetch: fetchStub } }),
  });
  return { code, lines, errors };
}

/**
 * A copy of a fixture (written as our build writes, 'about.html' for /about) in the layout a plain
 * static host needs to serve /about: 'about/index.html'. The error pages stay as they are.
 */
async function inFolders(fixture: string): Promise<string> {
  const dir = path.join(tmp, 'in-folders', fixture); // no .site/deploy/ beside it
  await cp(path.join(fixtures, fixture), dir, { recursive: true });
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.html') && f !== 'index.html' && path.basename(f) !== '404.html');
  for (const file of files) {
    const index = path.join(dir, file.slice(0, -'.html'.length), 'index.html');
    await mkdir(path.dirname(index), { recursive: true });
    await rename(path.join(dir, file), index);
  }
  return dir;
}

beforeAll(async () => {
  // The build writes routing.json to .site/deploy/ beside dist/, which is git-ignored, so assemble it here.
  tmp = await mkdtemp(path.join(tmpdir(), 'check-links-'));
  dist = path.join(tmp, 'dist');
  await cp(path.join(fixtures, 'broken'), dist, { recursive: true });
  await mkdir(deployDirFor(dist), { recursive: true });
  await cp(path.join(fixtures, 'routing.json'), path.join(deployDirFor(dist), 'routing.json'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('site check-links on a broken site', () => {
  it('prints every broken link with its page and why, the layout link once, and exits 1', async () => {
    const { code, lines, errors } = await run(dist);
    expect(errors).toEqual([]);
    expect(lines).toEqual([
      'in the layout (on all 7 pages): /privacy → 404 (no page)',
      '/: /about#history → no element with id "history" on /about',
      '/: /servces → 404 (no page)',
      '/: https://example.com/nope → 404 (no page)',
      '/: /images/hero-2x.jpg → 404 (no file /images/hero-2x.jpg)',
      "/about: /blog/ → trailing slash: the site's URLs have none",
      '/about: ../blog → relative URL; use root-relative /blog',
      '/about: #faq → no element with id "faq" on /about',
      '/blog: /assets/old.css → 404 (no file /assets/old.css)',
      '/blog: /assets/missing.png → 404 (no file /assets/missing.png)',
      '/blog: javascript:void(0) → javascript: URL (unsafe; use a button)',
      '/blog: /blog/no-such-post → 302 to /blog (no such page)',
      '/blog: /assets/gone.js → 404 (no file /assets/gone.js)',
      '/blog/hello: /case-studies/unknown → 404 (no page)',
      '/about: duplicate id "dup" (2 elements)',
      'checked 7 pages, 94 internal links, 1 external link (not fetched); 14 broken, 1 duplicate id',
    ]);
    expect(code).toBe(1);
  });

  it('passes what is sound: good fragments, the redirect, mailto/tel, data:, the form, comments and JSON', async () => {
    const text = (await run(dist)).lines.join('\n');
    for (const fine of ['/about#team', '/blog/hello#intro', '/services/analytics-and-reporting', 'https://example.com/about', 'mailto:', 'tel:', 'data:', '/api/send-contact-form', '/in-a-comment', '/in-json', '#top', '/blog/feed.xml', '/images/poster.jpg']) {
      expect(text).not.toContain(fine);
    }
  });

  it('prints one JSON object for CI', async () => {
    const { code, lines } = await run(dist, { json: true });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]!) as Report;
    expect(report.pages).toBe(7);
    expect(report.internal).toBe(94);
    expect(report.external).toEqual([{ url: 'https://example.org/partner', pages: 1 }]);
    expect(report.grouped).toEqual([{ link: '/privacy', reason: '404 (no page)', kind: 'not-found', pages: 7 }]);
    expect(report.broken).toHaveLength(13);
    expect(report.broken).toContainEqual({ page: '/blog', link: '/assets/gone.js', reason: '404 (no file /assets/gone.js)', kind: 'missing-file' });
    expect(report.duplicateIds).toEqual([{ page: '/about', id: 'dup', count: 2 }]);
  });

  it('fetches external links only with --external, and reports the failures', async () => {
    const asked: string[] = [];
    const stub = (async (url: string | URL | Request, init?: RequestInit) => {
      asked.push(`${init?.method} ${String(url)}`);
      return new Response(null, { status: 404 });
    }) as typeof fetch;
    const { code, lines } = await run(dist, { external: true }, stub);
    expect(code).toBe(1);
    expect(asked).toEqual(['HEAD https://example.org/partner', 'GET https://example.org/partner']);
    expect(lines).toContain('/: https://example.org/partner → 404 (external)');
    expect(lines.at(-1)).toBe('checked 7 pages, 94 internal links, 1 external link (fetched, 1 failed); 15 broken, 1 duplicate id');
  });

  it('without .site/deploy/routing.json, resolves as a plain static host: real defects only, no URL conventions', async () => {
    // No .site/deploy/routing.json beside the copy: no redirects, no fallbacks, no conventions.
    const { lines } = await run(await inFolders('broken'));
    expect(lines).toContain('/: /services/analytics-and-reporting → 404 (no file /services/analytics-and-reporting)');
    expect(lines).toContain('/blog/: /blog/no-such-post → 404 (no file /blog/no-such-post)');
    expect(lines).toContain('/about/: #faq → no element with id "faq" on /about/');
    const text = lines.join('\n');
    for (const convention of ['trailing slash', 'relative URL', 'javascript:']) expect(text).not.toContain(convention);
    expect(lines.at(-1)).toBe('checked 7 pages, 93 internal links, 1 external link (not fetched); 12 broken, 1 duplicate id (no .site/deploy/routing.json: resolved as a plain static host)');
  });
});

describe('site check-links on a plain static site (no .site/deploy/routing.json)', () => {
  const plain = path.join(fixtures, 'plain');
  // Every defect planted in tests/fixtures/links/plain, and nothing else.
  const DEFECTS = [
    '/: css/print.css → 404 (no file /css/print.css)',
    '/: js/missing.js → 404 (no file /js/missing.js)',
    '/: contact.html → 404 (no file /contact.html)',
    '/: about.html#history → no element with id "history" on /about.html',
    '/: img/hero-large.jpg → 404 (no file /img/hero-large.jpg)',
    '/about.html: img/team.jpg → 404 (no file /img/team.jpg)',
    '/blog/2024/first-post.html: ../../img/photo-2x.webp → 404 (no file /img/photo-2x.webp)',
    '/blog/2024/first-post.html: ../ → 404 (no file /blog/index.html)',
    '/docs/: my%20page.html#nowhere → no element with id "nowhere" on /docs/my%20page.html',
    '/docs/: reference/ → 404 (no file /docs/reference/index.html)',
    '/docs/guide/: https://plain.example/docs/guide/old-name.html → 404 (no file /docs/guide/old-name.html)',
    '/docs/guide/: step-2.html → 404 (no file /docs/guide/step-2.html)',
    '/docs/my%20page.html: #missing-section → no element with id "missing-section" on /docs/my%20page.html',
    '/about.html: duplicate id "values" (2 elements)',
  ];

  it('finds every broken link, missing fragment, image, stylesheet, script, srcset candidate, the broken canonical and the duplicate id', async () => {
    const { code, lines, errors } = await run(plain);
    expect(errors).toEqual([]);
    expect(lines).toEqual([...DEFECTS, 'checked 6 pages, 64 internal links, 1 external link (not fetched); 13 broken, 1 duplicate id (no .site/deploy/routing.json: resolved as a plain static host)']);
    expect(code).toBe(1);
  });

  it('flags no valid link: query strings, encoded spaces, ../ paths, fragments on other pages, directory indexes, mailto: and tel:', async () => {
    const report = JSON.parse((await run(plain, { json: true })).lines[0]!) as Report;
    expect(report.staticHost).toBe(true);
    const flagged = new Set(report.broken.map((b) => `${b.page} ${b.link}`));
    const valid = [
      '/ docs/', '/ docs', '/ ./docs/index.html', '/ docs/my%20page.html#setup', '/ about.html?ref=home#team', '/ about.html?ref=nav&lang=en',
      '/ /blog/2024/first-post.html?utm_source=home', '/ https://plain.example/about.html', '/ //plain.example/docs/', '/ css/site.css?v=3',
      '/ img/logo@2x.png', '/ mailto:hello@plain.example?subject=Field%20notes', '/ tel:+441382000000', '/ javascript:void(0)',
      '/about.html ./', '/about.html /docs/my%20page.html#install', '/about.html docs/../index.html#main',
      '/docs/ my%20page.html', '/docs/ guide/index.html#step-1', '/docs/ ../', '/docs/ ../about.html#values', '/docs/ ../img/../about.html', '/docs/ ?page=2',
      '/docs/my%20page.html ../docs/?tab=1', '/docs/my%20page.html #setup',
      '/docs/guide/ ../../../about.html#team', '/blog/2024/first-post.html ../../img/photo.jpg?w=800',
    ];
    expect(valid.filter((v) => flagged.has(v))).toEqual([]);
    expect(report.broken).toHaveLength(13);
  });
});

describe('site check-links exit codes', () => {
  it('exits 0 on a sound site, with our routing table and as a plain static folder in its layout', async () => {
    const site = path.join(tmp, 'clean');
    await cp(path.join(fixtures, 'clean'), path.join(site, 'dist'), { recursive: true });
    await mkdir(deployDirFor(path.join(site, 'dist')), { recursive: true });
    await writeFile(path.join(deployDirFor(path.join(site, 'dist')), 'routing.json'), JSON.stringify({ pageUrls: ['/', '/about', '/blog'], redirects: {}, fallbacks: [], notFound: '/404.html' }));
    const built = await run(path.join(site, 'dist'));
    expect(built.lines).toEqual(['checked 4 pages, 40 internal links, 0 external links (not fetched); 0 broken']);
    expect(built.code).toBe(0);
    const plain = await run(await inFolders('clean'));
    expect(plain.lines).toEqual(['checked 4 pages, 40 internal links, 0 external links (not fetched); 0 broken (no .site/deploy/routing.json: resolved as a plain static host)']);
    expect(plain.code).toBe(0);
  });

  it('says which links only our routing serves when our build is checked without its routing table', async () => {
    // /about is about.html: the CDN's function and site serve find it, most plain hosts do not.
    const { code, lines } = await run(path.join(fixtures, 'clean'));
    expect(lines.slice(0, 2)).toEqual([
      'in the layout (on all 4 pages): /about → 404 (no file /about; /about.html exists, which only some hosts serve for /about)',
      'in the layout (on all 4 pages): /blog → 404 (no file /blog; /blog.html exists, which only some hosts serve for /blog)',
    ]);
    expect(code).toBe(1);
  });

  it('exits 2 when the dir is missing or holds no pages', async () => {
    const missing = await run(path.join(tmp, 'no-such-dir'));
    expect(missing.code).toBe(2);
    expect(missing.errors[0]).toMatch(/no-such-dir is not a directory/);
    await mkdir(path.join(tmp, 'empty'));
    expect((await run(path.join(tmp, 'empty'))).code).toBe(2);
  });

  it('exits 2 on a routing.json that is not a routing table', async () => {
    const site = path.join(tmp, 'bad-routing');
    await cp(path.join(fixtures, 'clean'), path.join(site, 'dist'), { recursive: true });
    await mkdir(deployDirFor(path.join(site, 'dist')), { recursive: true });
    await writeFile(path.join(deployDirFor(path.join(site, 'dist')), 'routing.json'), '{"pageUrls": "/"}');
    const { code, errors } = await run(path.join(site, 'dist'));
    expect(code).toBe(2);
    expect(errors[0]).toMatch(/routing\.json is not a routing table/);
  });
});

describe('site check-links speed', () => {
  it('checks every link of a 40-page site with 4,880 internal links, fragments included', async () => {
    const site = path.join(tmp, 'big', 'dist'); // no .site/deploy/routing.json beside it: a plain static host
    const urls = Array.from({ length: 40 }, (_, i) => (i === 0 ? '/' : `/page-${i}`));
    const nav = urls.map((u) => `<a href="${u}">${u}</a>`).join('');
    for (const url of urls) {
      const body = Array.from({ length: 40 }, (_, j) => `<section id="s${j}"><h2>S${j}</h2><p>${'text '.repeat(200)}<a href="${urls[(j * 7) % 40]}#s${j}">x</a></p></section>`).join('');
      const html = `<!doctype html><html><head><link rel="canonical" href="https://example.com${url}"><link rel="stylesheet" href="/assets/site.css"></head><body><nav>${nav}</nav><main>${body}</main><footer>${nav}</footer></body></html>`;
      const file = path.join(site, url === '/' ? 'index.html' : `${url}/index.html`);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, html);
    }
    await mkdir(path.join(site, 'assets'));
    await writeFile(path.join(site, 'assets', 'site.css'), '');
    const { code, lines } = await run(site);
    expect(lines).toEqual(['checked 40 pages, 4880 internal links, 0 external links (not fetched); 0 broken (no .site/deploy/routing.json: resolved as a plain static host)']);
    expect(code).toBe(0);
  });
});
