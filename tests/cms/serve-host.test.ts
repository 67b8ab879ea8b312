// `site serve --host` beyond this machine: the content manager is read-only unless --cms-writes asks
// otherwise, and serve says which as it starts.
import { cp, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CmsLocalBackend } from '../../src/cms/local-backend.ts';
import { loadSite } from '../../src/content/load.ts';
import { cmsLine } from '../../src/serve/serve.ts';
import { isLoopback, ownOrigins } from '../../src/serve/own-origins.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'site-cms-host-'));
  await cp(path.resolve('content/blog'), path.join(root, 'content/blog'), { recursive: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('serve on a host beyond this machine', () => {
  it('keeps saving off unless asked for, and says so as it starts', async () => {
    expect(['127.0.0.1', 'localhost', '::1', '[::1]'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.20'].some(isLoopback)).toBe(false);
    expect(cmsLine('http://0.0.0.0:4321', '0.0.0.0', false)).toMatch(/read-only.*--cms-writes/);
    expect(cmsLine('http://0.0.0.0:4321', '0.0.0.0', true)).toMatch(/anyone who can reach 0\.0\.0\.0 can save/);
    const backend = new CmsLocalBackend(root, (dir) => loadSite(dir), { writes: false });
    const answer = await backend.handle({ action: 'persistEntry', params: { dataFiles: [{ path: 'content/blog/off.md', raw: '---\ntitle: Off\n---\n' }], assets: [] } });
    expect(answer.status).toBe(403);
    expect((answer.json as { error: string }).error).toContain('--cms-writes');
    await expect(stat(path.join(root, 'content/blog/off.md'))).rejects.toThrow();
    // Reading stays on: the author can still look.
    expect((await backend.handle({ action: 'getEntry', params: { path: 'content/blog/what-is-data.md' } })).status).toBe(200);
    // Reached by the machine's own addresses, not by a name that merely resolves to it.
    expect(ownOrigins('0.0.0.0', 4321)).toContain('http://127.0.0.1:4321');
    expect(ownOrigins('0.0.0.0', 4321)).not.toContain('http://evil.example:4321');
  });
});
