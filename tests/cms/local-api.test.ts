// The content manager's local API in `site serve` writes only what the /admin page serve gave out
// asks for, and only where the build reads: each probe below is a request a page or a program other
// than that page could send.
import { cp, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/server.ts';
import { outputLayout } from '../../src/output/layout.ts';
import { CmsLocalBackend } from '../../src/cms/local-backend.ts';
import { loadSite } from '../../src/content/load.ts';

let root: string;
let outside: string;
let server: RunningServer;
let token: string | undefined;

/** A project of content/ alone, served as built (an empty build): the CMS's routes need nothing more. */
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'site-cms-api-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'site-cms-outside-'));
  await cp(path.resolve('content'), path.join(root, 'content'), { recursive: true });
  const out = path.join(root, 'out');
  await mkdir(outputLayout(out).deployDir, { recursive: true });
  await writeFile(path.join(outputLayout(out).deployDir, 'routing.json'), '{}');
  server = await startServer({ root, port: 0, host: '127.0.0.1', prebuilt: true, outDir: out, watch: false });
  const page = await (await fetch(`${server.url}/admin/`)).text();
  token = /<meta name="site-cms-token" content="([^"]+)">/.exec(page)?.[1];
});
afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

interface Sent { origin?: string | null; token?: string | null }
async function post(body: unknown, sent: Sent = {}): Promise<{ status: number; error?: string }> {
  const origin = sent.origin === undefined ? server.url : sent.origin;
  const t = sent.token === undefined ? token : sent.token;
  const res = await fetch(`${server.url}/admin/api/v1${t ? `?token=${encodeURIComponent(t)}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({})) as { error?: string };
  return { status: res.status, error: json.error };
}

const article = (title: string) => `---\ntitle: ${title}\nexcerpt: Fine.\ndate: 2026-01-05\ndraft: true\nfaq:\n  - { question: One?, answer: Yes. }\n  - { question: Two?, answer: Yes. }\n  - { question: Three?, answer: Yes. }\n---\n\nBody words.\n`;
const saveEntry = (file: string, raw: string, extra: Record<string, unknown> = {}) => ({ action: 'persistEntry', params: { dataFiles: [{ path: file, raw, ...extra }], assets: [] } });
const saveMedia = (file: string, bytes: string | Buffer) => ({ action: 'persistMedia', params: { asset: { path: file, content: Buffer.from(bytes).toString('base64'), encoding: 'base64' } } });
const exists = (file: string) => stat(path.join(root, file)).then(() => true, () => false);
const SVG = (inner: string, attrs = '') => `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"${attrs}>${inner}</svg>`;

describe('who may write: the page serve gave out', () => {
  it('gives a token in the /admin page, and takes a save that carries it from its own origin', async () => {
    expect(token).toMatch(/^[\w-]{20,}$/);
    expect(await post(saveEntry('content/blog/with-token.md', article('With token')))).toEqual({ status: 200, error: undefined });
    expect(await exists('content/blog/with-token.md')).toBe(true);
  });

  it('refuses a write with no Origin (a program, not the page)', async () => {
    const answer = await post(saveEntry('content/blog/no-origin.md', article('No origin')), { origin: null });
    expect(answer.status).toBe(403);
    expect(await exists('content/blog/no-origin.md')).toBe(false);
  });

  it('refuses a write without the token, or with another run’s', async () => {
    for (const t of [null, 'an-older-runs-token-aaaaaaaaaaaaaaaaaaaa']) {
      const answer = await post(saveEntry('content/blog/no-token.md', article('No token')), { token: t });
      expect(answer.status, String(t)).toBe(403);
      expect(answer.error).toMatch(/reload \/admin/);
    }
    expect(await exists('content/blog/no-token.md')).toBe(false);
  });

  it('refuses a write from another origin, even with the token', async () => {
    const answer = await post(saveEntry('content/blog/elsewhere.md', article('Elsewhere')), { origin: 'http://evil.example:4321' });
    expect(answer.status).toBe(403);
    expect(await exists('content/blog/elsewhere.md')).toBe(false);
  });
});

describe('where it may write: where the build reads', () => {
  it('refuses media outside content/images (content/evil.html)', async () => {
    const answer = await post(saveMedia('content/evil.html', '<script>alert(1)</script>'));
    expect(answer.status).toBe(422);
    expect(answer.error).toContain('content/images/');
    expect(await exists('content/evil.html')).toBe(false);
  });

  it("refuses an entry outside its collection's folder or extension (content/blog/x.txt)", async () => {
    for (const file of ['content/blog/x.txt', 'content/x.md', 'content/blog/sub/x.md', 'content/services/x.md', 'content/pages/new-page.yaml']) {
      const answer = await post(saveEntry(file, article('Misplaced')));
      expect(answer.status, file).toBe(422);
      expect(await exists(file), file).toBe(false);
    }
  });

  it('refuses an SVG with a script, an event handler or a javascript: URL, and takes a clean one', async () => {
    const unsafe = {
      'content/images/script.svg': SVG('<script>alert(1)</script>'),
      'content/images/handler.svg': SVG('<rect width="5" height="5"/>', ' onload="alert(1)"'),
      'content/images/link.svg': SVG('<a href="jav&#x61;script:alert(1)"><rect width="5" height="5"/></a>'),
    };
    for (const [file, svg] of Object.entries(unsafe)) {
      const answer = await post(saveMedia(file, svg));
      expect(answer.status, file).toBe(422);
      expect(await exists(file), file).toBe(false);
    }
    expect((await post(saveMedia('content/images/clean.svg', SVG('<rect width="5" height="5" fill="#123"/>')))).status).toBe(200);
    // The same check when the image comes with an entry's save.
    const withEntry = { action: 'persistEntry', params: { dataFiles: [{ path: 'content/blog/with-svg.md', raw: article('With SVG') }], assets: [{ path: 'content/images/inline.svg', content: Buffer.from(unsafe['content/images/script.svg']).toString('base64'), encoding: 'base64' }] } };
    expect((await post(withEntry)).status).toBe(422);
    expect(await exists('content/blog/with-svg.md')).toBe(false);
  });

  it('does not follow a link inside content/ to a file outside it', async () => {
    await writeFile(path.join(outside, 'secret.md'), 'not for the CMS');
    await symlink(path.join(outside, 'secret.md'), path.join(root, 'content/blog/leak.md'));
    try {
      const answer = await post({ action: 'getEntry', params: { path: 'content/blog/leak.md' } });
      expect(answer.status).toBe(422);
      expect(answer.error).toContain('outside content/');
    } finally {
      await rm(path.join(root, 'content/blog/leak.md'));
    }
  });

  it('does not write through a linked folder to outside content/', async () => {
    const project = await mkdtemp(path.join(os.tmpdir(), 'site-cms-linked-'));
    const elsewhere = path.join(outside, 'images');
    await mkdir(path.join(project, 'content'), { recursive: true });
    await mkdir(elsewhere);
    await symlink(elsewhere, path.join(project, 'content/images'));
    try {
      const backend = new CmsLocalBackend(project, (dir) => loadSite(dir));
      const answer = await backend.handle(saveMedia('content/images/through.svg', SVG('')));
      expect(answer.status).toBe(422);
      expect(await readdir(elsewhere)).toEqual([]);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });

  it('answers an oversized body with a 413 and a message, not a reset connection', async () => {
    const big = JSON.stringify(saveMedia('content/images/big.png', Buffer.alloc(10 * 1024 * 1024)));
    const answer = await post(big);
    expect(answer.status).toBe(413);
    expect(answer.error).toMatch(/too large.*MB/);
    // The connection is still good for the next save.
    expect((await post({ action: 'info' })).status).toBe(200);
  });
});

describe("a save is refused for its own problems only", () => {
  it('renames and deletes while an unrelated file is broken', async () => {
    await writeFile(path.join(root, 'content/services/zz-broken.yaml'), 'name: [unclosed\n');
    try {
      expect((await post(saveEntry('content/blog/to-rename.md', article('To rename')))).status).toBe(200);
      const renamed = await post(saveEntry('content/blog/to-rename.md', article('Renamed'), { newPath: 'content/blog/renamed.md' }));
      expect(renamed).toEqual({ status: 200, error: undefined });
      expect([await exists('content/blog/to-rename.md'), await exists('content/blog/renamed.md')]).toEqual([false, true]);
      expect((await post({ action: 'deleteFile', params: { path: 'content/blog/renamed.md' } })).status).toBe(200);
      expect(await exists('content/blog/renamed.md')).toBe(false);
      // A save's own problem is still refused, and so is a deletion that breaks a page elsewhere.
      expect((await post(saveEntry('content/blog/own-problem.md', article('Own').replace('2026-01-05', '2026-02-30')))).status).toBe(422);
      const used = await post({ action: 'deleteFile', params: { path: 'content/images/about-team.svg' } });
      expect(used.status).toBe(422);
      expect(used.error).toContain('/images/about-team.svg');
      expect(await exists('content/images/about-team.svg')).toBe(true);
    } finally {
      await rm(path.join(root, 'content/services/zz-broken.yaml'));
    }
  });
});
