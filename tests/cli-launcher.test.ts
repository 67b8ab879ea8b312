import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** bin/site on a scratch copy of the package, so that the test can edit src/ and delete build/cli. */
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'site-launcher-'));
  for (const part of ['bin', 'scripts', 'src', 'quality', 'lambda', 'package.json', 'tsconfig.json']) await cp(path.resolve(part), path.join(dir, part), { recursive: true });
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
    const first = await site('--help');
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('site: compiling the CLI from src/ into build/cli (build/cli is missing)\n');
    expect(first.stdout).toContain('Usage: site [options] [command]');
    const again = await site('--help');
    expect(again).toEqual({ code: 0, stdout: first.stdout, stderr: '' });
  }, 60_000);

  it('loads nothing but commander before a command runs', async () => {
    const entry = await readFile(path.join(dir, 'build', 'cli', 'cli.js'), 'utf8');
    const imports = [...entry.matchAll(/^import\b[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1]);
    expect(imports).toEqual(['commander']);
    expect(entry).toMatch(/import\(["']\.\/chunk-/);
  });

  it('never runs stale code: a changed source is compiled again before the command runs', async () => {
    const cli = path.join(dir, 'src', 'cli.ts');
    await writeFile(cli, (await readFile(cli, 'utf8')).replace("'Build, serve and check the static site'", "'Build, serve and check the static site, freshly edited'"));
    const edited = await site('--help');
    expect(edited.stderr).toBe('site: compiling the CLI from src/ into build/cli (src/cli.ts changed)\n');
    expect(edited.stdout).toContain('freshly edited');
  }, 60_000);

  it('says so, and exits 1, when src/ does not compile', async () => {
    const config = path.join(dir, 'src', 'config.ts');
    await writeFile(config, `${await readFile(config, 'utf8')}\nexport const broken = ;\n`);
    const result = await site('--help');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^site: compiling the CLI from src\/ into build\/cli \(src\/config\.ts changed\)\nsite: cannot compile src\/: .*\n.*src\/config\.ts:\d+:\d+/s);
  }, 60_000);
});
