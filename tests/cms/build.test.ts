// The content manager in `site build`: /admin's page, bundle and config written into the output,
// routed as a page, out of the sitemap and the page budgets, its own CSP, left out by --no-cms, and its
// bundle taken from the cache by the compiled CLI as well as by the code under test.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildOptions } from '../../src/pipeline/build.ts';
import { quickBuild } from '../../src/pipeline/quick-build.ts';
import { buildCommand } from '../../src/pipeline/build-command.ts';
import { formatSummary } from '../../src/measure/summary.ts';
import { outputLayout } from '../../src/output/layout.ts';
import { headersFile, headersFor, parseHeadersFile, type HeadersFile } from '../../src/response-headers.ts';
import { cmsHeaders, cmsHosts, cmsPages } from '../../src/cms/admin-page.ts';
import { routingTable } from '../../src/routes/routing-table.ts';
import { resolve, type RoutingTable } from '../../src/url-resolution/resolve.ts';
import { siteSchema } from '../../src/content/schemas.ts';
import { editFile, scratchProject } from '../scratch-project.ts';

const execFileP = promisify(execFile);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
let dir: string;
const NOW = new Date('2026-06-15T12:00:00Z');
const out = () => path.join(dir, 'out', 'dist');
const options = (overrides: BuildOptions['overrides'] = {}): BuildOptions => ({ root: dir, outDir: out(), now: NOW, overrides: { search: false, ...overrides }, warn: () => undefined });
const deploy = (file: string) => readFile(path.join(outputLayout(out()).current, 'deploy', file), 'utf8');
const headers = async () => parseHeadersFile(await deploy('headers.json'));
const CMS_YAML = '\ncms:\n  repo: dundee-data/site\n  branch: main\n  authUrl: https://abc123.lambda-url.eu-west-2.on.aws/\n';

let before: HeadersFile;
let beforeJs: unknown;
beforeAll(async () => {
  dir = await scratchProject('site-cms-build-', { seeded: true });
  // The site as it was without a content manager: its headers and JavaScript figures.
  const plain = await buildSite(options());
  expect(existsSync(path.join(out(), 'admin'))).toBe(false);
    expect(existsSync(path.join(out(), 'admin.html'))).toBe(false);
  before = await headers();
  beforeJs = { js: plain.summary.js, jsByTemplate: plain.summary.jsByTemplate };
  await editFile(dir, 'content/site.yaml', (s) => s + CMS_YAML);
}, 300_000);
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('site build with cms: in site.yaml', { timeout: 300_000 }, () => {
  it('writes /admin (noindex), its bundle and a GitHub config; routes it; keeps it out of the sitemap and the budgets; states its size', async () => {
    const built = await buildSite(options());
    const page = await readFile(path.join(out(), 'admin.html'), 'utf8');
    expect(page).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page).toContain('<script type="module" src="/admin/cms.js"></script>');
    const bundle = await stat(path.join(out(), 'admin', 'cms.js'));
    expect(bundle.size).toBeGreaterThan(1_000_000);

    const config = JSON.parse(await readFile(path.join(out(), 'admin', 'config.json'), 'utf8')) as { backend: Record<string, string>; local_backend?: unknown; collections: unknown[]; previewStyles: string[] };
    expect(config.backend).toEqual({ name: 'github', repo: 'dundee-data/site', branch: 'main', base_url: 'https://abc123.lambda-url.eu-west-2.on.aws/', auth_endpoint: 'auth', preview_context: 'site/preview' });
    // Saves through GitHub are drafts: a branch and a pull request each.
    expect((config as { publish_mode?: string }).publish_mode).toBe('editorial_workflow');
    expect(config.local_backend).toBeUndefined();
    expect(config.collections.length).toBeGreaterThan(3);
    expect(existsSync(path.join(out(), config.previewStyles[0]!))).toBe(true);

    // Its size in the summary, apart from the pages' JavaScript, which is what it was without it.
    expect(built.summary.cms).toEqual({ bytes: bundle.size, gzip: expect.any(Number) as number });
    expect(built.summary.cms!.gzip).toBeLessThan(bundle.size);
    expect(formatSummary(built.summary)).toMatch(/\n {2}cms: \/admin's bundle [\d.]+ MB \([\d.]+ MB gzip level 9\), not page JavaScript: outside the page budgets\n/);
    expect({ js: built.summary.js, jsByTemplate: built.summary.jsByTemplate }).toEqual(beforeJs);
    expect(built.summary.perPage.some((p) => p.url.startsWith('/admin'))).toBe(false);

    // Kept while every file esbuild read for it is the same: the templates its previews draw with
    // as well as its own client and Decap's package, so that an edited template is never previewed stale.
    const record = JSON.parse(await readFile(path.join(dir, '.site', 'cache', 'bundle-cms.json'), 'utf8')) as { inputs: [string, string][] };
    const read = record.inputs.map(([file]) => file);
    for (const file of ['src/cms/client/index.tsx', 'templates/pages/services/ServicePage.tsx', 'templates/layout/Layout.tsx', 'src/content/schemas.ts']) expect(read).toContain(file);
    expect(read.some((f) => f.includes('node_modules/decap-cms-app/'))).toBe(true);

    // Routed as an exact path like a page (the table serve, check-links and the CloudFront function share), not in the sitemap.
    const table = JSON.parse(await deploy('routing.json')) as RoutingTable;
    expect(table.pageUrls).toContain('/admin');
    expect(resolve('/admin', table)).toMatchObject({ kind: 'file', file: '/admin.html' });
    expect(await readFile(path.join(out(), 'sitemap.xml'), 'utf8')).not.toContain('/admin');

    // View Preview (a draft's preview on the web) and View Live open the entry's own page: each
    // collection's and file's address, found among the site's routes, is a page the build routes.
    type Listed = { name: string; preview_path?: string; files?: Array<{ name: string; preview_path?: string }> };
    const collection = (name: string) => (config.collections as Listed[]).find((c) => c.name === name)!;
    const folders = { blog: 'what-is-data', 'case-studies': 'dc-thomson', services: 'data-cleaning' };
    for (const [name, slug] of Object.entries(folders)) {
      expect(collection(name).preview_path, name).toBe(`${name}/{{slug}}`);
      expect(table.pageUrls).toContain(`/${name}/${slug}`);
    }
    const files = (name: string) => Object.fromEntries(collection(name).files!.map((f) => [f.name, f.preview_path]));
    expect(files('pages')).toMatchObject({ home: undefined, about: 'about', dialog: 'dialog', 'dialog-assessment': 'dialog-assessment', contact: 'contact', services: 'services', blog: 'blog' });
    expect(files('legal')).toEqual({ 'privacy-policy': 'privacy-policy', 'terms-of-service': 'terms-of-service' });
    expect(files('site')).toEqual({ site: undefined });
    for (const name of ['pages', 'legal']) for (const at of Object.values(files(name))) if (at) expect(table.pageUrls, at).toContain(`/${at}`);

    // /admin's own policy; every other path's headers as they were.
    const now = await headers();
    expect(now.default).toEqual(before.default);
    expect(headersFor(now, '/admin')).toEqual(cmsHeaders(before.default, { authOrigin: 'https://abc123.lambda-url.eu-west-2.on.aws' }));
    expect(headersFor(now, '/admin/cms.js')['content-security-policy']).toContain("connect-src 'self' blob: https://api.github.com https://abc123.lambda-url.eu-west-2.on.aws;");
    for (const p of ['/', '/blog', '/blog/what-is-data', '/contact', '/administration', '/images/x.png']) expect(headersFor(now, p)).toEqual(before.default);
  });

  it('keeps /admin when a quick rebuild follows an article body edit', async () => {
    await buildSite(options()); // the tree of the build before, which a quick rebuild needs
    const bundle = sha256(await readFile(path.join(out(), 'admin', 'cms.js')));
    await editFile(dir, 'content/blog/what-is-data.md', (s) => `${s}\nA sentence added for the quick rebuild.\n`);
    const reasons: string[] = [];
    const quick = await quickBuild(options(), (why) => reasons.push(why));
    expect(reasons).toEqual([]);
    expect(quick?.made).toBe(1);
    // Compared by digest: a deep equality walks the 6 MB byte by byte, most of a minute of CPU.
    expect(sha256(await readFile(path.join(out(), 'admin', 'cms.js')))).toBe(bundle);
    expect(await readFile(path.join(out(), 'admin.html'), 'utf8')).toContain('noindex');
    expect(JSON.parse(await deploy('routing.json')).pageUrls).toContain('/admin');
    expect(headersFor(await headers(), '/admin')['content-security-policy']).toContain("'unsafe-eval'");
  });

  it('is taken from the cache by the compiled CLI users run, whose text of the bundling code is not the tests\' own: not bundled again', async () => {
    const cache = path.join(dir, '.site', 'cache', 'cms');
    const [file, ...others] = await readdir(cache);
    expect(others).toEqual([]);
    const was = await stat(path.join(cache, file!));
    const into = path.join(dir, 'out-cli', 'dist');
    const run = await execFileP(process.execPath, ['bin/site', 'build', '--root', dir, '--out', into, '--no-search'], { cwd: process.cwd() });
    expect(run.stdout).toMatch(/\n {2}cms: \/admin's bundle/);
    const now = await stat(path.join(cache, file!));
    expect([now.ino, now.mtimeMs]).toEqual([was.ino, was.mtimeMs]);
    expect(sha256(await readFile(path.join(into, 'admin', 'cms.js')))).toBe(sha256(await readFile(path.join(cache, file!))));
  });

  it('--no-cms leaves it out: no /admin, no route, headers as without it', async () => {
    const lines: string[] = [];
    const code = await buildCommand({ root: dir, out: out(), now: NOW, clockFrom: '--now', jsonSummary: true, search: false, cms: false }, { out: (s) => lines.push(s), err: (s) => lines.push(s) });
    expect(code).toBe(0);
    expect((JSON.parse(lines.join('\n')) as { cms?: unknown }).cms).toBeUndefined();
    expect(existsSync(path.join(out(), 'admin'))).toBe(false);
    expect(existsSync(path.join(out(), 'admin.html'))).toBe(false);
    expect((JSON.parse(await deploy('routing.json')) as RoutingTable).pageUrls).not.toContain('/admin');
    expect(await headers()).toEqual(before);
  });
});

describe('the headers file with search and the content manager', () => {
  it('gives the search paths and every page the policies they have without the content manager', () => {
    const base = siteSchema.parse({ name: 'N', description: 'D', url: 'https://example.com', email: 'a@example.com', location: 'L', officeHours: 'O', author: { name: 'A', role: 'R', bio: 'B' } });
    const withCms = siteSchema.parse({ ...base, cms: { repo: 'o/n', authUrl: 'https://auth.example.net/' } });
    const plain = headersFile(base, ['x()']);
    const both = headersFile(withCms, ['x()']);
    expect(both.default).toEqual(plain.default);
    expect(both.paths[0]).toEqual(plain.paths[0]);
    expect(headersFor(both, '/search')).toEqual(headersFor(plain, '/search'));
    expect(headersFor(both, '/admin')['content-security-policy']).toContain('https://auth.example.net');
    expect(headersFor(both, '/admin')['x-robots-tag']).toBe('noindex, nofollow');
    expect(() => siteSchema.parse({ ...base, cms: { repo: 'not a repo', authUrl: 'http://x.example' } })).toThrow(/owner\/name[\s\S]*https:\/\//);
  });
});

describe('cms.host: the content manager on a host name of its own', () => {
  const base = { name: 'N', description: 'D', url: 'https://www.example.com', email: 'a@example.com', location: 'L', officeHours: 'O', author: { name: 'A', role: 'R', bio: 'B' } };
  const cms = { repo: 'o/n', authUrl: 'https://auth.example.net/' };

  it('is a bare lower-case host name other than the site\'s own, and the routing table names both hosts', () => {
    const settings = siteSchema.parse({ ...base, cms: { ...cms, host: 'cms.example.com' } });
    expect(cmsHosts(settings)).toEqual({ site: 'www.example.com', cms: 'cms.example.com' });
    expect(routingTable([], cmsPages(settings), cmsHosts(settings)).hosts).toEqual({ site: 'www.example.com', cms: 'cms.example.com' });
    // Without it: no hosts, and /admin is answered on the site's own host.
    const plain = siteSchema.parse({ ...base, cms });
    expect(cmsHosts(plain)).toBeUndefined();
    expect(routingTable([], cmsPages(plain), cmsHosts(plain))).not.toHaveProperty('hosts');
    const refused = (host: string) => siteSchema.safeParse({ ...base, cms: { ...cms, host } }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    for (const host of ['https://cms.example.com', 'cms.example.com/admin', 'CMS.example.com', 'cms']) expect(refused(host)).toEqual(['cms.host: expected a host name such as cms.example.co.uk (lower case, no scheme, no path)']);
    // The site's own host for both would send /admin and the pages back and forth for ever.
    expect(refused('www.example.com')).toEqual(["cms.host: must differ from the site's own host (www.example.com): the content manager needs a host name of its own"]);
  });
});
