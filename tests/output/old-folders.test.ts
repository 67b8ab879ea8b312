/**
 * Versions before the .site/ family wrote .site-cache/, .site-data/, .dist.builds/ and build/. A
 * project laid out that way builds, and ends in the new layout: its leads kept, its cache and its
 * last build's files reused, nothing of the user's deleted (see src/output/old-folders.ts).
 */
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, readlink, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadFieldValues } from '../../forms/fields.ts';
import { startLocalStore } from '../../lambda/leads/local-store.ts';
import type { LeadRecord } from '../../lambda/leads/record.ts';
import { leadStore } from '../../lambda/leads/store.ts';
import { main } from '../../src/cli.ts';
import { buildSite } from '../../src/pipeline/build.ts';
import { CACHE_DIR, DEPLOY_ENTRIES, FAMILY, TREES, dataDirOf, outputLayout, treeParts } from '../../src/output/layout.ts';
import { fixtureProject, type FixtureProject } from '../support/fixture-project.ts';

const now = new Date('2026-06-01T12:00:00Z');
const LEAD: LeadRecord = {
  submissionId: 'kept-0000-4000-8000-000000000001',
  form: 'contact',
  receivedAt: '2026-04-01T10:00:00.000Z',
  ...leadFieldValues({ name: 'Morag Kept', email: 'morag@example.org', message: 'Still here after the move?' }),
  emailKey: 'morag@example.org',
  source: 'test',
  mail: { state: 'sent', attempts: 1, messageId: 'msg-kept', lastAttemptAt: '2026-04-01T10:05:00.000Z' },
  expiresAt: 1_838_000_000,
};

let project: FixtureProject;
let root: string;
let out: string;

const build = (warn: (line: string) => void) => buildSite({ root, outDir: out, now, budgets: false, warn });

async function leadsList(): Promise<{ code: number; out: string; err: string }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await main(['node', 'site', '--root', root, 'leads', 'list'], { out: (s) => lines.push(s), err: (s) => errors.push(s) });
  return { code, out: lines.join('\n'), err: errors.join('\n') };
}

/** A local leads store with one lead in `dataDir`, as `site serve` of an older version left it. */
async function leadIn(dataDir: string): Promise<void> {
  const local = await startLocalStore({ dataDir });
  const client = local.client();
  try { await leadStore(client, local.table).putRaw(LEAD); } finally { client.destroy(); await local.close(); }
}

/**
 * The project's folders put back as the last version before the family left them: the cache in
 * .site-cache/, the two trees in .dist.builds/ (each with build/ beside site/), dist linked into them,
 * build/ holding links into the current tree, serve's output, the Lambda bundle and cdk's output.
 */
async function toOldFolders(): Promise<void> {
  const family = path.join(root, FAMILY);
  await rename(path.join(root, CACHE_DIR), path.join(root, '.site-cache'));
  await rename(outputLayout(out).buildsDir, path.join(root, '.dist.builds'));
  for (const tree of TREES) await rename(path.join(root, '.dist.builds', tree, 'deploy'), path.join(root, '.dist.builds', tree, 'build'));
  await rm(out);
  await symlink('.dist.builds/current/site', out);
  await rm(family, { recursive: true });
  const build = path.join(root, 'build');
  await mkdir(build);
  for (const entry of DEPLOY_ENTRIES) await symlink(`../.dist.builds/current/build/${entry}`, path.join(build, entry));
  // serve's own pair: its trees and the link into them.
  await mkdir(path.join(build, 'serve', '.dist.builds', 'a', 'site'), { recursive: true });
  await writeFile(path.join(build, 'serve', '.dist.builds', 'a', 'site', 'index.html'), '<title>what serve built</title>');
  await symlink('a', path.join(build, 'serve', '.dist.builds', 'current'));
  await symlink('.dist.builds/current/site', path.join(build, 'serve', 'dist'));
  await mkdir(path.join(build, 'lambda'));
  await writeFile(path.join(build, 'lambda', 'index.mjs'), 'export const handler = () => "the bundle";\n');
  await mkdir(path.join(build, 'cdk.out'));
  await writeFile(path.join(build, 'cdk.out', 'manifest.json'), '{}');
  await writeFile(path.join(build, 'cdk.out', 'Site.template.json'), '{}');
}

beforeAll(async () => {
  project = await fixtureProject('site-old-folders-');
  root = project.root;
  out = path.join(root, 'dist');
  // Two builds: both trees hold one.
  await build(() => {});
  await build(() => {});
}, 300_000);
afterAll(async () => { await project?.remove(); });

describe('the first build after the move into .site/', () => {
  it('moves the cache, the leads and the trees in, removes what the tools made, and reuses what it moved', async () => {
    const aboutBefore = await stat(path.join(out, 'about.html'));
    await toOldFolders();
    await leadIn(path.join(root, '.site-data', 'leads'));
    expect((await readdir(root)).filter((n) => !['content', 'templates', 'islands', 'src', 'lambda', 'forms', 'node_modules', 'package.json'].includes(n)).sort())
      .toEqual(['.dist.builds', '.site-cache', '.site-data', 'build', 'dist']);

    const warnings: string[] = [];
    const result = await build((line) => warnings.push(line));
    expect(warnings).toEqual([]);

    // One family: dist beside it, and nothing of the old folders left.
    expect((await readdir(root)).filter((n) => n.startsWith('.') || ['build', 'dist'].includes(n)).sort()).toEqual([FAMILY, 'dist']);
    expect((await readdir(path.join(root, FAMILY))).sort()).toEqual(['builds', 'cache', 'data', 'deploy']);
    const layout = outputLayout(out);
    expect(await readlink(out)).toBe(path.join(FAMILY, 'builds', 'dist', 'current', 'site'));
    for (const tree of TREES) {
      // Each tree's build/ is its deploy/ now (the tree just built also holds its build record).
      const entries = await readdir(path.join(layout.buildsDir, tree));
      expect(entries).toEqual(expect.arrayContaining(['deploy', 'site', 'written-files.json']));
      expect(entries).not.toContain('build');
    }
    for (const entry of DEPLOY_ENTRIES) {
      expect((await lstat(path.join(layout.deployDir, entry))).isSymbolicLink()).toBe(true);
      expect(existsSync(path.join(layout.deployDir, entry)), entry).toBe(true);
    }
    expect(JSON.parse(await readFile(path.join(layout.deployDir, 'routing.json'), 'utf8'))).toEqual(result.table);
    // The Lambda bundle moved with the deploy artifacts.
    expect(await readFile(path.join(layout.deployDir, 'lambda', 'index.mjs'), 'utf8')).toContain('the bundle');

    // The cache moved warm: nothing parsed again. The trees moved whole: the unchanged page is the same file, shared, not written again.
    expect(result.redone.parsed).toBe(0);
    expect((await stat(path.join(out, 'about.html'))).ino).toBe(aboutBefore.ino);
    expect(existsSync(path.join(treeParts(path.join(layout.buildsDir, 'a')).site, 'about.html'))).toBe(true);

    // The lead is where site leads looks now.
    expect(existsSync(path.join(dataDirOf(root), 'leads'))).toBe(true);
    const listed = await leadsList();
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('Morag Kept');
  }, 300_000);

  it('site leads moves the leads in before anything builds, and a build leaves a file of the user in build/, saying so', async () => {
    await rm(path.join(root, FAMILY, 'data'), { recursive: true });
    await leadIn(path.join(root, '.site-data', 'leads'));
    const listed = await leadsList();
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('Morag Kept');
    expect(existsSync(path.join(root, '.site-data'))).toBe(false);

    const folder = path.join(root, 'build');
    await mkdir(folder);
    for (const entry of DEPLOY_ENTRIES) await symlink(`../.dist.builds/current/build/${entry}`, path.join(folder, entry));
    await writeFile(path.join(folder, 'notes.txt'), 'mine, not a tool’s');
    const warnings: string[] = [];
    await buildSite({ root, outDir: out, now, budgets: false, warn: (line) => warnings.push(line) });
    expect(await readdir(folder)).toEqual(['notes.txt']);
    expect(await readFile(path.join(folder, 'notes.txt'), 'utf8')).toBe('mine, not a tool’s');
    expect(warnings).toEqual([`note: ${path.relative(process.cwd(), folder)}/ was where older versions wrote their output (now in ${path.relative(process.cwd(), path.join(root, FAMILY))}/); it still holds notes.txt, which no tool made, so it is left as it is`]);
  }, 300_000);

  it('leaves .site-data/ where it is when .site/data/ exists too, and says so: neither is deleted', async () => {
    await mkdir(path.join(root, '.site-data', 'leads'), { recursive: true });
    await writeFile(path.join(root, '.site-data', 'leads', 'marker'), 'the older store');
    const warnings: string[] = [];
    await buildSite({ root, outDir: out, now, budgets: false, warn: (line) => warnings.push(line) });
    expect(await readFile(path.join(root, '.site-data', 'leads', 'marker'), 'utf8')).toBe('the older store');
    expect((await leadsList()).out).toContain('Morag Kept');
    expect(warnings.some((w) => w.includes('.site-data/ (the local leads of an older version) is left where it is'))).toBe(true);
    await rm(path.join(root, '.site-data'), { recursive: true });
  }, 300_000);
});
