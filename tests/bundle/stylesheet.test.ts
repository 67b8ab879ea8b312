// Every page links to the site's stylesheet by the URL the bundle names: it must be the file
// written, also where templates/ is a link to another folder (as the bench links the project's code).
import { readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundle } from '../../src/bundle/bundle.ts';
import { scratchProject } from '../scratch-project.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';

let dir: string;
beforeEach(async () => { dir = await scratchProject('site-stylesheet-'); });
afterEach(() => rm(dir, { recursive: true, force: true }));

const bundled = () => bundle({ root: dir, cacheDir: path.join(dir, CACHE_DIR) });

describe("the site's stylesheet", () => {
  const expectStylesheet = async () => {
    const { css, files } = await bundled();
    expect(css).toMatch(/^\/assets\/site-[A-Z0-9]+\.css$/);
    const written = Buffer.from(files[css]!).toString('utf8');
    // The minified text of the source's first rule that names the body.
    expect(written).toContain('body{');
    expect(written.length).toBeGreaterThan((await readFile(path.join(dir, 'templates/styles/site.css'), 'utf8')).length / 3);
  };

  it('is named by the URL of the file written', expectStylesheet);

  it('is found through a linked templates/ folder', async () => {
    await rm(path.join(dir, 'templates'), { recursive: true });
    await symlink(path.resolve('templates'), path.join(dir, 'templates'), 'dir');
    await expectStylesheet();
  });
});
