import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploy } from '../src/deploy/deploy.ts';
import { serveDir, startServer, type RunningServer } from '../src/serve/server.ts';

/** `site serve` on a scratch copy of the project, so the test can edit content and templates. */
let dir: string;
let server: RunningServer;

const PRODUCTION: Record<string, string> = {
  'dist/index.html': '<!doctype html><title>Production home</title>\n',
  'dist/404.html': '<!doctype html><title>Production not found</title>\n',
  'build/routing.json': '{"production":true}\n',
  'build/headers.json': '{"x-production":"yes"}\n',
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

/** Resolves on the next 'reload' server-sent event. */
async function nextReload(): Promise<void> {
  const res = await fetch(`${server.url}/__site/events`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('event stream ended');
      text += decoder.decode(value);
      if (text.includes('event: reload')) return;
    }
  } finally {
    await reader.cancel();
  }
}

async function editFile(file: string, change: (s: string) => string) {
  const target = path.join(dir, file);
  await writeFile(target, change(await readFile(target, 'utf8')));
}

// Each test waits for whole rebuilds (one to three), which on a loaded machine take far longer than
// the usual 30 s for all of them: a deadline, not a timing assertion.
describe('site serve', { timeout: 120_000 }, () => {
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

  it('rebuilds on a content change, again and again, and tells open pages to reload', async () => {
    for (const word of ['Ambitious', 'Bold', 'Curious']) {
      const reloaded = nextReload();
      await editFile('content/pages/home.yaml', (s) => s.replace(/^(  headline: We're a Data Agency Built for )\w+/m, `$1${word}`));
      await reloaded;
      expect(await (await fetch(`${server.url}/`)).text()).toContain(`Built for ${word} UK Organisations`);
    }
  });

  it('picks up a changed template', async () => {
    const reloaded = nextReload();
    await editFile('templates/pages/NotFound.tsx', (s) => s.replace('Return to Home', 'Back to the home page'));
    await reloaded;
    expect(await (await fetch(`${server.url}/missing`)).text()).toContain('Back to the home page');
  });

  it('shows a content error in the browser and keeps running until it is fixed', async () => {
    let reloaded = nextReload();
    await editFile('content/blog/what-is-data.md', (s) => s.replace(/^date: .*$/m, 'date: someday'));
    await reloaded;
    const broken = await fetch(`${server.url}/`);
    expect(broken.status).toBe(500);
    const page = await broken.text();
    expect(page).toContain('The site could not be built');
    expect(page).toMatch(/content\/blog\/what-is-data\.md:\d+ date: expected an ISO date like 2025-09-24/);

    reloaded = nextReload();
    await editFile('content/blog/what-is-data.md', (s) => s.replace(/^date: someday$/m, 'date: 2025-05-13'));
    await reloaded;
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });

  it('builds into a folder of its own: dist/ and build/ keep the production build, and site deploy refuses what serve built', async () => {
    // Several builds have run by now (start, content and template edits).
    expect(serveDir(dir)).toBe(path.join(dir, 'build', 'serve', 'dist'));
    expect(await filesUnder('dist')).toEqual(['dist/404.html', 'dist/index.html']);
    expect(await filesUnder('build', 'build/serve/')).toEqual(['build/headers.json', 'build/routing.json']);
    for (const [file, text] of Object.entries(PRODUCTION)) expect(await readFile(path.join(dir, file), 'utf8'), file).toBe(text);
    // What serve serves is in its folder, and carries the live-reload script.
    expect(await readFile(path.join(serveDir(dir), 'about', 'index.html'), 'utf8')).toContain('/__site/live-reload.js');
    const untouched = { send: () => Promise.reject(new Error('the bucket was asked')) } as unknown as S3Client;
    await expect(deploy({ dir: serveDir(dir), bucket: 'site', s3: untouched, dryRun: true }))
      .rejects.toThrow(/carry the development markup of `site serve` \(its live-reload script\): deploy the output of `site build` instead$/);
  });
});
