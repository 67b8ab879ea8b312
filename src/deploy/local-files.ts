// The built site as the deploy sees it: every file under dist/ with its bucket key, hashes and
// the headers it will be stored with.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { cacheControl } from '../url-resolution/cache-control.ts';
import { contentType } from './content-type.ts';

export interface LocalFile {
  /** Path relative to the site root with forward slashes, e.g. 'blog/what-is-data.html'. */
  key: string;
  absolutePath: string;
  size: number;
  /** Hex MD5: what S3 returns as the ETag of an object uploaded in one piece. */
  md5: string;
  /** Hex SHA-256, stored in the object's metadata for when the ETag is not an MD5. */
  sha256: string;
  contentType: string;
  cacheControl: string;
}

async function walk(dir: string, base: string, out: string[]): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // Dotfiles are not part of the site (`site serve` does not serve them either).
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await walk(full, base, out);
    else if (entry.isFile()) out.push(path.relative(base, full).split(path.sep).join('/'));
  }
}

export async function readLocalFiles(dir: string): Promise<LocalFile[]> {
  const root = path.resolve(dir);
  const keys: string[] = [];
  await walk(root, root, keys);
  keys.sort();
  const files: LocalFile[] = [];
  for (const key of keys) {
    const absolutePath = path.join(root, key);
    const data = await readFile(absolutePath);
    files.push({
      key,
      absolutePath,
      size: data.length,
      md5: createHash('md5').update(data).digest('hex'),
      sha256: createHash('sha256').update(data).digest('hex'),
      contentType: contentType(key, data),
      cacheControl: cacheControl(key),
    });
  }
  return files;
}
