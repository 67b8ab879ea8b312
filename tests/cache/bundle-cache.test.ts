import { cp, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../../src/bundle/bundle.ts';
import { bundleBuildCode } from '../../src/pool/code.ts';
import { buildSite } from '../../src/pipeline/build.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';
import { editFile, scratchProject } from '../scratch-project.ts';

/**
 * The bundles (islands and stylesheet; the build's own code) are kept in .site/cache/ with what they
 * were made from, and taken from there while nothing of that has changed: a rebuild runs no esbuild.
 */
let dir: string;
beforeAll(async () => { dir = await scratchProject('bundle-cache-'); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const cacheDir = () => path.join(dir, CACHE_DIR);
const assets = () => bundle({ root: dir, cacheDir: cacheDir() });
const savedFile = (name: string, project = dir) => path.join(project, CACHE_DIR, `bundle-${name}.json`);

/** Marks the saved result, so that a result taken from the cache can be told from one bundled afresh. */
async function markSavedIn(project: string, name: string, mark: (result: Record<string, unknown>) => void) {
  const saved = JSON.parse(await readFile(savedFile(name, project), 'utf8')) as { result: Record<string, unknown> };
  mark(saved.result);
  await writeFile(savedFile(name, project), JSON.stringify(saved));
}
const markSaved = (name: string, mark: (result: Record<string, unknown>) => void) => markSavedIn(dir, name, mark);

describe('the bundle cache', () => {
  it('gives the same assets as a fresh bundle, and reuses them until a file they were made from changes', async () => {
    const fresh = await bundle({ root: dir });
    const first = await assets();
    expect(first).toEqual(fresh);
    expect(Object.keys(first.files).length).toBeGreaterThan(3);

    await markSaved('assets', (r) => { r.css = '/assets/from-the-cache.css'; });
    const second = await assets();
    expect(second.css).toBe('/assets/from-the-cache.css');
    expect(second.files).toEqual(fresh.files);

    // An edited stylesheet: bundled again, with the edit in it.
    await editFile(dir, 'templates/styles/site.css', (s) => `${s}\n.bundle-cache-test{color:red}\n`);
    const edited = await assets();
    expect(edited.css).not.toBe('/assets/from-the-cache.css');
    expect(Buffer.from(edited.files[edited.css]!).toString()).toContain('.bundle-cache-test');

    // A new island: the folder's listing is part of what the bundle was made from.
    await markSaved('assets', (r) => { r.css = '/assets/from-the-cache.css'; });
    const registry = path.join(dir, 'islands', 'index.ts');
    const registered = await readFile(registry, 'utf8');
    await writeFile(path.join(dir, 'islands', 'bundle-cache-probe.ts'), 'export default function mount() {}\n');
    await writeFile(registry, registered.replace('export const scriptIslands = [', "export const scriptIslands = ['bundle-cache-probe', "));
    const added = await assets();
    expect(added.islands['bundle-cache-probe']).toMatch(/^\/assets\/bundle-cache-probe-\w+\.js$/);
    await rm(path.join(dir, 'islands', 'bundle-cache-probe.ts'));
    await writeFile(registry, registered);
  });

  it('reads no file whose stat is the one it had when it was hashed, and reads one whose stat changed', async () => {
    await assets();
    // Every file the bundle read, settled (modified an hour ago): the next check hashes them once and keeps their stats.
    type Saved = { inputs: Array<[string, string, ...number[]]>; result: Record<string, unknown> };
    const saved = () => readFile(savedFile('assets'), 'utf8').then((t) => JSON.parse(t) as Saved);
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const [file] of (await saved()).inputs) if (!file.includes('node_modules')) await utimes(path.resolve(dir, file), hourAgo, hourAgo);
    const good = await assets();
    const kept = await saved();
    const css = kept.inputs.find(([f]) => f.endsWith('templates/styles/site.css'))!;
    expect(css).toHaveLength(6);

    // A wrong hash under the file's own stat: the stat decides, the file is not read, the result is reused.
    css[1] = '0'.repeat(64);
    kept.result.css = '/assets/from-the-cache.css';
    await writeFile(savedFile('assets'), JSON.stringify(kept));
    expect((await assets()).css).toBe('/assets/from-the-cache.css');

    // Its stat changed (touched, bytes the same): read and hashed, the wrong hash found, bundled afresh.
    await utimes(path.resolve(dir, css[0]), new Date(), new Date());
    expect(await assets()).toEqual(good);
  });

  it('bundles anew when what was saved cannot be read', async () => {
    const good = await assets();
    await writeFile(savedFile('assets'), '{ not json');
    expect(await assets()).toEqual(good);
    await markSaved('assets', (r) => { r.files = 'not files'; });
    expect(await assets()).toEqual(good);
  });

  it("reuses the build's own code while its sources are unchanged, and bundles it again when a template changes", async () => {
    const first = await bundleBuildCode(dir);
    expect(await bundleBuildCode(dir)).toEqual(first);
    await markSaved('code', (r) => { r.renderHash = 'from-the-cache'; });
    expect((await bundleBuildCode(dir)).renderHash).toBe('from-the-cache');
    await editFile(dir, 'templates/pages/NotFound.tsx', (s) => s.replace("doesn't exist", 'does not exist'));
    const edited = await bundleBuildCode(dir);
    expect(edited.renderHash).not.toBe('from-the-cache');
    expect(edited.renderHash).not.toBe(first.renderHash);
    // Its folder gone (pruned, say): bundled again rather than pointing at nothing.
    await markSaved('code', (r) => { r.renderHash = 'from-the-cache'; });
    await rm(path.dirname(edited.workerFile), { recursive: true, force: true });
    const again = await bundleBuildCode(dir);
    expect(again.renderHash).toBe(edited.renderHash);
    expect((await readFile(again.workerFile)).length).toBeGreaterThan(0);
  });

  it("takes the build's code from the cache on the build after a clean one, though that build kept its other caches beside it", async () => {
    const other = await scratchProject('bundle-cache-build-');
    try {
      const options = { root: other, contentDir: path.join(other, 'content'), outDir: path.join(other, 'dist'), budgets: false as const };
      await buildSite(options);
      await markSavedIn(other, 'code', (r) => { r.renderHash = 'from-the-cache'; });
      expect((await bundleBuildCode(other)).renderHash).toBe('from-the-cache');
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('serves a copy of the project in another folder from the bundles it brought: the code from its own copy of the folder', async () => {
    await bundleBuildCode(dir);
    await assets();
    await markSaved('code', (r) => { r.renderHash = 'from-the-cache'; });
    await markSaved('assets', (r) => { r.css = '/assets/from-the-cache.css'; });
    const copy = await mkdtemp(path.join(os.tmpdir(), 'bundle-cache-copy-'));
    try {
      // The project copied whole, node_modules as a link, as `cp -a` would.
      await cp(dir, copy, { recursive: true, verbatimSymlinks: true });
      const code = await bundleBuildCode(copy);
      expect(code.renderHash).toBe('from-the-cache');
      expect(code.workerFile.startsWith(path.join(copy, CACHE_DIR) + path.sep)).toBe(true);
      expect((await bundle({ root: copy, cacheDir: path.join(copy, CACHE_DIR) })).css).toBe('/assets/from-the-cache.css');
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
