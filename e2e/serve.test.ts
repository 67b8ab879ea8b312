import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/serve/server.ts';

/** `site serve` on a scratch copy of the project, so the test can edit content and templates. */
let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'site-serve-'));
  for (const part of ['content', 'templates', 'islands', 'src', 'lambda', 'forms']) await cp(path.resolve(part), path.join(dir, part), { recursive: true });
  await symlink(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
  await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
  server = await startServer({ root: dir, outDir: path.join(dir, 'dist'), port: 0, host: '127.0.0.1' });
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
});
