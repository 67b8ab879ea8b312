import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployDirFor, deployFilesOf, outputLayout } from '../../src/output/layout.ts';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(path.join(os.tmpdir(), 'site-deploy-files-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('the deploy files of a folder of pages', () => {
  it('are its tree’s deploy/ for dist (a link to a tree), a tree’s site/ itself and serve’s own site link', async () => {
    const layout = outputLayout(path.join(dir, 'dist'));
    const tree = path.join(layout.buildsDir, 'a');
    await mkdir(path.join(tree, 'site'), { recursive: true });
    await mkdir(path.join(tree, 'deploy'), { recursive: true });
    await symlink('a', layout.current);
    await symlink(path.relative(dir, path.join(layout.current, 'site')), layout.outDir);
    expect(deployFilesOf(layout.outDir)).toBe(path.join(tree, 'deploy'));
    // The pages a failed build left, named directly (the quality gates read them so).
    expect(deployFilesOf(path.join(tree, 'site'))).toBe(path.join(tree, 'deploy'));
    // A folder some other family links to (serve's site → .site/serve/builds/site/current/site).
    const serveSite = path.join(dir, '.site', 'serve', 'site');
    await mkdir(path.dirname(serveSite), { recursive: true });
    await symlink(path.join(tree, 'site'), serveSite);
    expect(deployFilesOf(serveSite)).toBe(path.join(tree, 'deploy'));
  });

  it('are the deploy folder of the family beside it for a plain folder (a copy, a fixture)', async () => {
    const plain = path.join(dir, 'copy', 'pages');
    await mkdir(plain, { recursive: true });
    expect(deployFilesOf(plain)).toBe(deployDirFor(plain));
    expect(deployFilesOf(plain)).toBe(path.join(dir, 'copy', '.site', 'deploy'));
  });
});
