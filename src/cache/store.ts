import path from 'node:path';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';

/** The git-ignored folder of everything a build may reuse: parsed markdown, rendered pages, bundled code. */
export const CACHE_DIR = '.site-cache';
/** Raised when the shape of a cache entry changes, so that entries of an older shape are never read. */
export const CACHE_FORMAT = 3;

export const hashOf = (...parts: Array<string | Uint8Array>) => {
  const h = createHash('sha256');
  for (const part of parts) h.update(part).update('\0');
  return h.digest('hex');
};

/**
 * One kind of cached result, one file per key under .site-cache/<kind>/. An entry that cannot be
 * read back exactly (not JSON, another key inside, the wrong shape) is deleted and counted, and the
 * caller computes the result afresh: a bad cache costs time, never a wrong page.
 */
export class CacheStore<T> {
  readonly dir: string;
  discarded = 0;

  /** `memory`, when given, keeps entries in memory too (serve's session): a rebuild then reads no cache file. */
  constructor(root: string, private readonly kind: string, private readonly valid: (value: unknown) => value is T, private readonly memory?: Map<string, unknown>) {
    this.dir = path.join(root, CACHE_DIR, kind);
  }

  private file(key: string) { return path.join(this.dir, key.slice(0, 2), `${key}.json`); }

  async get(key: string): Promise<T | undefined> {
    const remembered = this.memory?.get(`${this.kind}:${key}`);
    if (remembered !== undefined) return remembered as T;
    const file = this.file(key);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const entry = JSON.parse(text) as { format?: unknown; key?: unknown; value?: unknown };
      if (entry.format === CACHE_FORMAT && entry.key === key && this.valid(entry.value)) {
        this.memory?.set(`${this.kind}:${key}`, entry.value);
        return entry.value;
      }
    } catch { /* counted below */ }
    this.discarded++;
    await rm(file, { force: true });
    return undefined;
  }

  /** Written whole (a temporary file, then a rename), so that an interrupted build leaves no half entry. */
  async set(key: string, value: T): Promise<void> {
    this.memory?.set(`${this.kind}:${key}`, value);
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify({ format: CACHE_FORMAT, key, value }));
    await rename(tmp, file);
  }
}
