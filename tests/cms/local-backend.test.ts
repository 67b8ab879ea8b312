import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchProject } from '../scratch-project.ts';
import { CmsLocalBackend } from '../../src/cms/local-backend.ts';
import { loadSite } from '../../src/content/load.ts';

let dir: string;
let backend: CmsLocalBackend;
beforeAll(async () => {
  dir = await scratchProject('site-cms-backend-');
  backend = new CmsLocalBackend(dir, (contentDir) => loadSite(contentDir));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const article = (front: string) => `---\n${front}faq:\n  - { question: One?, answer: Yes. }\n  - { question: Two?, answer: Yes. }\n  - { question: Three?, answer: Yes. }\n---\n\nBody words.\n`;

describe("site serve's answer to Decap's local backend protocol", () => {
  it('says what it is, and lists a folder as entries', async () => {
    expect((await backend.handle({ action: 'info' })).json).toMatchObject({ publish_modes: ['simple'], type: 'local_fs' });
    const list = await backend.handle({ action: 'entriesByFolder', params: { folder: 'content/blog', extension: 'md', depth: 1 } });
    const entries = list.json as Array<{ file: { path: string }; data: string }>;
    expect(entries.map((e) => e.file.path)).toContain('content/blog/what-is-data.md');
    expect(entries.find((e) => e.file.path === 'content/blog/what-is-data.md')!.data).toBe(await readFile(path.join(dir, 'content/blog/what-is-data.md'), 'utf8'));
  });

  it('writes a valid entry into content/', async () => {
    const raw = article('title: A valid one\nexcerpt: Fine.\ndate: 2026-01-05\ndraft: true\n');
    const answer = await backend.handle({ action: 'persistEntry', params: { dataFiles: [{ path: 'content/blog/a-valid-one.md', raw }], assets: [] } });
    expect(answer.status).toBe(200);
    expect(await readFile(path.join(dir, 'content/blog/a-valid-one.md'), 'utf8')).toBe(raw);
  });

  it("refuses an entry the build would refuse, with the field's message, and writes nothing", async () => {
    const answer = await backend.handle({ action: 'persistEntry', params: { dataFiles: [{ path: 'content/blog/bad-date.md', raw: article('title: Bad\nexcerpt: Fine.\ndate: 2026-02-30\n') }], assets: [] } });
    expect(answer.status).toBe(422);
    expect((answer.json as { error: string }).error).toBe('content/blog/bad-date.md:4 date: is not a real calendar date');
    await expect(stat(path.join(dir, 'content/blog/bad-date.md'))).rejects.toThrow();
  });

  it('leaves an existing file as it was when its new version is refused', async () => {
    const file = path.join(dir, 'content/blog/what-is-data.md');
    const before = await readFile(file, 'utf8');
    const answer = await backend.handle({ action: 'persistEntry', params: { dataFiles: [{ path: 'content/blog/what-is-data.md', raw: before.replace(/^faq:[\s\S]*?(?=^---)/m, '') }], assets: [] } });
    expect(answer.status).toBe(422);
    expect((answer.json as { error: string }).error).toContain('faq: is required but missing');
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('refuses paths outside content/', async () => {
    for (const p of ['../package.json', 'src/cli.ts', '/etc/passwd', 'content/../src/cli.ts', 'content/.hidden.md']) {
      const answer = await backend.handle({ action: 'persistEntry', params: { dataFiles: [{ path: p, raw: 'x' }], assets: [] } });
      expect(answer.status, p).toBe(422);
    }
    expect((await backend.handle({ action: 'getEntry', params: { path: '../package.json' } })).status).toBe(422);
  });
});
