import { cp, mkdtemp, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SEAL_FILE } from '../src/output/seal.ts';

/** A scratch copy of the project (node_modules linked), so that a test can edit content and templates. */
export async function scratchProject(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  for (const part of ['content', 'templates', 'islands', 'src', 'lambda', 'forms']) await cp(path.resolve(part), path.join(dir, part), { recursive: true });
  await symlink(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
  await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
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
