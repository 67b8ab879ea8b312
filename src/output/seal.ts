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
  /** Built with the drafts and scheduled articles shown (`site build --drafts`, `site serve`): deployed only as a pull request's preview. */
  preview: boolean;
  files: number;
  bytes: number;
  /** SHA-256 of the list below, one `key size sha256` line each: a damaged manifest shows. */
  digest: string;
  /** Every file, in key order. */
  list: Array<[key: string, size: number, sha256: string]>;
}

/**
 * The digest: SHA-256 of the list as JSON.stringify writes it, which is the manifest's last member, so
 * that a quick rebuild splices a few entries into the bytes it read and hashes them without parsing
 * fifteen thousand entries (see `resealed`).
 */
const digestOf = (listJson: ReadonlyArray<string | Uint8Array>) => {
  const hash = createHash('sha256');
  for (const piece of listJson) hash.update(piece);
  return hash.digest('hex');
};

/** The digest earlier versions of `site` wrote: one `key size sha256` line each, hashed (still accepted). */
const lineDigestOf = (list: Seal['list']) => {
  const hash = createHash('sha256');
  for (const [k, size, sha] of list) hash.update(`${k} ${size} ${sha}\n`);
  return hash.digest('hex');
};

/** Where the list starts in a manifest's text: its header's members come first, none of them a list. */
const LIST_MEMBER = ',"list":';

export async function writeSeal(dir: string, files: readonly SealedFile[], about: { preview: boolean; clock?: Date }): Promise<void> {
  // Arrays, not an object keyed by path: for a large site, a third of the time.
  const list: Seal['list'] = files.map((f) => [f.key, f.size, f.sha256] as [string, number, string]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  await writeManifest(dir, list.length, list.reduce((n, [, size]) => n + size, 0), [JSON.stringify(list)], about);
}

/** A manifest as read for a quick rebuild: its header, and its list's bytes as JSON.stringify wrote them. */
export interface SealRead { head: Omit<Seal, 'list'>; list: Buffer }

/**
 * The manifest of `from` (the live tree's site folder), read and its digest checked, for `resealed`;
 * undefined if it is missing or damaged. Apart, so that a quick rebuild reads it while it waits.
 */
export async function readSeal(from: string): Promise<SealRead | undefined> {
  let text: Buffer;
  try { text = await readFile(path.join(from, SEAL_FILE)); } catch { return undefined; }
  const listAt = text.indexOf(LIST_MEMBER);
  if (listAt === -1 || text[text.length - 1] !== 0x7d) return undefined;
  const list = text.subarray(listAt + LIST_MEMBER.length, text.length - 1);
  let head: Omit<Seal, 'list'>;
  try { head = JSON.parse(`${text.toString('utf8', 0, listAt)}}`) as Omit<Seal, 'list'>; } catch { return undefined; }
  if (head.generator !== 'site build' || digestOf([list]) !== head.digest) return undefined;
  return { head, list };
}

/**
 * The manifest `last` (`readSeal`'s, of the live tree) with `changed` files in place, written into
 * `dir`: a quick rebuild's, which changed a few files of the last build's tree. The list's bytes are
 * spliced where each changed entry lies, not parsed. False (nothing written) if there is no manifest
 * to follow, or a file is not in it: the caller writes it whole.
 */
export async function resealed(last: SealRead | undefined, dir: string, changed: readonly SealedFile[], about: { preview: boolean; clock?: Date }): Promise<boolean> {
  if (!last) return false;
  const { head, list } = last;
  // Each changed entry, `["key",size,"sha256"]`, found by its key: no other entry starts so, and nothing after the key holds a ']'.
  const found: Array<{ at: number; end: number; entry: Seal['list'][number]; size: number }> = [];
  for (const f of changed) {
    const start = `[${JSON.stringify(f.key)},`;
    const at = list.indexOf(start);
    const end = at === -1 ? -1 : list.indexOf(0x5d, at + Buffer.byteLength(start)) + 1;
    if (end <= 0) return false;
    let was: Seal['list'][number];
    try { was = JSON.parse(list.toString('utf8', at, end)) as Seal['list'][number]; } catch { return false; }
    found.push({ at, end, entry: [f.key, f.size, f.sha256], size: was[1] });
  }
  found.sort((a, b) => a.at - b.at);
  const pieces: Uint8Array[] = [];
  let pos = 0;
  for (const { at, end, entry } of found) {
    pieces.push(list.subarray(pos, at), Buffer.from(JSON.stringify(entry)));
    pos = end;
  }
  pieces.push(list.subarray(pos));
  const bytes = found.reduce((n, f) => n + f.entry[1] - f.size, head.bytes);
  await writeManifest(dir, head.files, bytes, pieces, about);
  return true;
}

/**
 * Writes the manifest: its header, then the list (`listJson`: as JSON.stringify wrote it, in pieces)
 * last. The pieces are hashed and written one by one: joined, two and a half megabytes copied cost a
 * quick rebuild 15 ms.
 */
async function writeManifest(dir: string, files: number, bytes: number, listJson: ReadonlyArray<string | Uint8Array>, about: { preview: boolean; clock?: Date }): Promise<void> {
  const builtAt = new Date();
  const head: Omit<Seal, 'list'> = {
    generator: 'site build',
    build: `${builtAt.toISOString()}-${Math.random().toString(16).slice(2, 8)}`,
    builtAt: builtAt.toISOString(),
    ...(about.clock ? { clock: about.clock.toISOString() } : {}),
    preview: about.preview,
    files,
    bytes,
    digest: digestOf(listJson),
  };
  const headJson = JSON.stringify(head);
  await writeFile(path.join(dir, SEAL_FILE), [headJson.slice(0, -1) + LIST_MEMBER, ...listJson, '}'].map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
}

const bytes = (n: number) => `${n.toLocaleString('en-GB')} byte${n === 1 ? '' : 's'}`;

/** Whether the sealed build in `dir` shows drafts and scheduled articles (`site build --drafts`, `site serve`); false when it has no readable seal. */
export async function sealedWithDrafts(dir: string): Promise<boolean> {
  return (await readSeal(dir))?.head.preview === true;
}

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
    if (seal.generator !== 'site build' || !Array.isArray(seal.list) || seal.list.length !== seal.files) throw new Error();
    if (digestOf([JSON.stringify(seal.list)]) !== seal.digest && lineDigestOf(seal.list) !== seal.digest) throw new Error();
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
