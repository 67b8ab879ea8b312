/**
 * A failed build, however it fails, leaves dist/ and the files of .site/deploy/ a deploy reads exactly as the
 * last complete build left them; a complete one swaps its own in. A scratch project with enough
 * articles that writing its pages takes a while, built by the real CLI where it is killed.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { BudgetError, loadBudgets } from '../../src/measure/budgets.ts';
import { ContentErrors } from '../../src/content/errors.ts';
import { deploy, DeployError } from '../../src/deploy/deploy.ts';
import { SEAL_FILE } from '../../src/output/seal.ts';
import { outputLayout } from '../../src/output/layout.ts';
import { OutputFolderError } from '../../src/output/swap.ts';
import { describeBuildError } from '../../src/pipeline/errors.ts';
import { fixtureProject, type FixtureProject } from '../support/fixture-project.ts';
import { startLocalS3, type LocalS3 } from '../deploy/local-s3.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const now = new Date('2026-06-01T12:00:00Z');
let project: FixtureProject;
let out: string;
let s3: LocalS3;

/** Every file under `dir`, through links (dist/ and .site/deploy/'s files are links into the current tree). */
async function walk(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const file = path.join(dir, e.name);
    const info = await stat(file);
    if (info.isDirectory()) files.push(...await walk(file));
    else files.push(file);
  }
  return files;
}

/** One digest of every byte of dist/ and of the routing table, headers and CDN functions in .site/deploy/. */
async function outputsDigest(): Promise<{ digest: string; files: number }> {
  const files = [...await walk(out), ...await walk(outputLayout(out).deployDir)].sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${path.relative(project.root, file)}\0`).update(await readFile(file)).update('\0');
  return { digest: hash.digest('hex'), files: files.length };
}

const build = (extra: Partial<Parameters<typeof buildSite>[0]> = {}) => buildSite({ root: project.root, outDir: out, now, budgets: false, warn: () => {}, ...extra });
const rename = (name: string) => project.edit('site.yaml', (s) => s.replace(/^name: .*$/m, `name: ${name}`));
const home = () => readFile(path.join(out, 'index.html'), 'utf8');

beforeAll(async () => {
  project = await fixtureProject('site-staging-', { seeded: true });
  out = path.join(project.root, 'dist');
  // Enough pages that the render stage (which writes each page as it is rendered) lasts a while.
  for (let i = 0; i < 240; i++) await project.article(`staging-note-${i}`, { date: '2026-01-05', body: `## Note ${i}\n\n${'Words for a page that takes a moment to render. '.repeat(40)}` });
  await rename('Staging One');
  await build();
  s3 = await startLocalS3(['site']);
}, 300_000);
afterAll(async () => {
  await s3?.close();
  await project?.remove();
});

describe('a build that fails leaves dist/ and .site/deploy/ exactly as they were', () => {
  it('when it is killed while it writes pages', async () => {
    const before = await outputsDigest();
    expect(await home()).toContain('Staging One');
    await rename('Staging Two');
    const child = spawn(process.execPath, [path.join(REPO, 'bin/site'), 'build', '--root', project.root, '--out', out, '--now', now.toISOString()], { cwd: REPO, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Killed once the staging tree holds a page of the new name, without its completion manifest.
    const stagingSite = async () => {
      for (const tree of ['a', 'b']) {
        const site = path.join(outputLayout(out).buildsDir, tree, 'site');
        const page = await readFile(path.join(site, 'blog/staging-note-0.html'), 'utf8').catch(() => '');
        if (page.includes('Staging Two')) return site;
      }
      return undefined;
    };
    let site: string | undefined;
    while (!(site = await stagingSite())) {
      if (child.exitCode !== null) throw new Error(`the build ended (exit ${child.exitCode}) before it could be stopped`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe(null);
    expect(existsSync(path.join(site, SEAL_FILE))).toBe(false);
    expect(await outputsDigest()).toEqual(before);
    expect(await home()).toContain('Staging One');

    // The next build completes, and only then does dist/ change.
    await build();
    expect(await home()).toContain('Staging Two');
    expect((await outputsDigest()).digest).not.toBe(before.digest);
  }, 300_000);

  it('when its pages are over budget: the pages stay in the staging tree to inspect, and the error says where', async () => {
    const before = await outputsDigest();
    await rename('Staging Three');
    const budgets = await loadBudgets(REPO);
    const error = await build({ budgets: { ...budgets!, page: { ...budgets!.page, htmlKb: 1 } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetError);
    const last = (error as BudgetError).lines.at(-1)!;
    const match = /^(.+)\/ is unchanged \(the last build that passed\); this build's pages are in (.+)\/ to inspect$/.exec(last);
    expect(match, last).not.toBeNull();
    expect(path.resolve(match![1]!)).toBe(out);
    expect(await readFile(path.resolve(match![2]!, 'index.html'), 'utf8')).toContain('Staging Three');
    expect(existsSync(path.resolve(match![2]!, SEAL_FILE))).toBe(false);
    expect(await outputsDigest()).toEqual(before);
  }, 300_000);

  it('when a content error is found late (an image that cannot be decoded, after the pages are written)', async () => {
    const before = await outputsDigest();
    await rename('Staging Four');
    // Its header reads as a PNG (loading passes), its pixels are cut short (encoding fails).
    const png = path.join(project.root, 'content/images/og-default.png');
    const whole = await readFile(png);
    await truncate(png, 200);
    try {
      const error = await build().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ContentErrors);
      expect((error as ContentErrors).errors.map((e) => e.file)).toEqual(['content/images/og-default.png']);
      expect(await outputsDigest()).toEqual(before);
    } finally {
      await writeFile(png, whole);
    }
  }, 300_000);
});

describe('two builds of one folder', () => {
  it('do not write the staging tree at once: the second stops, naming the first, and leaves dist/ alone', async () => {
    const before = await outputsDigest();
    const lock = path.join(outputLayout(out).buildsDir, 'lock');
    // This process's parent stands for a build that is still running.
    await writeFile(lock, String(process.ppid));
    try {
      const error = await build().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutputFolderError);
      expect(describeBuildError(error)).toEqual([`build stopped: another build (process ${process.ppid}) is writing ${path.relative(process.cwd(), out)}/: run this one when it has finished`]);
      expect(await outputsDigest()).toEqual(before);
    } finally {
      await rm(lock, { force: true });
    }
    // A lock whose process has gone (a build that was killed) is taken over.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.on('exit', resolve));
    await writeFile(lock, String(gone.pid));
    await expect(build()).resolves.toMatchObject({ summary: expect.anything() });
    expect(existsSync(lock)).toBe(false);
  }, 300_000);
});

describe('the first build into a folder', () => {
  it('replaces the dist/ folder of an older version by the link, and refuses a folder no build made, or the project itself', async () => {
    const older = path.join(project.root, 'older', 'dist');
    await mkdir(path.join(older, 'blog'), { recursive: true });
    await writeFile(path.join(older, 'index.html'), '<title>an older build</title>');
    await writeFile(path.join(older, 'blog/gone.html'), 'a page no build makes now');
    await build({ outDir: older });
    expect((await lstat(older)).isSymbolicLink()).toBe(true);
    expect(await readFile(path.join(older, 'index.html'), 'utf8')).toContain('Staging');
    expect(existsSync(path.join(older, 'blog/gone.html'))).toBe(false);
    expect(await readdir(path.dirname(older))).toEqual(['.site', 'dist']);
    expect(await readdir(path.join(path.dirname(older), '.site'))).toEqual(['builds', 'deploy']);

    const notes = path.join(project.root, 'notes');
    await mkdir(notes);
    await writeFile(path.join(notes, 'todo.txt'), 'mine');
    const refused = await build({ outDir: notes }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OutputFolderError);
    expect((refused as Error).message).toBe(`${path.relative(process.cwd(), notes)}/ is a folder no build made (it has no index.html), and a build replaces what it holds: move it away, or build into another folder`);
    expect(await readFile(path.join(notes, 'todo.txt'), 'utf8')).toBe('mine');
    await expect(build({ outDir: project.root })).rejects.toThrow(/holds the project itself: build into a folder of its own, such as dist$/);
    expect(existsSync(path.join(project.root, 'content/site.yaml'))).toBe(true);
  }, 300_000);
});

describe('the swap', () => {
  it('reuses what is unchanged: the two trees share each unchanged file, which the build neither reads nor writes', async () => {
    await build();
    await project.edit('blog/staging-note-3.md', (s) => `${s}\nOne more line.\n`);
    const about = await stat(path.join(out, 'about.html'));
    const note = await stat(path.join(out, 'blog/staging-note-3.html'));
    const result = await build();
    expect(result.redone).toMatchObject({ rendered: 1, documents: 1 });
    const { buildsDir } = outputLayout(out);
    const [a, b] = await Promise.all(['a', 'b'].map((t) => stat(path.join(buildsDir, t, 'site/about.html'))));
    expect(a!.ino).toBe(b!.ino);
    expect((await stat(path.join(out, 'about.html'))).mtimeMs).toBe(about.mtimeMs);
    expect((await stat(path.join(out, 'blog/staging-note-3.html'))).ino).not.toBe(note.ino);
  }, 300_000);

  it('seals what it swaps in: deploy takes the build as it is, and refuses it once a file is cut short, until it is built again', async () => {
    await build();
    const run = () => deploy({ dir: out, bucket: 'site', s3: s3.client, dryRun: true });
    const plan = (await run()).plan;
    const seal = JSON.parse(await readFile(path.join(out, SEAL_FILE), 'utf8')) as { files: number };
    expect(plan.uploads.length).toBe(seal.files);
    expect(plan.uploads.map((u) => u.file.key)).not.toContain(SEAL_FILE);

    const page = path.join(out, 'blog/staging-note-5.html');
    await truncate(page, 100);
    await expect(run()).rejects.toThrow(DeployError);
    await expect(run()).rejects.toThrow(/^blog\/staging-note-5\.html in .* is 100 bytes, the build wrote [\d,]+ bytes: the folder has changed since build \S+ made it: run `site build` again$/);
    await build();
    expect((await run()).plan.uploads.length).toBe(seal.files);
  }, 300_000);
});
