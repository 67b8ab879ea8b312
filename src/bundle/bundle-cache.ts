import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { version as esbuildVersion, type Metafile } from 'esbuild';

/**
 * What an esbuild run made, kept in the build cache's folder (.site/cache/) as bundle-<name>.json with every file it read and the
 * SHA-256 of each. While its settings are the same and every one of those files hashes the same, the
 * next build takes the result instead of running esbuild again: a rebuild of a large blog otherwise
 * waited on the islands' bundle, whose plugin calls queue behind the main thread's work (1.5 s of
 * wall time at 10,000 articles, against 0.1 s alone).
 */
interface Saved { format: typeof FORMAT; settings: string; inputs: Array<[file: string, sha256: string]>; result: unknown }
const FORMAT = 1;

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

function folderListings(root: string, files: string[]): string {
  const folders = [...new Set(files.filter((f) => !f.includes('node_modules/')).map((f) => path.dirname(f)))].sort();
  return JSON.stringify(folders.map((dir) => [dir, safeList(path.resolve(root, dir))]));
}

function safeList(dir: string): string[] {
  try { return readdirSync(dir).sort(); } catch { return []; }
}

function hashOfFile(root: string, file: string): string | undefined {
  try { return sha256(readFileSync(path.resolve(root, file))); } catch { return undefined; }
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
  const base = JSON.stringify([esbuildVersion, tsconfig, settings]);
  const saved = await readFile(file, 'utf8').then((text) => JSON.parse(text) as Saved, () => undefined).catch(() => undefined);
  if (saved?.format === FORMAT && Array.isArray(saved.inputs)) {
    const files = saved.inputs.map(([f]) => f);
    if (saved.settings === sha256(base + folderListings(root, files)) && saved.inputs.every(([f, hash]) => hashOfFile(root, f) === hash)) {
      const result = decode(saved.result);
      if (result !== undefined) return result;
    }
  }
  const { result, metafiles } = await run();
  // Files only: esbuild also lists what a define or a plugin made up (`<define:…>`), which no file holds.
  const inputs = inputsOf(root, metafiles).flatMap((f): Array<[string, string]> => { const hash = hashOfFile(root, f); return hash ? [[f, hash]] : []; });
  const entry: Saved = { format: FORMAT, settings: sha256(base + folderListings(root, inputs.map(([f]) => f))), inputs, result: encode(result) };
  const tmp = `${file}.${process.pid}.tmp`;
  await mkdir(path.dirname(file), { recursive: true })
    .then(() => writeFile(tmp, JSON.stringify(entry)))
    .then(() => rename(tmp, file))
    .catch(() => rm(tmp, { force: true }));
  return result;
}
