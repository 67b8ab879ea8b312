import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { version as esbuildVersion, type Metafile } from 'esbuild';
import { writeBeside } from '../temp-file.ts';

/**
 * What an esbuild run made, kept in the build cache's folder (.site/cache/) as bundle-<name>.json with every file it read and the
 * SHA-256 of each. While its settings are the same and every one of those files hashes the same, the
 * next build takes the result instead of running esbuild again: a rebuild of a large blog otherwise
 * waited on the islands' bundle, whose plugin calls queue behind the main thread's work (1.5 s of
 * wall time at 10,000 articles, against 0.1 s alone). Each file is also kept with its stat (inode,
 * size, modification and change time), as the content's sources are (cache/source-index.ts): a file
 * whose stat is the one it had when it was hashed is not read again (hashing the 370 files the two
 * bundles read cost every rebuild a tenth of a second).
 */
type Input = [file: string, sha256: string, ...signature: Signature | []];
interface Saved { format: typeof FORMAT; settings: string; inputs: Input[]; result: unknown }
const FORMAT = 2;

/** A file as a stat sees it; any write changes its change time. */
type Signature = [ino: number, size: number, mtimeMs: number, ctimeMs: number];
/** A file modified this recently before it was hashed is hashed again next time: a write in the same tick of the file system's clock would not change its stat. */
const SETTLED_MS = 2_000;

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * The files a run read (its metafiles' inputs; a plugin's virtual modules, `namespace:path`, are the
 * caller's to name in its settings), and the listing of each of their folders outside node_modules/:
 * a file added beside one could change what an import resolves to.
 */
function inputsOf(root: string, metafiles: Metafile[]): string[] {
  const files = new Set<string>();
  for (const meta of metafiles) for (const file of Object.keys(meta.inputs)) if (!/^[\w-]+:/.test(file)) files.add(file);
  return [...files].sort();
}

/**
 * The listings of the input files' folders, but for node_modules/ and the cache's own folder: a module
 * the build writes there (the page templates' registry) is an input, hashed as any other, while the
 * folder's listing changes with every cache a build keeps, which had made each second build bundle
 * its code again.
 */
function folderListings(root: string, cacheDir: string, files: string[]): string {
  const cache = path.resolve(root, cacheDir);
  const folders = [...new Set(files.filter((f) => !f.includes('node_modules/')).map((f) => path.dirname(f)))]
    .filter((dir) => { const at = path.resolve(root, dir); return at !== cache && !at.startsWith(cache + path.sep); }).sort();
  return JSON.stringify(folders.map((dir) => [dir, safeList(path.resolve(root, dir))]));
}

/**
 * `settings` with the project's own folder named `<root>`: the options esbuild is given name files by
 * their absolute paths, and a project copied or moved elsewhere (a CI job's cache restored into
 * another checkout, a test's scratch copy) has the same bundles while its files are the same.
 */
function rootless(settings: string, root: string): string {
  const at = JSON.stringify(path.resolve(root)).slice(1, -1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The folder itself or a path inside it, not a sibling whose name it begins.
  return settings.replace(new RegExp(`${at}(?=[\\\\/"]|$)`, 'g'), '<root>');
}

function safeList(dir: string): string[] {
  try { return readdirSync(dir).sort(); } catch { return []; }
}

function hashOfFile(root: string, file: string): string | undefined {
  try { return sha256(readFileSync(path.resolve(root, file))); } catch { return undefined; }
}

const signatureOf = (root: string, file: string): Signature | undefined => {
  const s = statSync(path.resolve(root, file), { throwIfNoEntry: false });
  return s && [s.ino, s.size, s.mtimeMs, s.ctimeMs];
};

/** `file` with its SHA-256, and its stat if it had settled when it was hashed (stat taken before the read, as git does). */
function inputOf(root: string, file: string, hashedAt = Date.now()): Input | undefined {
  const signature = signatureOf(root, file);
  const hash = signature && hashOfFile(root, file);
  if (!hash) return undefined;
  return signature[2] <= hashedAt - SETTLED_MS ? [file, hash, ...signature] : [file, hash];
}

/** The saved file unchanged: the same stat (not read then), else the same SHA-256 of its bytes. */
function unchanged(root: string, [file, hash, ...saved]: Input): 'stat' | 'hash' | false {
  if (saved.length === 4) {
    const now = signatureOf(root, file);
    if (now && now.every((v, i) => v === saved[i])) return 'stat';
  }
  return hashOfFile(root, file) === hash ? 'hash' : false;
}

/**
 * `run`'s result, or the one saved from an earlier run with the same `settings` whose inputs are all
 * unchanged. `settings` names everything else the result depends on (the caller's options and code);
 * esbuild's version, tsconfig.json and the input folders' listings are added here. `encode` and
 * `decode` make the result plain JSON and back (undefined when what was saved is not one). A cache
 * that cannot be read or written costs a run of esbuild, never a wrong bundle.
 */
export async function cachedBundle<T>(root: string, cacheDir: string, name: string, settings: string, run: () => Promise<{ result: T; metafiles: Metafile[] }>,
  encode: (result: T) => unknown, decode: (saved: unknown) => T | undefined): Promise<T> {
  const file = path.join(cacheDir, `bundle-${name}.json`);
  const tsconfig = await readFile(path.join(root, 'tsconfig.json'), 'utf8').catch(() => '');
  const base = JSON.stringify([esbuildVersion, tsconfig, rootless(settings, root)]);
  const saved = await readFile(file, 'utf8').then((text) => JSON.parse(text) as Saved, () => undefined).catch(() => undefined);
  if (saved?.format === FORMAT && Array.isArray(saved.inputs)) {
    const files = saved.inputs.map(([f]) => f);
    if (saved.settings === sha256(base + folderListings(root, cacheDir, files))) {
      const seen: Array<'stat' | 'hash' | false> = [];
      for (const input of saved.inputs) if (!seen[seen.push(unchanged(root, input)) - 1]) break;
      const result = seen.every(Boolean) ? decode(saved.result) : undefined;
      if (result !== undefined) {
        // Files hashed again (their stat had changed, or had not settled): kept with their stat now, for the next build.
        if (seen.includes('hash')) await save(file, { ...saved, inputs: saved.inputs.map((input, i) => (seen[i] === 'hash' ? inputOf(root, input[0]) ?? input : input)) });
        return result;
      }
    }
  }
  const { result, metafiles } = await run();
  // Files only: esbuild also lists what a define or a plugin made up (`<define:…>`), which no file holds.
  const inputs = inputsOf(root, metafiles).flatMap((f) => { const input = inputOf(root, f); return input ? [input] : []; });
  await save(file, { format: FORMAT, settings: sha256(base + folderListings(root, cacheDir, inputs.map(([f]) => f))), inputs, result: encode(result) });
  return result;
}

async function save(file: string, entry: Saved): Promise<void> {
  // A record that cannot be kept costs the next build a bundle, never this one.
  await mkdir(path.dirname(file), { recursive: true })
    .then(() => writeBeside(file, JSON.stringify(entry)))
    .catch(() => undefined);
}
