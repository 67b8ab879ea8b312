import { mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, listFilesNow } from '../../src/output/list-tree.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'list-tree-'));
  for (const file of ['index.html', 'blog/a/index.html', 'blog/page/2/index.html', 'og/a.png', 'assets/chunks/x.js']) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), file);
  }
  await mkdir(path.join(dir, 'empty/folder'), { recursive: true });
  await symlink('index.html', path.join(dir, 'link.html'));
  await symlink('missing.html', path.join(dir, 'gone.html'));
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const expected = ['/assets/chunks/x.js', '/blog/a/index.html', '/blog/page/2/index.html', '/gone.html', '/index.html', '/link.html', '/og/a.png'];

describe('listing an output tree', () => {
  it('lists every file (links too, folders not) as a public path', () => {
    expect(listFilesNow(dir).map((f) => f.file).sort()).toEqual(expected);
  });

  it('lists the same in a thread of its own as here', async () => {
    expect((await listFiles(dir, 10, 0)).map((f) => f.file).sort()).toEqual(expected);
    expect((await listFiles(dir, 10)).map((f) => f.file).sort()).toEqual(expected);
  });

  it("gives each file its inode, size and time (a link's target's), the same in a thread as here", async () => {
    const byFile = (a: { file: string }, b: { file: string }) => (a.file < b.file ? -1 : 1);
    const here = listFilesNow(dir).sort(byFile);
    expect((await listFiles(dir, 10, 0)).sort(byFile)).toEqual(here);
    for (const f of here.filter((l) => l.file !== '/gone.html')) {
      const s = await stat(path.join(dir, f.file));
      expect(f).toEqual({ file: f.file, stat: { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs } });
    }
  });

  it('lists a link that leads nowhere, without a stat, so that a build deletes it', async () => {
    for (const files of [listFilesNow(dir), await listFiles(dir, 10, 0)]) expect(files.find((f) => f.file === '/gone.html')).toEqual({ file: '/gone.html' });
  });

  it('lists nothing for a tree that is not there, in a thread or not', async () => {
    expect(await listFiles(path.join(dir, 'missing'), 10, 0)).toEqual([]);
    expect(listFilesNow(path.join(dir, 'missing'))).toEqual([]);
  });
});
