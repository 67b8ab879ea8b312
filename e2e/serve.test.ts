import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploy } from '../src/deploy/deploy.ts';
import { startServer, type RunningServer } from '../src/serve/server.ts';
import { DEPLOY_DIR, serveFamilyOf, serveOutDirOf } from '../src/output/layout.ts';

/** `site serve` on a scratch copy of the project, so the test can edit content and templates. */
let dir: string;
let server: RunningServer;

const PRODUCTION: Record<string, string> = {
  'dist/index.html': '<!doctype html><title>Production home</title>\n',
  'dist/404.html': '<!doctype html><title>Production not found</title>\n',
  [path.join(DEPLOY_DIR, 'routing.json')]: '{"production":true}\n',
  [path.join(DEPLOY_DIR, 'headers.json')]: '{"x-production":"yes"}\n',
};

/** Every file under `folder`, relative to the project, skipping `skip`. */
async function filesUnder(folder: string, skip?: string): Promise<string[]> {
  const entries = await readdir(path.join(dir, folder), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .filter((f) => !skip || !f.startsWith(skip)).sort();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'site-serve-'));
  for (const part of ['content', 'templates', 'islands', 'src', 'lambda', 'forms']) await cp(path.resolve(part), path.join(dir, part), { recursive: true });
  await symlink(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
  await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
  // A production build already in place, which serve must leave as it is.
  for (const [file, text] of Object.entries(PRODUCTION)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  server = await startServer({ root: dir, port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Resolves on the next 'reload' server-sent event: the stream is open when this returns, so an edit
 * made after it cannot be missed.
 */
async function nextReload(): Promise<{ done: Promise<void> }> {
  const events = await reloadEvents();
  // Wrapped: an async function returning the bare promise would wait for the reload itself.
  return { done: events.after(0).finally(() => events.close()) };
}

/** An open stream of 'reload' events that counts them; `after(n)` resolves once more than n have come. */
async function reloadEvents() {
  const res = await fetch(`${server.url}/__site/events`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let count = 0;
  let text = '';
  let wake = () => {};
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += decoder.decode(value);
      const events = text.split('\n\n');
      text = events.pop()!;
      count += events.filter((e) => e.startsWith('event: reload')).length;
      wake();
    }
  })();
  return {
    get count() { return count; },
    /** Deadlines, not timing assertions: a save that never rebuilds waits here until it fails. */
    async after(n: number, what = 'a reload') {
      const deadline = Date.now() + 60_000;
      while (count <= n) {
        if (Date.now() > deadline) throw new Error(`${what} never came`);
        await new Promise<void>((ok) => { wake = ok; setTimeout(ok, 1000); });
      }
    },
    async close() { await reader.cancel().catch(() => {}); await pump; },
  };
}

async function editFile(file: string, change: (s: string) => string) {
  const target = path.join(dir, file);
  await writeFile(target, change(await readFile(target, 'utf8')));
}

// Each test waits for whole rebuilds (one to three), which on a loaded machine take far longer than
// the usual 30 s for all of them: a deadline, not a timing assertion.
describe('site serve', () => {
  it('serves pages with the security headers and the live-reload script', async () => {
    const res = await fetch(`${server.url}/about`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('/__site/live-reload.js');
    const home = await (await fetch(`${server.url}/`)).text();
    const asset = /href="(\/assets\/[^"]+\.css)"/.exec(home)?.[1];
    expect(asset, home.slice(0, 300)).toBeDefined();
    expect((await fetch(`${server.url}${asset}`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers each page at its URL alone: its file\'s name, the old folder layout and a trailing slash redirect there, query kept', async () => {
    const get = (u: string) => fetch(`${server.url}${u}`, { redirect: 'manual' });
    for (const url of ['/about', '/blog', '/blog/what-is-data', '/services/data-visualisation']) {
      const page = await get(url);
      expect({ url, status: page.status }).toEqual({ url, status: 200 });
      expect(await page.text()).toContain(`<link rel="canonical" href="https://`);
      for (const other of [`${url}.html`, `${url}/index.html`, `${url}/`]) {
        const res = await get(`${other}?ref=x`);
        expect({ other, status: res.status, location: res.headers.get('location') }).toEqual({ other, status: 301, location: `${url}?ref=x` });
      }
    }
    expect((await get('/index.html')).headers.get('location')).toBe('/');
    // The error page's file is no page's: it answers as itself, with its status.
    const notFound = await get('/404.html');
    expect(notFound.status).toBe(404);
    expect(await notFound.text()).toContain('Page not found');
    expect((await get('/no-such-page')).status).toBe(404);
    // A page's share card preview still finds its card.
    const card = await get('/__site/card/about');
    expect(card.status).toBe(302);
    expect((await get(card.headers.get('location')!)).headers.get('content-type')).toBe('image/png');
  });

  it("serves the search page and its index with the search paths' CSP, and the index's files with their Cache-Control", async () => {
    const [about, search, loader] = await Promise.all(['/about', '/search?q=data', '/pagefind/pagefind.js'].map((u) => fetch(`${server.url}${u}`)));
    expect(search!.status).toBe(200);
    const csp = search!.headers.get('content-security-policy')!;
    expect(csp).toContain("'wasm-unsafe-eval'");
    expect(csp.replace(" 'wasm-unsafe-eval'", '')).toBe(about!.headers.get('content-security-policy'));
    expect(loader!.headers.get('content-security-policy')).toBe(csp);
    expect(loader!.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const entry = await (await fetch(`${server.url}/pagefind/pagefind-entry.json`)).json() as { languages: { en: { hash: string } } };
    const meta = await fetch(`${server.url}/pagefind/pagefind.${entry.languages.en.hash}.pf_meta`);
    expect(meta.status).toBe(200);
    expect(meta.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('rebuilds on a content change, again and again, and tells open pages to reload', async () => {
    for (const word of ['Ambitious', 'Bold', 'Curious']) {
      const reloaded = await nextReload();
      await editFile('content/pages/home.yaml', (s) => s.replace(/^(  headline: We're a Data Agency Built for )\w+/m, `$1${word}`));
      await reloaded.done;
      expect(await (await fetch(`${server.url}/`)).text()).toContain(`Built for ${word} UK Organisations`);
    }
  });

  it('never loses a save, however soon it follows the last one', async () => {
    const events = await reloadEvents();
    const file = 'content/pages/home.yaml';
    const headline = (word: string) => editFile(file, (s) => s.replace(/^(  headline: We're a Data Agency Built for )\w+/m, `$1${word}`));
    const served = async (word: string) => {
      for (;;) {
        const n = events.count;
        if ((await (await fetch(`${server.url}/`)).text()).includes(`Built for ${word} UK Organisations`)) return;
        await events.after(n, `the page showing the save of ${word}`);
      }
    };
    try {
      // Each save made the instant the last one's reload arrives, as the rebuild's ~35 ms puts it
      // inside the watcher's 50 ms window; all the same length, so only the contents differ.
      for (let i = 0; i < 10; i++) {
        const n = events.count;
        await headline(`Save${i}`);
        await events.after(n, `the reload after save ${i}`);
      }
      await served('Save9');
      // Two saves back to back, then two a few milliseconds apart: the page ends with the last.
      await headline('PairA1');
      await headline('PairB1');
      await served('PairB1');
      await headline('PairA2');
      await new Promise((ok) => setTimeout(ok, 20));
      await headline('PairB2');
      await served('PairB2');
    } finally {
      await events.close();
    }
  });

  it('picks up a changed template', async () => {
    const reloaded = await nextReload();
    await editFile('templates/pages/NotFound.tsx', (s) => s.replace('Return to Home', 'Back to the home page'));
    await reloaded.done;
    expect(await (await fetch(`${server.url}/missing`)).text()).toContain('Back to the home page');
  });

  it('shows a content error in the browser and keeps running until it is fixed', async () => {
    let reloaded = await nextReload();
    await editFile('content/blog/what-is-data.md', (s) => s.replace(/^date: .*$/m, 'date: someday'));
    await reloaded.done;
    const broken = await fetch(`${server.url}/`);
    expect(broken.status).toBe(500);
    const page = await broken.text();
    expect(page).toContain('The site could not be built');
    expect(page).toMatch(/content\/blog\/what-is-data\.md:\d+ date: expected an ISO date like 2025-09-24/);

    reloaded = await nextReload();
    await editFile('content/blog/what-is-data.md', (s) => s.replace(/^date: someday$/m, 'date: 2025-05-13'));
    await reloaded.done;
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });

  it('builds into a folder of its own: dist/ and .site/deploy/ keep the production build, and site deploy refuses what serve built', async () => {
    // Several builds have run by now (start, content and template edits).
    expect(serveOutDirOf(dir)).toBe(path.join(dir, '.site', 'serve', 'site'));
    expect((await readdir(serveFamilyOf(dir))).sort()).toEqual(['builds', 'deploy', 'site']);
    expect(await filesUnder('dist')).toEqual(['dist/404.html', 'dist/index.html']);
    expect(await filesUnder(DEPLOY_DIR)).toEqual([path.join(DEPLOY_DIR, 'headers.json'), path.join(DEPLOY_DIR, 'routing.json')]);
    for (const [file, text] of Object.entries(PRODUCTION)) expect(await readFile(path.join(dir, file), 'utf8'), file).toBe(text);
    // What serve serves is in its folder, and carries the live-reload script.
    expect(await readFile(path.join(serveOutDirOf(dir), 'about.html'), 'utf8')).toContain('/__site/live-reload.js');
    const untouched = { send: () => Promise.reject(new Error('the bucket was asked')) } as unknown as S3Client;
    await expect(deploy({ dir: serveOutDirOf(dir), bucket: 'site', s3: untouched, dryRun: true }))
      .rejects.toThrow(/carry the development markup of `site serve` \(its live-reload script\): deploy the output of `site build` instead$/);
  });
});
