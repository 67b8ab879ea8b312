import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeBeside } from '../temp-file.ts';

/** A cached variant no build has used for this long is deleted after a successful build. */
export const UNUSED_DAYS = 30;
/** The same, in milliseconds. */
export const UNUSED_MS = UNUSED_DAYS * 24 * 60 * 60 * 1000;
/** A temporary file older than this was left by a build that was stopped while encoding. */
const STRAY_TMP_MS = 60 * 60 * 1000;
/** In the cache folder: each variant's file name → when a build last used it (ms since 1970). */
export const LAST_USED_FILE = 'last-used.json';

export interface Pruned { files: number; bytes: number }

/**
 * Bounds `.site/cache/images/`, which otherwise only grows (every edit of a photo adds variants):
 * records that `used` (the variant files of a build that has just succeeded) were used now, and
 * deletes the variants that no build has used for UNUSED_DAYS (a variant no build ever recorded
 * counts from when it was made). The list of last uses is shared by every build of the project, so a preview's
 * drafts keep their images while `site serve` uses them.
 */
export async function pruneImageCache(dir: string, used: ReadonlySet<string>, now = Date.now()): Promise<Pruned> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let lastUsed: Record<string, number> = {};
  try { lastUsed = JSON.parse(await readFile(path.join(dir, LAST_USED_FILE), 'utf8')) as Record<string, number>; } catch { /* none yet, or damaged: counted from the files' times */ }
  const next: Record<string, number> = {};
  const pruned: Pruned = { files: 0, bytes: 0 };
  for (const name of names) {
    if (name === LAST_USED_FILE || name.startsWith(`${LAST_USED_FILE}.`)) continue;
    const file = path.join(dir, name);
    if (used.has(file)) { next[name] = now; continue; }
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    const tmp = name.endsWith('.tmp');
    const since = tmp ? info.mtimeMs : typeof lastUsed[name] === 'number' ? lastUsed[name] : info.mtimeMs;
    if (now - since > (tmp ? STRAY_TMP_MS : UNUSED_MS)) {
      await rm(file, { force: true });
      pruned.files++;
      pruned.bytes += info.size;
    } else if (!tmp) {
      next[name] = since;
    }
  }
  // Under a temporary name, then renamed: a reader never sees half a file.
  await writeBeside(path.join(dir, LAST_USED_FILE), JSON.stringify(next));
  return pruned;
}
