import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CACHE_DIR } from '../src/output/layout.ts';
import { SEAL_FILE } from '../src/output/seal.ts';
import { seedCache } from './support/seed-cache.ts';

/**
 * A scratch copy of the project (node_modules linked), so that a test can edit content and templates.
 * With `cmsBundle`, the content manager's bundle the project's cache holds comes too (its record and
 * its file), taken as long as every file it was made from is the same in the copy: the browser tests
 * of /admin make it once between them (e2e/global-setup.ts), not once each. With `seeded`, what the
 * unit tests' seed build lends (tests/support/seed-cache.ts).
 */
export async function scratchProject(prefix: string, opts: { cmsBundle?: boolean; seeded?: boolean } = {}): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  for (const part of ['content', 'templates', 'islands', 'src', 'lambda', 'forms']) await cp(path.resolve(part), path.join(dir, part), { recursive: true });
  await symlink(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
  await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
  if (opts.cmsBundle) {
    // The record names esbuild's tsconfig.json among what the bundle was made with.
    await cp(path.resolve('tsconfig.json'), path.join(dir, 'tsconfig.json'));
    for (const part of ['bundle-cms.json', 'cms']) {
      const from = path.resolve(CACHE_DIR, part);
      if (existsSync(from)) await cp(from, path.join(dir, CACHE_DIR, part), { recursive: true });
    }
  }
  if (opts.seeded) await seedCache(dir);
  return dir;
}

export async function editFile(dir: string, file: string, change: (s: string) => string) {
  const target = path.join(dir, file);
  await writeFile(target, change(await readFile(target, 'utf8')));
}

/** Every file under `dir`, by its path inside it, with its contents; the build's completion manifest (which names the build) aside. */
export async function filesOf(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile() && !(e.parentPath === dir && e.name === SEAL_FILE)) { const file = path.join(e.parentPath, e.name); out.set(path.relative(dir, file), (await readFile(file)).toString('base64')); }
  }
  return out;
}
