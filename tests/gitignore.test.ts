// .gitignore hides what the tools write (dist and .site/, see src/output/layout.ts) and nothing else:
// an unanchored `build/` once hid tests/build/, whose new files then never reached the repository.
// The paths are asked of a scratch repository holding only a copy of .gitignore: in a working copy
// where `site serve` has run, .site/serve/site is a symbolic link, and git refuses to answer for a
// path beyond one ('beyond a symbolic link'), whatever .gitignore says.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_DIR, DATA_DIR, DEPLOY_DIR, FAMILY, cliDirOf, lambdaDirOf, serveOutDirOf } from '../src/output/layout.ts';

const git = (args: string[], input?: string, cwd?: string) => execFileSync('git', args, { encoding: 'utf8', input, cwd });

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'gitignore-'));
  git(['init', '-q'], undefined, scratch);
  copyFileSync('.gitignore', path.join(scratch, '.gitignore'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The paths .gitignore hides, of those given (git check-ignore exits 1 when it hides none). */
function ignored(paths: string[]): string[] {
  try {
    return git(['check-ignore', '--no-index', '--stdin'], paths.join('\n') + '\n', scratch).split('\n').filter(Boolean);
  } catch (error) {
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
}

describe('.gitignore', () => {
  it('hides no file in any folder of the repository, nor in a new folder named as a generated one', () => {
    const folders = [...new Set(git(['ls-files']).split('\n').filter(Boolean).map((f) => path.posix.dirname(f)))];
    const generatedNames = ['dist', 'build', 'builds', 'deploy', 'cache', 'data', 'cli', 'serve', 'site', 'lambda', 'cdk.out'];
    const probes = [
      ...folders.map((f) => `${f === '.' ? '' : `${f}/`}probe.ts`),
      ...['src', 'tests', 'e2e', 'lambda', 'infra', 'content'].flatMap((top) => generatedNames.map((name) => `${top}/${name}/probe.ts`)),
    ];
    expect(ignored(probes)).toEqual([]);
  });

  it('hides dist and every folder of the .site/ family', () => {
    const rel = (p: string) => path.relative('/p', p);
    const generated = ['dist', `${FAMILY}/builds/a/site/index.html`, `${DEPLOY_DIR}/routing.json`, `${CACHE_DIR}/markdown.pack`, `${DATA_DIR}/leads/x`,
      `${rel(cliDirOf('/p'))}/cli.js`, `${rel(lambdaDirOf('/p'))}/index.mjs`, `${rel(serveOutDirOf('/p'))}/index.html`,
      // The family beside a test's output folder elsewhere in the tree.
      `tmp/x/${FAMILY}/deploy/routing.json`];
    expect(ignored(generated)).toEqual(generated);
  });
});
