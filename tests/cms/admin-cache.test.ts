// /admin in `site serve`: the bundle (Decap CMS is megabytes) is named by its content's hash and kept
// by the browser; the page, which names it, is asked again on each load.
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/server.ts';
import { outputLayout } from '../../src/output/layout.ts';

let root: string;
let server: RunningServer;

/** A project of content/, the templates and a client of one line (bundled by esbuild in milliseconds), served as built. */
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'site-cms-cache-'));
  await cp(path.resolve('content'), path.join(root, 'content'), { recursive: true });
  // The kinds of page's templates modules, which the bundle's previews module names (the client here imports none).
  await cp(path.resolve('templates'), path.join(root, 'templates'), { recursive: true });
  await mkdir(path.join(root, 'src/cms/client'), { recursive: true });
  await writeFile(path.join(root, 'src/cms/client/index.tsx'), 'document.title = "content manager";\n');
  const out = path.join(root, 'out');
  await mkdir(outputLayout(out).deployDir, { recursive: true });
  await writeFile(path.join(outputLayout(out).deployDir, 'routing.json'), '{}');
  server = await startServer({ root, port: 0, host: '127.0.0.1', prebuilt: true, outDir: out, watch: false });
});
afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

describe('the content manager bundle in site serve', () => {
  it('is named by its content hash and kept a year, while the page that names it revalidates', async () => {
    const page = await fetch(`${server.url}/admin/`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const etag = page.headers.get('etag');
    expect(etag).toBeTruthy();
    const src = /<script type="module" src="([^"]+)">/.exec(await page.text())?.[1];
    expect(src).toMatch(/^\/admin\/cms\.[0-9a-f]{16}\.js$/);

    const script = await fetch(`${server.url}${src}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const js = Buffer.from(await script.arrayBuffer());
    expect(js.toString()).toContain('content manager');
    expect(src).toBe(`/admin/cms.${createHash('sha256').update(js).digest('hex').slice(0, 16)}.js`);

    // The page unchanged: 304, no body sent again.
    const again = await fetch(`${server.url}/admin/`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    // A name no page of this run gave is not kept as if it were this bundle.
    const other = await fetch(`${server.url}/admin/cms.0123456789abcdef.js`);
    expect(other.status).toBe(404);
    expect(other.headers.get('cache-control')).toBe('no-store');
  });
});
