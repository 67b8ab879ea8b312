// The quick rebuild (src/pipeline/quick-build.ts): after a body edit it makes one page, and whatever it
// or the full build it gives way to makes, the output is byte for byte a cold build's of the same content.
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildOptions } from '../../src/pipeline/build.ts';
import { quickBuild } from '../../src/pipeline/quick-build.ts';
import { buildCommand } from '../../src/pipeline/build-command.ts';
import { editFile, filesOf, scratchProject } from '../scratch-project.ts';
import { outputLayout } from '../../src/output/layout.ts';

let dir: string;
const NOW = new Date('2026-06-15T12:00:00Z');
const options = (out: string): BuildOptions => ({ root: dir, outDir: path.join(dir, out, 'dist'), now: NOW, overrides: { search: false }, warn: () => undefined });
const article = (slug: string) => path.join('content/blog', `${slug}.md`);

/**
 * Every content file an hour old, as a project's files are between one build and the next (a file
 * modified within two seconds of a build is read again). Once: it moves every file's change time.
 */
async function settle(): Promise<void> {
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const e of await readdir(path.join(dir, 'content'), { recursive: true, withFileTypes: true })) {
    if (e.isFile()) await utimes(path.join(e.parentPath, e.name), hourAgo, hourAgo);
  }
}

/**
 * The build `site build` runs: the quick one if it can, else the full one; says which, and of a quick one
 * whether it checked an article's front matter again (its bytes not the last full build's).
 */
async function build(): Promise<string> {
  const reasons: string[] = [];
  const quick = await quickBuild(options('out'), (why) => reasons.push(why));
  if (quick) return quick.checked ? 'quick, front matter checked' : 'quick';
  await buildSite(options('out'));
  return `full: ${reasons.join('; ')}`;
}

/** The deploy files of the tree an output folder shows (the family's deploy/ holds links to them). */
const deployOf = (out: string) => path.join(outputLayout(path.join(dir, out, 'dist')).current, 'deploy');

/** The output (dist/ and the deploy files) of the builds so far, against a cold build of the same content into a folder of its own. */
async function expectSameAsCold(): Promise<void> {
  const cold = `cold-${Math.random().toString(16).slice(2)}`;
  await buildSite(options(cold));
  expect(await filesOf(path.join(dir, 'out', 'dist'))).toEqual(await filesOf(path.join(dir, cold, 'dist')));
  const deploy = await filesOf(deployOf('out'));
  expect(deploy.has('routing.json')).toBe(true);
  expect(deploy).toEqual(await filesOf(deployOf(cold)));
  // The completion manifest lists the same files, sizes and digests (a quick rebuild patches the last one's).
  const seal = (out: string) => readFile(path.join(dir, out, 'dist', '.site-build.json'), 'utf8').then((t) => JSON.parse(t) as { list: unknown[]; digest: string; files: number });
  const [ours, theirs] = await Promise.all([seal('out'), seal(cold)]);
  expect({ list: ours.list, digest: ours.digest, files: ours.files }).toEqual({ list: theirs.list, digest: theirs.digest, files: theirs.files });
  await rm(path.join(dir, cold), { recursive: true, force: true });
}

beforeAll(async () => {
  dir = await scratchProject('site-quick-', { seeded: true });
  await settle();
  // A clean build, whose record a quick one needs, and the tree it leaves beside its own as the build before it.
  expect(await build()).toBe('full: no complete build yet');
}, 300_000);
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('a quick rebuild', () => {
  it('after a body edit makes that article page alone, and the output is a cold build’s', async () => {
    await editFile(dir, article('what-is-data'), (s) => `${s}\nA sentence added to the body for the quick rebuild.\n`);
    expect(await build()).toBe('quick');
    const page = await readFile(path.join(dir, 'out', 'dist', 'blog', 'what-is-data.html'), 'utf8');
    expect(page).toContain('A sentence added to the body for the quick rebuild.');
    await expectSameAsCold();
    // And again: the quick build's own record lets the next be quick too.
    await editFile(dir, article('what-is-data'), (s) => `${s}\nA second sentence.\n`);
    expect(await build()).toBe('quick');
    await expectSameAsCold();
  }, 300_000);

  it('is quick after a front matter edit that leaves its fields as they were (a comment), checking it again', async () => {
    await editFile(dir, article('what-is-data'), (s) => s.replace(/^title: /m, '# A note for the editor.\ntitle: '));
    expect(await build()).toBe('quick, front matter checked');
    await expectSameAsCold();
    // And a body edit after it: checked again, its front matter not being the last full build's.
    await editFile(dir, article('what-is-data'), (s) => `${s}\nA sentence after the comment.\n`);
    expect(await build()).toBe('quick, front matter checked');
    await expectSameAsCold();
  }, 300_000);

  it('gives way to the full build when an edited body has an error, which the full build reports', async () => {
    const broken = '\n![A photo](/images/no-such-photo.jpg)\n';
    await editFile(dir, article('what-is-data'), (s) => `${s}${broken}`);
    const reasons: string[] = [];
    expect(await quickBuild(options('out'), (why) => reasons.push(why))).toBeUndefined();
    expect(reasons).toEqual(['blog/what-is-data.md has an error']);
    await expect(buildSite(options('out'))).rejects.toThrow(/what-is-data\.md.*no-such-photo\.jpg, which is not in content\/images/);
    await editFile(dir, article('what-is-data'), (s) => s.replace(broken, ''));
    expect(await build()).toMatch(/^full/);
    await expectSameAsCold();
  }, 300_000);

  it('gives way to the full build after a title edit (lists, neighbours’ Continue Reading and the feed show it)', async () => {
    await editFile(dir, article('your-data-is-fine'), (s) => s.replace(/^title: .*$/m, 'title: "Your Data Is Fine, Mostly"'));
    expect(await build()).toMatch(/^full/);
    await expectSameAsCold();
    const page = await readFile(path.join(dir, 'out', 'dist', 'blog', 'your-data-is-fine.html'), 'utf8');
    expect(page).toContain('Your Data Is Fine, Mostly');
  }, 300_000);

  it('gives way to the full build after a template changes, and is quick again after it', async () => {
    await editFile(dir, 'templates/pages/NotFound.tsx', (s) => s.replace("doesn't exist", 'does not exist'));
    expect(await build()).toMatch(/^full/);
    await expectSameAsCold();
    await editFile(dir, article('what-is-data'), (s) => `${s}\nA third sentence.\n`);
    expect(await build()).toBe('quick');
    await expectSameAsCold();
  }, 300_000);

  it('gives way to the full build when an article is deleted and another added', async () => {
    await rm(path.join(dir, article('how-to-build-an-experimental-mindset')));
    const text = await readFile(path.join(dir, article('what-is-data')), 'utf8');
    await writeFile(path.join(dir, article('a-new-article')), text.replace(/^title: .*$/m, 'title: "A New Article"'));
    expect(await build()).toMatch(/^full/);
    await expectSameAsCold();
  }, 300_000);

  it('leaves dist/ at the last complete build when it fails midway, and the next build is whole', async () => {
    await build();
    const before = await filesOf(path.join(dir, 'out', 'dist'));
    // The staging tree's file list cannot be written: the quick build fails after writing the page.
    const layout = outputLayout(path.join(dir, 'out', 'dist'));
    const current = await import('node:fs/promises').then((fs) => fs.readlink(layout.current));
    const other = path.join(layout.buildsDir, current === 'a' ? 'b' : 'a', 'written-files.json');
    await rm(other, { force: true });
    await mkdir(other);
    await editFile(dir, article('what-is-data'), (s) => `${s}\nA sentence the failed build wrote.\n`);
    expect(await quickBuild(options('out'))).toBeUndefined();
    expect(await filesOf(path.join(dir, 'out', 'dist'))).toEqual(before);
    await rm(other, { recursive: true });
    expect(await build()).toMatch(/^full/);
    expect(await readFile(path.join(dir, 'out', 'dist', 'blog', 'what-is-data.html'), 'utf8')).toContain('A sentence the failed build wrote.');
    await expectSameAsCold();
  }, 300_000);

  it('is quick for the first body edit after a clean build (the cache emptied but for the share cards)', async () => {
    await settle();
    // Everything a build made removed but the cards, as `npm run bench -- --cards-cached` does: the next build is a clean one.
    await rm(path.join(dir, 'out'), { recursive: true, force: true }); // dist/ and the .site/ beside it: its trees and deploy files
    const cache = path.join(dir, '.site', 'cache');
    for (const name of await readdir(cache)) if (name !== 'cards') await rm(path.join(cache, name), { recursive: true, force: true });
    expect(await build()).toBe('full: no complete build yet');
    await editFile(dir, article('what-is-data'), (s) => `${s}\nA sentence for the first edit after a clean build.\n`);
    expect(await build()).toBe('quick');
    expect(await readFile(path.join(dir, 'out', 'dist', 'blog', 'what-is-data.html'), 'utf8')).toContain('A sentence for the first edit after a clean build.');
    await expectSameAsCold();
    // And the full build after it brings the tree it was built beside up to date, as after any.
    await editFile(dir, article('your-data-is-fine'), (s) => s.replace(/^title: .*$/m, 'title: "Your Data Is Fine, Most Days"'));
    expect(await build()).toMatch(/^full/);
    await expectSameAsCold();
    await editFile(dir, article('what-is-data'), (s) => `${s}\nAnd a second.\n`);
    expect(await build()).toBe('quick');
    await expectSameAsCold();
  }, 300_000);

  it('is what `site build` runs, saying so, unless --full', async () => {
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    const flags = { root: dir, out: path.join(dir, 'out', 'dist'), now: NOW, clockFrom: '--now' as const, jsonSummary: false, search: false };
    // Every file settled and recorded so (an article the tests above added within two seconds of a build is read again, and counted).
    await settle();
    await buildSite(options('out'));
    await editFile(dir, article('what-is-data'), (s) => `${s}\nA sentence for the command.\n`);
    expect(await buildCommand(flags, io)).toBe(0);
    expect(lines[0]).toMatch(/^built \d+ pages \(a quick rebuild: 1 article's body changed; 1 page made, the rest stand\)$/m);
    lines.length = 0;
    expect(await buildCommand({ ...flags, full: true }, io)).toBe(0);
    expect(lines.join('\n')).toMatch(/share cards: \d+/);
    await expectSameAsCold();
  }, 300_000);

  it('is what bin/site runs, the content compared in the thread bin/site starts before the CLI loads', async () => {
    const site = async (...args: string[]) => {
      const run = await promisify(execFile)(process.execPath, [path.resolve('bin/site'), 'build', '--root', dir, '--out', path.join(dir, 'out', 'dist'), '--now', NOW.toISOString(), '--no-search', ...args], { env: { ...process.env, SITE_QUICK_WHY: '1' } });
      // bin/site says so when it compiles the CLI first (src/ edited since); and why a build is not quick (SITE_QUICK_WHY).
      return { stdout: run.stdout, stderr: run.stderr.replace(/^site: compiling the CLI .*\n/m, '') };
    };
    // Its generator is the compiled CLI, not the tests' src/ (another hash): its first build is a full one.
    expect((await site()).stderr).toBe('  full build: the generator, the lockfile, budgets.json or the options changed\n');
    await editFile(dir, article('what-is-data'), (s) => `${s}\nA sentence for bin/site.\n`);
    expect(await site()).toEqual({ stdout: expect.stringMatching(/^built \d+ pages \(a quick rebuild: 1 article's body changed; 1 page made, the rest stand\)$/m), stderr: '' });
    await expectSameAsCold();
    // With --full the thread has nothing to do: it is let go, and the process ends with the build.
    expect((await site('--full')).stdout).toMatch(/share cards: \d+/);
  }, 300_000);
});
