// The built /admin as production serves it, on the content manager's own host: the output of
// `site build` (cms: in site.yaml, with a host of its own) answered by a loopback server that routes
// by the build's routing table and the request's host and sends headers.json's headers, as the CDN
// does. Chromium reaches every production address (the site's and the manager's hosts, the sign-in
// Function URL, github.com and api.github.com) through routes to loopback servers: the built site;
// the sign-in handler (lambda/cms-auth), its secret read through a stand-in of the Parameters and
// Secrets extension; GitHub's OAuth flow (github-oauth-stand-in.ts); and GitHub's REST API over a
// bare git repository (github-api-stand-in.ts). One page signs in through the popup, saves a draft
// as a pull request, marks it ready, opens its preview from the commit status the publishing job
// sets, and publishes it; meets a draft GitHub will not merge because another author published
// a change to the same line first; and saves that would write over another author's change to the
// entry's file: a draft's again, and an entry's first, opened before their change.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Dialog, Locator, Page, Route } from 'playwright-core';
import { buildSite } from '../src/pipeline/build.ts';
import { outputLayout } from '../src/output/layout.ts';
import { headersFor, parseHeadersFile } from '../src/response-headers.ts';
import { resolve, type RoutingTable } from '../src/url-resolution/resolve.ts';
import { createCmsAuthHandler } from '../lambda/cms-auth/handler.ts';
import { parameterReader } from '../lambda/cms-auth/secret.ts';
import { nodeListener } from '../lambda/node-adapter.ts';
import { editFile, scratchProject } from '../tests/scratch-project.ts';
import { startGitHubStandIn, type GitHubStandIn } from '../tests/lambda/github-oauth-stand-in.ts';
import { git, startGitHubApiStandIn, type GitHubApiStandIn } from '../tests/lambda/github-api-stand-in.ts';
import { answer, collectConsole, connectBrowser } from './helpers.ts';

const SITE = 'https://www.example.com';
const ADMIN = 'https://cms.example.com';
const AUTH = 'https://abc123.lambda-url.eu-west-2.on.aws';
const REPO = 'dundee-data/site';
const APP = { clientId: 'Ov23liCmsTest', secret: 'the-oauth-secret', callback: `${AUTH}/callback` };
const PARAMETER = '/site/cms/github-client-secret';
/** Where the publishing job says a draft's preview is: the pull request's own host. */
const PREVIEW = 'https://pr-1.preview.example.com/';
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json', '.css': 'text/css' };

let dir: string;
let siteServer: string;
let gitDir: string;
const servers: Server[] = [];
let github: GitHubStandIn;
let api: GitHubApiStandIn;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let seen: ReturnType<typeof collectConsole>;
const violations: string[] = [];

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * One request to a loopback server on a connection of its own. Through fetch's pool of kept-alive
 * connections, a request sent on a connection the server was closing at that moment (its 5 s idle
 * timeout) failed with "other side closed": on a loaded machine, where the pool's own idle timer
 * fires late, it did.
 */
function loopback(url: string, init: { method: string; headers: Record<string, string>; body?: Buffer }): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method, headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The request passed on to a loopback server as the production host would take it (its host in x-forwarded-host), and its answer given back as is. */
async function forward(route: Route, to: string): Promise<void> {
  const request = route.request();
  const from = new URL(request.url());
  // Asked for uncompressed (no accept-encoding), so that the body is handed to the page as it came.
  const headers = Object.fromEntries(Object.entries(await request.allHeaders()).filter(([k]) => !k.startsWith(':') && !['host', 'connection', 'content-length', 'accept-encoding'].includes(k)));
  const res = await loopback(`${to}${from.pathname}${from.search}`, { method: request.method(), headers: { ...headers, 'x-forwarded-host': from.host }, body: request.postDataBuffer() ?? undefined });
  const answer: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined || ['set-cookie', 'content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) continue;
    answer[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  const cookies = res.headers['set-cookie'] ?? [];
  if (cookies.length) answer['set-cookie'] = cookies.join('\n');
  const location = res.headers.location;
  if (res.status >= 300 && res.status < 400 && location) {
    // Chromium follows no redirect given to an intercepted request (it looks the next address up
    // itself): the redirect is handed to the page as a navigation to its Location, its cookies set.
    delete answer.location;
    const to = new URL(location, from).href.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
    return route.fulfill({ status: 200, headers: { ...answer, 'content-type': 'text/html; charset=utf-8' }, body: `<!doctype html><meta http-equiv="refresh" content="0;url=${to}">` });
  }
  await route.fulfill({ status: res.status, headers: answer, body: res.body });
}

const head = async () => (await git(gitDir, ['rev-parse', 'refs/heads/main'])).out.toString().trim();

beforeAll(async () => {
  dir = await scratchProject('site-cms-built-', { cmsBundle: true });
  await editFile(dir, 'content/site.yaml', (s) => `${s}\ncms:\n  repo: ${REPO}\n  authUrl: ${AUTH}/\n  host: ${new URL(ADMIN).host}\n`);
  const out = path.join(dir, 'dist');
  // The repository the content manager commits to: the project's content, one commit on main.
  gitDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'site-cms-repo-')), 'site.git');
  const author = { GIT_AUTHOR_NAME: 'Site Owner', GIT_AUTHOR_EMAIL: 'owner@example.com', GIT_COMMITTER_NAME: 'Site Owner', GIT_COMMITTER_EMAIL: 'owner@example.com' };
  await Promise.all([
    buildSite({ root: dir, outDir: out, overrides: { search: false }, budgets: false, warn: () => undefined }),
    (async () => {
      for (const args of [['init', '-q', '--bare', '--initial-branch=main'], ['--work-tree', dir, 'add', 'content'], ['--work-tree', dir, 'commit', '-q', '-m', 'The site as it is']]) {
        const r = await git(gitDir, args, { env: author });
        if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.err}`);
      }
    })(),
  ]);
  const deploy = path.join(outputLayout(out).current, 'deploy');
  const table = JSON.parse(await readFile(path.join(deploy, 'routing.json'), 'utf8')) as RoutingTable;
  const headers = parseHeadersFile(await readFile(path.join(deploy, 'headers.json'), 'utf8'));
  const site = siteServer = await listen(createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const found = resolve(pathname, table, String(req.headers['x-forwarded-host'] ?? req.headers.host));
    if (found.kind === 'redirect') { res.writeHead(found.status, { location: found.location }); return res.end(); }
    const file = found.kind === 'file' ? found.file : pathname;
    readFile(path.join(out, file)).then((body) => {
      res.writeHead(found.kind === 'file' ? found.status : 200, { ...headersFor(headers, pathname), 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    }, () => { res.writeHead(404, headersFor(headers, pathname)); res.end(); });
  }));

  // The Parameters and Secrets extension: the secret, for the Lambda's own token and that parameter only.
  const extension = await listen(createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const good = url.pathname === '/systemsmanager/parameters/get' && url.searchParams.get('name') === PARAMETER && url.searchParams.get('withDecryption') === 'true' && req.headers['x-aws-parameters-secrets-token'] === 'session-token';
    res.writeHead(good ? 200 : 400, { 'content-type': 'application/json' });
    res.end(JSON.stringify(good ? { Parameter: { Name: PARAMETER, Type: 'SecureString', Value: APP.secret } } : { message: 'bad request' }));
  }));
  github = await startGitHubStandIn([APP]);
  const auth = await listen(createServer(nodeListener(createCmsAuthHandler({
    clientId: APP.clientId,
    clientSecret: parameterReader(PARAMETER, { AWS_SESSION_TOKEN: 'session-token', PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: new URL(extension).port }),
    scope: 'public_repo', siteOrigin: ADMIN, callbackUrl: APP.callback, tokenUrl: github.tokenUrl,
  }))));
  api = await startGitHubApiStandIn({ repo: REPO, gitDir, tokenIsGood: (t) => github.issued(t), user: { login: 'an-author', id: 1001, name: 'An Author', email: '1001+an-author@users.noreply.github.com' } });

  browser = await connectBrowser();
  context = await browser.newContext({ locale: 'en-GB', timezoneId: 'Europe/London', viewport: { width: 1366, height: 900 } });
  const to: Record<string, string> = { [SITE]: site, [ADMIN]: site, [AUTH]: auth, 'https://github.com': github.url, 'https://api.github.com': api.url };
  // Nothing else is reached: any other address fails as an unreachable one does.
  await context.route(() => true, (route) => {
    const target = to[new URL(route.request().url()).origin];
    return target ? forward(route, target) : route.abort('addressunreachable');
  });
  page = await context.newPage();
  seen = collectConsole(page);
  await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { reportViolation?(v: string): void }).reportViolation?.(`${e.violatedDirective} ${e.blockedURI}`));
  });
}, 300_000);
afterAll(async () => {
  // A request Decap still has in flight is routed no further: its handler, left running, would
  // throw once the context is gone.
  await context?.unrouteAll({ behavior: 'ignoreErrors' });
  await browser?.close();
  await api?.close();
  await github?.close();
  await Promise.all(servers.map((s) => new Promise<void>((ok) => { s.closeAllConnections(); s.close(() => ok()); })));
  await rm(dir, { recursive: true, force: true });
  if (gitDir) await rm(path.dirname(gitDir), { recursive: true, force: true });
});

// Each test loads or drives the 6 MB content manager: some seconds on a quiet machine, so its hang guard is 300 s.
describe('the built /admin on its own host, signed in through GitHub', { timeout: 300_000 }, () => {
  it("starts Decap CMS at its GitHub sign-in under its own CSP; the site's /admin sends there; the home page keeps the site policy", async () => {
    const [answer] = await Promise.all([page.waitForResponse(`${ADMIN}/admin`), page.goto(`${SITE}/admin`)]);
    await page.waitForURL(`${ADMIN}/admin`);
    expect(answer.headers()['content-security-policy']).toContain("script-src 'self' 'unsafe-eval'");
    await page.getByRole('button', { name: /Login with GitHub/i }).waitFor();
    expect(violations).toEqual([]);
    expect(seen.errors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);

    const home = await fetch(`${siteServer}/`, { headers: { 'x-forwarded-host': new URL(SITE).host } });
    expect(home.headers.get('content-security-policy')).not.toContain('unsafe-eval');
    expect(home.headers.get('content-security-policy')).toMatch(/style-src 'self';/);
  });

  it('signs in through the popup (the token posted to the admin origin); a save is a draft: a branch and a pull request with the one line changed, main as it was; Ready, the preview the status names linked; Publish merges it: main gains that line', async () => {
    const before = await head();
    const [popup] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: /Login with GitHub/i }).click()]);
    await popup.waitForEvent('close');
    expect(github.scopes).toEqual(['public_repo']);
    await page.evaluate(() => { location.hash = '#/collections/pages/entries/about'; });
    const title = page.getByLabel('Title', { exact: true }).first();
    await expect.poll(() => title.inputValue()).toBe('About Us');
    await typed(title, 'About Them');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(drafts).toEqual([{ number: 1, branch: 'cms/pages/about', state: 'open', labels: ['decap-cms/draft'] }]);
    expect(await head()).toBe(before);
    const draft = (await git(gitDir, ['log', '-1', '--format=%H%n%P%n%an', 'cms/pages/about'])).out.toString().trim().split('\n');
    expect(draft.slice(1)).toEqual([before, 'An Author']);
    expect(await changedLines(before, 'cms/pages/about')).toEqual(['-title: About Us', '+title: About Them']);
    await page.getByRole('button', { name: 'Status: Draft' }).waitFor();
    await shoot('cms-draft-saved.png', 420);

    await page.getByRole('button', { name: 'Status: Draft' }).click();
    await page.getByText('Ready', { exact: true }).click();
    await expect.poll(drafts).toEqual([{ number: 1, branch: 'cms/pages/about', state: 'open', labels: ['decap-cms/pending_publish'] }]);
    // The publishing job's statuses on the draft's commit: its preview, then another job's whose name
    // also holds 'deploy' (which Decap would take, unless told the preview's).
    await setStatus(draft[0]!, { state: 'success', context: 'site/preview', target_url: PREVIEW, description: 'Preview ready' });
    await setStatus(draft[0]!, { state: 'success', context: 'ci/deploy-check', target_url: 'https://ci.example.com/runs/1' });
    const preview = page.getByRole('link', { name: 'View Preview' });
    await preview.waitFor();
    // The entry's own page in that preview.
    expect(await preview.getAttribute('href')).toBe(`${PREVIEW}about`);
    await shoot('cms-draft-ready.png', 420);

    await publishNow();
    await expect.poll(head).not.toBe(before);
    await page.getByRole('button', { name: 'Published', exact: true }).waitFor();
    expect(await drafts()).toEqual([]);
    expect((await api.pulls())[0]).toMatchObject({ number: 1, state: 'closed', merged_at: expect.any(String) });
    await expect.poll(async () => (await git(gitDir, ['rev-parse', '--verify', '--quiet', 'refs/heads/cms/pages/about'])).code).not.toBe(0);
    expect((await git(gitDir, ['log', '-1', '--format=%P', 'main'])).out.toString().trim()).toBe(`${before} ${draft[0]}`);
    expect(await changedLines(before, 'main')).toEqual(['-title: About Us', '+title: About Them']);
    expect(violations).toEqual([]);
  });

  it("refuses a save that breaks a rule across fields before anything reaches GitHub, in the build's words", async () => {
    const before = await head();
    // Opened as an author opens it: back to a collection's list (Decap loads an entry as its form opens), then the entry.
    await page.evaluate(() => { location.hash = '#/collections/blog'; });
    await page.locator('a[href$="/collections/blog/entries/what-is-data"]').click();
    await page.waitForURL(/#\/collections\/blog\/entries\/what-is-data$/);
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toContain('What Is Data?');
    await page.getByLabel(/^Publish date/).pressSequentially('01/12/2026');
    await page.getByLabel(/^Expiry date/).pressSequentially('01/11/2026');
    const asked = api.requests.length;
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Not saved.' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('content/blog/what-is-data.md expiryDate: is not after publishDate (2026-12-01), so the article would never be live');
    // Nothing was written: no blob, tree, commit or branch move was asked for, and main is where it was.
    expect(api.requests.slice(asked).filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(await head()).toBe(before);
    expect(violations).toEqual([]);
  });

  it("a draft that would undo a change published since is not published: says so until dismissed, main keeps their change; deleted and made again, it publishes that one line", async () => {
    await alertDismissed();
    // The refused article's changes are left behind: Decap's question is answered yes.
    const leave = (d: Dialog) => answer(d, /leave this page/.test(d.message()));
    page.on('dialog', leave);
    await page.evaluate(() => { location.hash = '#/collections/legal'; });
    await page.locator('a[href$="/collections/legal/entries/terms-of-service"]').click();
    await page.waitForURL(/#\/collections\/legal\/entries\/terms-of-service$/);
    page.off('dialog', leave);
    const title = page.getByLabel('Title', { exact: true }).first();
    await expect.poll(() => title.inputValue()).toBe('Terms of Service');
    await typed(title, 'Terms of Use');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const branch = 'cms/legal/terms-of-service';
    await expect.poll(drafts).toEqual([{ number: 2, branch, state: 'open', labels: ['decap-cms/draft'] }]);
    await page.getByRole('button', { name: 'Status: Draft' }).click();
    await page.getByText('Ready', { exact: true }).click();
    await expect.poll(drafts).toEqual([{ number: 2, branch, state: 'open', labels: ['decap-cms/pending_publish'] }]);

    // As the merge arrives, another author has just published a change to the same line.
    const rel = 'content/pages/terms-of-service.md';
    api.beforeNextMerge(commitOnMain(rel, (text) => text.replace('title: Terms of Service', 'title: Terms and Conditions')));
    await publishNow();
    const alert = page.getByRole('alert').filter({ hasText: 'Not published' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('someone else published a change to the same lines, and publishing the draft now would undo it');
    const theirs = await head();
    expect((await git(gitDir, ['log', '-1', '--format=%an', 'main'])).out.toString().trim()).toBe('Another Author');
    expect((await git(gitDir, ['show', `main:${rel}`])).out.toString()).toContain('title: Terms and Conditions');
    expect(await drafts()).toEqual([{ number: 2, branch, state: 'open', labels: ['decap-cms/pending_publish'] }]);
    await page.setViewportSize({ width: 375, height: 812 });
    await shoot('cms-draft-not-published-375.png');
    await page.setViewportSize({ width: 1366, height: 900 });
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    expect(await alert.count()).toBe(0);

    // As the message says: the draft deleted, the entry as it is on main (their change), the edit made again.
    page.once('dialog', (d) => answer(d, /unpublished changes to this entry will be deleted/.test(d.message())));
    await page.getByRole('button', { name: 'Delete unpublished changes' }).click();
    await expect.poll(drafts).toEqual([]);
    // Decap opens the entry again as it is on main, with their change.
    await expect.poll(() => title.inputValue()).toBe('Terms and Conditions');
    await typed(title, 'Terms of Use');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(drafts).toEqual([{ number: 3, branch, state: 'open', labels: ['decap-cms/draft'] }]);
    await page.getByRole('button', { name: 'Status: Draft' }).click();
    await page.getByText('Ready', { exact: true }).click();
    await expect.poll(drafts).toEqual([{ number: 3, branch, state: 'open', labels: ['decap-cms/pending_publish'] }]);
    await publishNow();
    await expect.poll(head).not.toBe(theirs);
    // Decap has finished publishing (it loads the entry again): the next test starts from a settled page.
    await page.getByRole('button', { name: 'Published', exact: true }).waitFor();
    expect(await changedLines(theirs, 'main')).toEqual(['-title: Terms and Conditions', '+title: Terms of Use']);
    expect(await alert.count()).toBe(0);
    expect(violations).toEqual([]);
  });

  it('a draft saved again after another author published a change to its file is not saved: says so, the draft and main stay as they were, the edit stays in the form; a change to another file lets it save', async () => {
    await alertDismissed();
    // Opened as an author opens it: the collection's list, then the entry's link in it.
    await page.evaluate(() => { location.hash = '#/collections/legal'; });
    await page.locator('a[href$="/collections/legal/entries/privacy-policy"]').click();
    await page.waitForURL(/#\/collections\/legal\/entries\/privacy-policy$/);
    const title = page.getByLabel('Title', { exact: true }).first();
    await expect.poll(() => title.inputValue()).toBe('Privacy Policy');
    await typed(title, 'Privacy Notice');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const branch = 'cms/legal/privacy-policy';
    await expect.poll(drafts).toEqual([{ number: 4, branch, state: 'open', labels: ['decap-cms/draft'] }]);
    const draftHead = async () => (await git(gitDir, ['rev-parse', `refs/heads/${branch}`])).out.toString().trim();

    // Another author publishes a change to another file: the draft saves again, on top of it, its one line.
    await commitOnMain('content/pages/terms-of-service.md', (text) => text.replace('updated: April 2025', 'updated: May 2025'))();
    const first = await draftHead();
    await typed(title, 'Privacy Notice for Visitors');
    const second = await title.inputValue();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(draftHead).not.toBe(first);
    await expect.poll(() => page.getByRole('button', { name: 'Save', exact: true }).isEnabled()).toBe(false);
    expect(await changedLines('main', branch)).toEqual(['-title: Privacy Policy', `+title: ${second}`]);

    // Another author publishes a change to the draft's own file, on another line: saving the draft
    // again would write the draft's file whole over theirs. Nothing is written; the edit stays.
    const rel = 'content/pages/privacy-policy.md';
    await commitOnMain(rel, (text) => text.replace('updated: April 2025', 'updated: June 2025'))();
    const theirs = await head();
    const kept = await draftHead();
    const asked = api.requests.length;
    await typed(title, 'Our Privacy Notice');
    const edited = await title.inputValue();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // The message strip (Decap's own toast says only that the save stopped, and points at it).
    const alert = page.getByRole('alert').filter({ hasText: 'Not saved: since this draft was saved' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain(`someone else published a change to ${rel}, and saving the draft again now would undo it`);
    expect(api.requests.slice(asked).filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(await draftHead()).toBe(kept);
    expect(await head()).toBe(theirs);
    expect((await git(gitDir, ['show', `main:${rel}`])).out.toString()).toContain('updated: June 2025');
    expect(await title.inputValue()).toBe(edited);
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    expect(await alert.count()).toBe(0);
    expect(violations).toEqual([]);
  });

  it('an entry opened before another author published a change to its file is not saved over it: says so, nothing is written; reloaded, it shows their change and saves the edit on top', async () => {
    await alertDismissed();
    // The form's unsaved edit is left behind: Decap's question is answered yes.
    const leave = (d: Dialog) => answer(d, /leave this page/.test(d.message()) || d.type() === 'beforeunload');
    page.on('dialog', leave);
    await page.evaluate(() => { location.hash = '#/collections/pages'; });
    await page.locator('a[href$="/collections/pages/entries/dialog"]').click();
    await page.waitForURL(/#\/collections\/pages\/entries\/dialog$/);
    const title = page.getByLabel('Title', { exact: true }).first();
    await expect.poll(() => title.inputValue()).toBe('DIAlog Data Maturity Assessment');

    // While the author edits, another author publishes a change to another line of the same file.
    const rel = 'content/pages/dialog.yaml';
    await commitOnMain(rel, (text) => text.replace('eyebrow: DIAlog data maturity assessment', 'eyebrow: The DIAlog assessment'))();
    const theirs = await head();
    const before = await drafts();
    const asked = api.requests.length;
    await typed(title, 'DIAlog Data Readiness Assessment');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Not saved: since you opened this entry' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain(`someone else published a change to ${rel}, and saving now would undo it`);
    expect(api.requests.slice(asked).filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(await drafts()).toEqual(before);
    expect(await head()).toBe(theirs);
    expect(await title.inputValue()).toBe('DIAlog Data Readiness Assessment');

    // As the message says: reloaded, the entry is as it is on main; the edit made again is a draft of that one line.
    await page.reload();
    await expect.poll(() => title.inputValue()).toBe('DIAlog Data Maturity Assessment');
    page.off('dialog', leave);
    expect(await alert.count()).toBe(0);
    await typed(title, 'DIAlog Data Readiness Assessment');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await drafts()).map((d) => d.branch)).toContain('cms/pages/dialog');
    expect(await changedLines(theirs, 'cms/pages/dialog')).toEqual(['-title: DIAlog Data Maturity Assessment', '+title: DIAlog Data Readiness Assessment']);
    expect(violations).toEqual([]);
  });
});

/**
 * `value` typed into `field`, and the entry then has unsaved changes: typed again should Decap,
 * still loading the entry as its form opened, have set the form back to the entry as saved.
 */
async function typed(field: Locator, value: string): Promise<void> {
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await expect.poll(async () => {
    if (await field.inputValue() !== value) await field.fill(value);
    return save.isEnabled();
  }).toBe(true);
}

/** Publish, then Publish now, and yes to Decap's question. */
async function publishNow(): Promise<void> {
  page.once('dialog', (d) => answer(d, /publish this entry/.test(d.message())));
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.getByText('Publish now').click();
}

/** The open pull requests: number, branch, state and labels. */
async function drafts(): Promise<Array<{ number: number; branch: string; state: string; labels: string[] }>> {
  return (await api.pulls()).filter((p) => p.state === 'open').map((p) => ({ number: p.number, branch: p.head.ref, state: p.state, labels: p.labels.map((l) => l.name) }));
}

/** The lines `to` changes from `from`. */
async function changedLines(from: string, to: string): Promise<string[]> {
  const diff = (await git(gitDir, ['diff', '--unified=0', from, to])).out.toString();
  return diff.split('\n').filter((l) => /^[-+](?![-+])/.test(l));
}

/** A commit status set on `sha` through the API, as the publishing job sets it with its own token. */
async function setStatus(sha: string, status: Record<string, string>): Promise<void> {
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('decap-cms-user') ?? '{}') as { token?: string }).token ?? '');
  const res = await loopback(`${api.url}/repos/${REPO}/statuses/${sha}`, { method: 'POST', headers: { authorization: `token ${token}`, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(status)) });
  expect(res.status).toBe(201);
}

/** The page as it is (its top `height` pixels, if given), saved in docs/images/ for the authors' guide when SITE_CMS_SCREENSHOTS is set. */
async function shoot(name: string, height?: number): Promise<void> {
  if (!process.env.SITE_CMS_SCREENSHOTS) return;
  await page.screenshot({ path: path.resolve('docs/images', name), ...(height ? { clip: { x: 0, y: 0, width: page.viewportSize()!.width, height } } : {}) });
}

/** Any message left by the test before, dismissed. */
async function alertDismissed(): Promise<void> {
  const dismiss = page.getByRole('alert').getByRole('button', { name: 'Dismiss' });
  if (await dismiss.count()) await dismiss.click();
}

/** Another author's commit on main, changing one file: made when called. */
function commitOnMain(rel: string, change: (text: string) => string): () => Promise<void> {
  const env = { GIT_AUTHOR_NAME: 'Another Author', GIT_AUTHOR_EMAIL: 'another@example.com', GIT_COMMITTER_NAME: 'Another Author', GIT_COMMITTER_EMAIL: 'another@example.com' };
  return async () => {
    const text = async (args: string[], extra: Parameters<typeof git>[2] = {}) => {
      const r = await git(gitDir, args, extra);
      if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.err}`);
      return r.out.toString().trim();
    };
    const parent = await head();
    const blob = await text(['hash-object', '-w', '--stdin'], { input: change(await text(['show', `${parent}:${rel}`])) + '\n' });
    const index = { GIT_INDEX_FILE: path.join(path.dirname(gitDir), 'another-index') };
    await text(['read-tree', parent], { env: index });
    await text(['update-index', '--cacheinfo', `100644,${blob},${rel}`], { env: index });
    const tree = await text(['write-tree'], { env: index });
    const commit = await text(['commit-tree', tree, '-p', parent, '-m', `Update ${rel}`], { env });
    await text(['update-ref', 'refs/heads/main', commit, parent]);
  };
}
