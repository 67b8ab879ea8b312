import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeSeal, type SealedFile } from '../../src/output/seal.ts';

/** Writes the completion manifest a build would write for the files now in `dir` (a test's hand-made build); `preview`: one built with its drafts. */
export async function sealFolder(dir: string, about: { preview: boolean } = { preview: false }): Promise<void> {
  const files: SealedFile[] = [];
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || e.name.startsWith('.')) continue;
    const file = path.join(e.parentPath, e.name);
    const data = await readFile(file);
    files.push({ key: path.relative(dir, file).split(path.sep).join('/'), size: data.length, sha256: createHash('sha256').update(data).digest('hex') });
  }
  await writeSeal(dir, files, about);
}
