import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliDirOf } from '../src/output/layout.ts';

// @ts-expect-error: a plain .mjs script with no type declarations
import { CLI_DIR, PACKAGE_DIR } from '../scripts/build-cli.mjs';

/** The compiled CLI's folder, relative to the package. */
const CLI = path.relative('/package', cliDirOf('/package'));

it("bin/site's copy of the compiled CLI's folder (it runs before anything is compiled) is the one src/output/layout.ts names", () => {
  expect(CLI_DIR).toBe(cliDirOf(PACKAGE_DIR as string));
});

/** bin/site on a scratch copy of the package, so that the test can edit src/ and delete the compiled CLI. */
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'site-launcher-'));
  for (const part of ['bin', 'scripts', 'src', 'forms', 'lambda', 'islands', 'package.json', 'tsconfig.json']) await cp(path.resolve(part), path.join(dir, part), { recursive: true });
  await symlink(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function site(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(dir, 'bin', 'site'), ...args], { cwd: dir });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('bin/site', () => {
  it('compiles the CLI when it is missing, then starts from the compiled JavaScript', async () => {
    // Where an older version compiled it, alone in build/: removed, and build/ with it.
    await mkdir(path.join(dir, 'build', 'cli'), { recursive: true });
    await writeFile(path.join(dir, 'build', 'cli', 'cli.js'), 'throw new Error("the old CLI ran");\n');
    const first = await site('--help');
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(`site: compiling the CLI from src/ into ${CLI} (${CLI} is missing)\n`);
    expect(existsSync(path.join(dir, 'build'))).toBe(false);
    expect(first.stdout).toContain('Usage: site [options] [command]');
    const again = await site('--help');
    expect(again).toEqual({ code: 0, stdout: first.stdout, stderr: '' });
  });

  it('loads commander and little else before a command runs', async () => {
    // The entry and the chunks it imports statically, which Node loads for `site --help`.
    const cli = path.join(dir, CLI);
    const loaded = new Map<string, string>();
    const visit = async (file: string) => {
      if (loaded.has(file)) return;
      const text = await readFile(path.join(cli, file), 'utf8');
      loaded.set(file, text);
      for (const [, chunk] of text.matchAll(/^import\b[^;]*?from\s*["']\.\/([^"']+)["']/gm)) await visit(chunk!);
    };
    await visit('cli.js');
    const code = [...loaded.values()].join('\n');
    expect(code).toMatch(/^\/\/ .*node_modules\/commander\//m);
    // esbuild names each module it inlines in a comment; the heavy ones wait behind import().
    expect(code).not.toMatch(/^\/\/ .*node_modules\/(zod|yaml|unified|gray-matter)/m);
    expect(code).not.toMatch(/from\s*["'](esbuild|react|react-dom\/server|@aws-sdk\/[\w-]+|chokidar|sirv)["']/);
    expect(loaded.get('cli.js')).toMatch(/import\(["']\.\/chunk-/);
  });

  it('loads no schema before `site build` knows whether a quick rebuild will do', async () => {
    // The chunk that holds the build command, and the chunks it imports statically: what `site build` loads before its quick path.
    const cli = path.join(dir, CLI);
    const chunks = (await readdir(cli)).filter((f) => f.endsWith('.js'));
    const texts = new Map(await Promise.all(chunks.map(async (f) => [f, await readFile(path.join(cli, f), 'utf8')] as const)));
    const entry = [...texts].find(([, text]) => /^\/\/ src\/pipeline\/build-command\.ts$/m.test(text))?.[0];
    expect(entry).toBeDefined();
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const [, chunk] of texts.get(file)!.matchAll(/^import\b[^;]*?from\s*["']\.\/([^"']+)["']/gm)) visit(chunk!);
    };
    visit(entry!);
    const code = [...loaded].map((f) => texts.get(f)!).join('\n');
    expect(code).toMatch(/^\/\/ src\/content\/settings-from-env\.ts$/m);
    expect(code).not.toMatch(/^\/\/ (?:node_modules\/zod\/|src\/content\/schemas\.ts$)/m);
  });

  it('never runs stale code: a changed source is compiled again before the command runs', async () => {
    const stampCode = async () => (JSON.parse(await readFile(path.join(dir, CLI, 'stamp.json'), 'utf8')) as { code: string }).code;
    const before = await stampCode();
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    const cli = path.join(dir, 'src', 'cli.ts');
    await writeFile(cli, (await readFile(cli, 'utf8')).replace("'Build, serve and check the static site'", "'Build, serve and check the static site, freshly edited'"));
    const edited = await site('--help');
    expect(edited.stderr).toBe(`site: compiling the CLI from src/ into ${CLI} (src/cli.ts changed)\n`);
    expect(edited.stdout).toContain('freshly edited');
    // The stamp names the code compiled: a build made by other code works out every route's key afresh (src/generator-code.ts).
    expect(await stampCode()).not.toBe(before);
  });

  it('says so, and exits 1, when src/ does not compile', async () => {
    const hash = path.join(dir, 'src', 'hash.ts');
    await writeFile(hash, `${await readFile(hash, 'utf8')}\nexport const broken = ;\n`);
    const result = await site('--help');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^site: compiling the CLI from src\/ into \.site\/cli \(src\/hash\.ts changed\)\nsite: cannot compile src\/: .*\n.*src\/hash\.ts:\d+:\d+/s);
  });
});

describe('bin/site on an old Node', () => {
  it('refuses Node 20 with one plain line and exit code 1, before loading anything', async () => {
    // The running Node told to call itself v20: what a machine with Node 20 would see.
    const pretend = `data:text/javascript,Object.defineProperty(process,'version',{value:'v20.19.2'})`;
    const run = await promisify(execFile)(process.execPath, ['--import', pretend, path.resolve('bin/site'), '--help'])
      .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (e: { code: number; stdout: string; stderr: string }) => e);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('site: needs Node.js 22 or newer; this is v20.19.2. Install a current LTS release (see README.md, Set-up).\n');
  });

  it('declares the same floor in package.json', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('>=22');
  });
});
