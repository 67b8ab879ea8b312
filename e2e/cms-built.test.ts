// The built /admin as production serves it: the output of `site build` (cms: in site.yaml) answered
// by a loopback server that routes by the build's routing table and sends headers.json's headers for
// each path, as the CDN does. In Chromium, Decap CMS starts under /admin's own CSP, at its GitHub
// sign-in, with no policy violation.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildSite } from '../src/pipeline/build.ts';
import { outputLayout } from '../src/output/layout.ts';
import { headersFor, parseHeadersFile } from '../src/response-headers.ts';
import { resolve, type RoutingTable } from '../src/url-resolution/resolve.ts';
import { editFile, scratchProject } from '../tests/scratch-project.ts';
import { collectConsole, connectBrowser } from './helpers.ts';

let dir: string;
let server: Server;
let origin: string;
let browser: Browser;
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json', '.css': 'text/css' };

beforeAll(async () => {
  dir = await scratchProject('site-cms-built-');
  await editFile(dir, 'content/site.yaml', (s) => `${s}\ncms:\n  repo: dundee-data/site\n  authUrl: https://abc123.lambda-url.eu-west-2.on.aws/\n`);
  const out = path.join(dir, 'dist');
  await buildSite({ root: dir, outDir: out, overrides: { search: false }, budgets: false, warn: () => undefined });
  const deploy = path.join(outputLayout(out).current, 'deploy');
  const table = JSON.parse(await readFile(path.join(deploy, 'routing.json'), 'utf8')) as RoutingTable;
  const headers = parseHeadersFile(await readFile(path.join(deploy, 'headers.json'), 'utf8'));
  server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const found = resolve(pathname, table);
    const file = found.kind === 'file' ? found.file : pathname;
    readFile(path.join(out, file)).then((body) => {
      res.writeHead(found.kind === 'file' ? found.status : 200, { ...headersFor(headers, pathname), 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    }, () => { res.writeHead(404, headersFor(headers, pathname)); res.end(); });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await connectBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
  await rm(dir, { recursive: true, force: true });
});

describe('the built /admin under its own CSP', () => {
  it('starts Decap CMS at its GitHub sign-in, with no CSP violation; the home page keeps the site policy', async () => {
    const page = await browser.newPage();
    const seen = collectConsole(page);
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { reportViolation(v: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const answer = await page.goto(`${origin}/admin`);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self' 'unsafe-eval'");
    await page.getByRole('button', { name: /Login with GitHub/i }).waitFor();
    expect(violations).toEqual([]);
    expect(seen.errors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);

    const home = await fetch(`${origin}/`);
    expect(home.headers.get('content-security-policy')).not.toContain('unsafe-eval');
    expect(home.headers.get('content-security-policy')).toMatch(/style-src 'self';/);
  }, 120_000);
});
