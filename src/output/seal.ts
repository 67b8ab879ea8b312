import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The completion manifest: written into the site folder last, once every stage of a build has passed,
 * so its presence says a complete build made the folder, and its list says what that build wrote.
 * A dotfile: `site deploy` never uploads dotfiles, `site serve` never serves them, `check-links` skips them.
 */
export const SEAL_FILE = '.site-build.json';

/** One file as the build wrote it: its path inside the folder ('blog/what-is-data.html'), size and SHA-256. */
export interface SealedFile { key: string; size: number; sha256: string }

export interface Seal {
  generator: 'site build';
  /** The build's name: when it finished, and a few random characters. */
  build: string;
  builtAt: string;
  /** The clock the build published articles at (`--now`), when it was not the real time. */
  clock?: string;
  /** Built by `site serve` (drafts shown, the live-reload script in every page): never to be deployed. */
  preview: boolean;
  files: number;
  bytes: number;
  /** SHA-256 of the list below, one `key size sha256` line each: a damaged manifest shows. */
  digest: string;
  /** Every file, in key order. */
  list: Array<[key: string, size: number, sha256: string]>;
}

/** The digest of the list's lines, hashed a line at a time (one string of them all was half the cost at 15,000 files). */
const digestOf = (list: Seal['list']) => {
  const hash = createHash('sha256');
  for (const [k, size, sha] of list) hash.update(`${k} ${size} ${sha}\n`);
  return hash.digest('hex');
};

export async function writeSeal(dir: string, files: readonly SealedFile[], about: { preview: boolean; clock?: Date }): Promise<Seal> {
  // Arrays, not an object keyed by path: for a large site, a third of the time.
  const list: Seal['list'] = files.map((f) => [f.key, f.size, f.sha256] as [string, number, string]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return sealWith(dir, list, about);
}

/**
 * The manifest of `from` (the live tree's site folder) with `changed` files in place, written into
 * `dir`: a quick rebuild's, which changed a few files of the last build's tree. Undefined (nothing
 * written) if that manifest is missing or damaged, or a file is not in it: the caller writes it whole.
 */
export async function resealed(from: string, dir: string, changed: readonly SealedFile[], about: { preview: boolean; clock?: Date }): Promise<Seal | undefined> {
  let last: Seal;
  try { last = JSON.parse(await readFile(path.join(from, SEAL_FILE), 'utf8')) as Seal; } catch { return undefined; }
  if (!Array.isArray(last.list) || last.list.length !== last.files) return undefined;
  const at = new Map(last.list.map(([key], i) => [key, i]));
  for (const f of changed) {
    const i = at.get(f.key);
    if (i === undefined) return undefined;
    last.list[i] = [f.key, f.size, f.sha256];
  }
  return sealWith(dir, last.list, about);
}

async function sealWith(dir: string, list: Seal['list'], about: { preview: boolean; clock?: Date }): Promise<Seal> {
  const builtAt = new Date();
  const seal: Seal = {
    generator: 'site build',
    build: `${builtAt.toISOString()}-${Math.random().toString(16).slice(2, 8)}`,
    builtAt: builtAt.toISOString(),
    ...(about.clock ? { clock: about.clock.toISOString() } : {}),
    preview: about.preview,
    files: list.length,
    bytes: list.reduce((n, [, size]) => n + size, 0),
    digest: digestOf(list),
    list,
  };
  await writeFile(path.join(dir, SEAL_FILE), JSON.stringify(seal));
  return seal;
}

const bytes = (n: number) => `${n.toLocaleString('en-GB')} byte${n === 1 ? '' : 's'}`;

/**
 * Why `dir` is not a complete build's output as that build left it, in one line; undefined if it is.
 * `files` is what the folder holds now (dotfiles aside), with each file's size and SHA-256.
 */
export async function sealProblem(dir: string, files: readonly SealedFile[]): Promise<string | undefined> {
  const text = await readFile(path.join(dir, SEAL_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) {
    return `${dir} has no ${SEAL_FILE}, so no complete \`site build\` made it (a build that fails or is stopped leaves none): run \`site build\` and deploy its output`;
  }
  let seal: Seal;
  try {
    seal = JSON.parse(text) as Seal;
    if (seal.generator !== 'site build' || !Array.isArray(seal.list) || digestOf(seal.list) !== seal.digest || seal.list.length !== seal.files) throw new Error();
  } catch {
    return `${path.join(dir, SEAL_FILE)} is damaged: run \`site build\` again`;
  }
  const since = `since build ${seal.build} made it: run \`site build\` again`;
  const here = new Map(files.map((f) => [f.key, f]));
  // Dotfiles are never deployed, so `files` has none: neither has the comparison.
  const built = seal.list.filter(([key]) => !key.split('/').some((part) => part.startsWith('.')));
  for (const [key, size, sha] of built) {
    const file = here.get(key);
    if (!file) return `${key} is missing from ${dir} (${files.length} of the ${built.length} files the build wrote are there): the folder has changed ${since}`;
    if (file.size !== size) return `${key} in ${dir} is ${bytes(file.size)}, the build wrote ${bytes(size)}: the folder has changed ${since}`;
    if (file.sha256 !== sha) return `${key} in ${dir} is not what the build wrote: the folder has changed ${since}`;
  }
  const listed = new Set(built.map(([key]) => key));
  const added = files.find((f) => !listed.has(f.key));
  if (added) return `${added.key} in ${dir} was not written by the build: the folder has changed ${since}`;
  return undefined;
}
