import { lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEPLOY_ENTRIES, TREES, outputLayout, treeParts, type OutputLayout } from './layout.ts';
import { adoptOutputFolders, adoptProjectFolders, type Warn } from './old-folders.ts';
import { SEAL_FILE } from './seal.ts';
import { tempFileFor } from '../temp-file.ts';

/** The tree a build writes into, and the one it may take unchanged files from (the last complete build). */
export interface Staging {
  layout: OutputLayout;
  /** The tree of the last complete build, the one dist/ shows now; none before the first. */
  live?: string;
  /** The other tree: the build before last, or what a failed build left, brought up to date by this one. */
  next: string;
}

/**
 * Picks the tree to build into: the one dist/ does not show. Its completion manifest goes first, so
 * that whatever happens after, nothing takes the tree for a complete build. The folders of an older
 * version are brought into the family first (see old-folders.ts). `family`: where the trees and the
 * deploy folder go, by default the `.site/` beside the output folder (see layout.ts).
 */
export async function openStaging(outDir: string, root: string, opts: { family?: string; warn?: Warn } = {}): Promise<Staging> {
  const layout = outputLayout(outDir, opts.family);
  const warn = opts.warn ?? ((line: string) => process.stderr.write(line + '\n'));
  await refuseForeignFolder(layout.outDir, root);
  await adoptProjectFolders(root, warn);
  const moved = await adoptOutputFolders(layout, warn);
  await mkdir(layout.buildsDir, { recursive: true });
  await lock(layout);
  const current = await readlink(layout.current).catch(() => undefined);
  const live = TREES.find((t) => t === current);
  // The trees of an older version, moved in: the output folder shows them again at once.
  if (moved && live && await readlink(layout.outDir).catch(() => undefined) !== undefined) await relink(layout.outDir, siteLink(layout));
  const next = path.join(layout.buildsDir, TREES.find((t) => t !== live)!);
  const parts = treeParts(next);
  await rm(path.join(parts.site, SEAL_FILE), { force: true });
  await mkdir(parts.site, { recursive: true });
  await mkdir(parts.deploy, { recursive: true });
  return { layout, live: live && path.join(layout.buildsDir, live), next };
}

/** What the output folder's link holds: the current tree's site/, relative to the folder it is in. */
const siteLink = (layout: OutputLayout) => path.relative(path.dirname(layout.outDir), path.join(layout.current, 'site'));

/**
 * The output folder cannot be used: another build is writing it (two at once would each seal what
 * the other half wrote), or it holds something no build made, which the build will not delete.
 */
export class OutputFolderError extends Error {
  override name = 'OutputFolderError';
}

const alive = (pid: number) => {
  try { process.kill(pid, 0); return true; } catch (error) { return (error as NodeJS.ErrnoException).code === 'EPERM'; }
};

/**
 * Claims the trees for this process: a lock file naming it. One left by a process that has gone (a
 * build killed or failed) or by this one (`site serve`'s builds follow each other) is taken over.
 */
async function lock(layout: OutputLayout): Promise<void> {
  const file = path.join(layout.buildsDir, 'lock');
  try {
    await writeFile(file, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(await readFile(file, 'utf8').catch(() => ''));
    if (holder && holder !== process.pid && alive(holder)) {
      throw new OutputFolderError(`another build (process ${holder}) is writing ${path.relative(process.cwd(), layout.outDir) || '.'}/: run this one when it has finished`);
    }
    await writeFile(file, String(process.pid));
  }
}

/**
 * The first build into a folder replaces it by a link (see ensureLink), deleting what it held: so the
 * folder must be one a build made (it has an index.html), or empty, and must not hold the project.
 */
async function refuseForeignFolder(outDir: string, root: string): Promise<void> {
  const shown = path.relative(process.cwd(), outDir) || '.';
  if (root === outDir || root.startsWith(outDir + path.sep)) throw new OutputFolderError(`${shown}/ holds the project itself: build into a folder of its own, such as dist`);
  const info = await lstat(outDir).catch(() => undefined);
  if (!info?.isDirectory()) return;
  const names = await readdir(outDir);
  if (names.length && !names.includes('index.html')) throw new OutputFolderError(`${shown}/ is a folder no build made (it has no index.html), and a build replaces what it holds: move it away, or build into another folder`);
}

/** `link` made to point at `target` in one step: a new link under a temporary name, renamed over the old. */
async function relink(link: string, target: string): Promise<void> {
  const tmp = tempFileFor(link);
  await symlink(target, tmp);
  await rename(tmp, link);
}

/**
 * A link that names the current tree, made once. A real folder in its place (the output of an older
 * version, or one made by hand) is moved aside and replaced: the only moment without it, and only once.
 */
async function ensureLink(link: string, target: string): Promise<void> {
  if (await readlink(link).catch(() => undefined) === target) return;
  await mkdir(path.dirname(link), { recursive: true });
  if ((await lstat(link).catch(() => undefined))?.isDirectory()) {
    const aside = `${link}.${process.pid}.old`;
    await rename(link, aside);
    await relink(link, target);
    await rm(aside, { recursive: true, force: true });
  } else {
    await relink(link, target);
  }
}

/**
 * Makes the staged tree the current one: one rename of the `current` link switches dist/ and the
 * files of deploy/ together. An interruption before it leaves the last build in place; after it, the
 * new one. The tree dist/ showed until now becomes the next build's staging tree.
 */
export async function swapIn(staging: Staging): Promise<void> {
  const { layout } = staging;
  await relink(layout.current, path.basename(staging.next));
  await ensureLink(layout.outDir, siteLink(layout));
  const deploy = treeParts(layout.current).deploy;
  for (const entry of DEPLOY_ENTRIES) await ensureLink(path.join(layout.deployDir, entry), path.relative(layout.deployDir, path.join(deploy, entry)));
}

/** Lets another build have the trees, whether this one swapped its tree in or failed. */
export async function closeStaging(staging: Staging): Promise<void> {
  await rm(path.join(staging.layout.buildsDir, 'lock'), { force: true });
}
