/**
 * Builds used to write each page as <url>/index.html. The first builds after the change to
 * <url>.html find both trees (dist/'s and the staging one) in that layout, and must leave them
 * holding the new layout alone: no old page files, no folders they leave empty.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, readlink, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import type { WrittenFiles } from '../../src/pipeline/file-list.ts';
import { formerFileList, outputLayout, treeParts, TREES } from '../../src/output/layout.ts';
import { pageFile, type RoutingTable } from '../../src/url-resolution/resolve.ts';
import { fixtureProject, type FixtureProject } from '../support/fixture-project.ts';

let project: FixtureProject;
let out: string;
let table: RoutingTable;

const build = () => buildSite({ root: project.root, outDir: out, now: new Date('2026-06-01T12:00:00Z'), budgets: false, warn: () => {} });
const trees = () => TREES.map((t) => treeParts(path.join(outputLayout(out).buildsDir, t)));

/** Every file and every folder under `dir`, relative to it. */
async function tree(dir: string): Promise<{ files: string[]; folders: string[] }> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const rel = (e: { parentPath: string; name: string }) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/');
  return { files: entries.filter((e) => !e.isDirectory()).map(rel).sort(), folders: entries.filter((e) => e.isDirectory()).map(rel).sort() };
}

/** The page files of the old layout, for the pages other than the home page: 'about/index.html'. */
const oldFile = (url: string) => `${url.slice(1)}/index.html`;

/**
 * A tree as the last build of the old layout left it: each page file moved to its folder, its entry
 * with it, in the file list of that version (the entries alone, in `records.json`).
 */
async function toOldLayout(parts: { site: string; fileList: string }) {
  const entries = (JSON.parse(await readFile(parts.fileList, 'utf8')) as WrittenFiles).files as Record<string, unknown>;
  for (const url of table.pageUrls.filter((u) => u !== '/')) {
    const from = pageFile(url);
    await mkdir(path.dirname(path.join(parts.site, oldFile(url))), { recursive: true });
    await rename(path.join(parts.site, from), path.join(parts.site, oldFile(url)));
    entries[`/${oldFile(url)}`] = entries[from];
    delete entries[from];
  }
  await writeFile(formerFileList(parts.fileList), JSON.stringify(entries));
  await rm(parts.fileList);
}

beforeAll(async () => {
  project = await fixtureProject('site-old-layout-', { seeded: true });
  out = path.join(project.root, 'dist');
  // Two builds: both trees hold a complete build.
  await build();
  await build();
  table = JSON.parse(await readFile(path.join(outputLayout(out).deployDir, 'routing.json'), 'utf8')) as RoutingTable;
  for (const parts of trees()) await toOldLayout(parts);
}, 300_000);
afterAll(async () => {
  await project?.remove();
});

describe('the first builds after the change of page layout', () => {
  it('leave both trees in the new layout alone: every page as <url>.html, no old page file, no folder left empty', async () => {
    const inner = table.pageUrls.filter((u) => u !== '/');
    expect(inner.length).toBeGreaterThan(20);
    const before = await tree(out);
    expect(before.files).toContain('about/index.html');
    expect(before.folders).toContain('about');
    const aboutBefore = await readFile(path.join(out, 'about/index.html'), 'utf8');

    // Each build brings the tree dist/ does not show up to date, then shows it.
    const assets = before.files.filter((f) => f.startsWith('assets/'));
    expect(assets.length).toBeGreaterThan(0);
    await build();
    // The first read the last build's list from its former name: every unchanged file is shared by the two trees, not written again.
    const [a, b] = trees();
    for (const f of assets) expect((await stat(path.join(a!.site, f))).ino, f).toBe((await stat(path.join(b!.site, f))).ino);
    for (let i = 1; i < TREES.length; i++) await build();

    for (const parts of trees()) {
      const { files, folders } = await tree(parts.site);
      for (const url of inner) {
        expect(files, parts.site).toContain(`${url.slice(1)}.html`);
        expect(files, parts.site).not.toContain(oldFile(url));
      }
      expect(files.filter((f) => f.endsWith('/index.html')), parts.site).toEqual([]);
      // Only folders that still hold a file: no about/, no blog/page/2/.
      expect(folders.filter((d) => !files.some((f) => f.startsWith(`${d}/`))), parts.site).toEqual([]);
      expect(existsSync(path.join(parts.site, 'about'))).toBe(false);
      // What the tree lists is what it holds, in its list of the new name alone.
      expect(existsSync(formerFileList(parts.fileList))).toBe(false);
      const listed = Object.keys((JSON.parse(await readFile(parts.fileList, 'utf8')) as WrittenFiles).files).map((f) => f.slice(1)).sort();
      expect(files.filter((f) => f !== '.site-build.json')).toEqual(listed);
    }
    // dist/ shows one of them, and a page is what it was: only its file's name has changed.
    expect(TREES.map((t) => t as string)).toContain(path.basename(await readlink(outputLayout(out).current)));
    expect(await readFile(path.join(out, 'about.html'), 'utf8')).toBe(aboutBefore);
    expect((await tree(out)).folders.length).toBeLessThan(before.folders.length);
  }, 300_000);
});
