import { lstat, mkdir, readdir, readlink, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { CACHE_DIR, DEPLOY_ENTRIES, TREES, dataDirOf, familyBeside, familyOf, lambdaDirOf, treeParts, type OutputLayout } from './layout.ts';

/**
 * Versions before the `.site/` family (see layout.ts) wrote five folders of their own. The first
 * command that needs one brings it into the family, once:
 *
 *     .site/cache/               → .site/cache/   moved: the next build still finds what it cached
 *     .site-data/                → .site/data/    moved, never deleted: it holds local leads
 *     .dist.builds/ (.<out>.builds beside any output folder)
 *                                → .site/builds/  moved, each tree's build/ renamed deploy/, and dist re-pointed at once
 *     build/routing.json, headers.json, cloudfront/, cards.json (links into the trees), build/serve/
 *     (its trees), build/cdk.out/ (its manifest)
 *                                removed (made again by the next build, serve or synth)
 *     build/lambda/              → .site/deploy/lambda/ (moved)
 *     build/                     removed once empty; anything else in it is a file no tool made, left
 *                                where it is and named on standard error
 *
 * build/cli/ is the compiled CLI's, which scripts/build-cli.mjs removes when it compiles into .site/cli/.
 */

/** The names of the old folders, beside the project or an output folder. */
const OLD = { cache: '.site-cache', data: '.site-data', build: 'build' } as const;
const oldTreesOf = (outDir: string) => path.join(path.dirname(outDir), `.${path.basename(outDir)}.builds`);
/**
 * What the tools wrote in build/ besides the links (DEPLOY_ENTRIES), each with a file that tells it
 * from a folder of the user's of the same name: serve's output (its trees), cdk's output (its
 * manifest). The Lambda bundle (lambda/index.mjs) is moved, not removed; the CLI is build-cli.mjs's.
 */
const OLD_BUILD_ENTRIES = { serve: '.dist.builds', 'cdk.out': 'manifest.json' } as const;

export type Warn = (line: string) => void;

const exists = async (file: string) => (await lstat(file).catch(() => undefined)) !== undefined;
/** A folder, not a link to one: the tools never made build/ a link (a copy of the project that links to another's is not ours to change). */
const isFolder = async (file: string) => (await lstat(file).catch(() => undefined))?.isDirectory() === true;
const shown = (file: string) => path.relative(process.cwd(), file) || '.';

/** `from` renamed to `to` when `to` does not exist yet: true when it was (or `from` is not there at all). */
async function moveIn(from: string, to: string): Promise<boolean> {
  if (!await exists(from)) return true;
  if (await exists(to)) return false;
  await mkdir(path.dirname(to), { recursive: true });
  try {
    await rename(from, to);
    return true;
  } catch {
    // Moved meanwhile by another command (a build and serve started together), or not movable (another file system).
    return !await exists(from);
  }
}

/**
 * The project's own old folders: the cache, the local data and what build/ held besides an output
 * folder's links. Cheap when there are none (a few lstat calls), so every command that reads one
 * of them may call it first.
 */
export async function adoptProjectFolders(rootDir: string, warn: Warn): Promise<void> {
  const root = path.resolve(rootDir);
  const oldCache = path.join(root, OLD.cache);
  // A cache is only a cache: if both are there (an older version ran again), the old one goes.
  if (!await moveIn(oldCache, path.join(root, CACHE_DIR))) await rm(oldCache, { recursive: true, force: true });
  const oldData = path.join(root, OLD.data);
  if (!await moveIn(oldData, dataDirOf(root))) {
    warn(`warning: ${shown(oldData)}/ (the local leads of an older version) is left where it is, as ${shown(dataDirOf(root))}/ exists too: move the one to keep to ${shown(dataDirOf(root))}/`);
  }
  const build = path.join(root, OLD.build);
  if (!await isFolder(build)) return;
  let removed = false;
  const lambda = path.join(build, 'lambda');
  if (await exists(path.join(lambda, 'index.mjs'))) {
    // A newer bundle already in place makes this one a stale copy.
    if (!await moveIn(lambda, lambdaDirOf(root))) await rm(lambda, { recursive: true, force: true });
    removed = true;
  }
  for (const [name, mark] of Object.entries(OLD_BUILD_ENTRIES)) {
    const entry = path.join(build, name);
    if (!await exists(path.join(entry, mark))) continue;
    await rm(entry, { recursive: true, force: true });
    removed = true;
  }
  await tidyBuildFolder(build, removed, warn);
}

/**
 * An output folder's old trees moved into its family, and the old links beside it removed. The
 * trees keep every file (a rename), so the next build still takes the unchanged ones. True when
 * they were moved: the output folder's link is then to be re-pointed (see openStaging).
 */
export async function adoptOutputFolders(layout: OutputLayout, warn: Warn): Promise<boolean> {
  const { outDir } = layout;
  const oldTrees = oldTreesOf(outDir);
  let moved = false;
  if (await exists(oldTrees)) {
    await rm(path.join(oldTrees, 'lock'), { force: true });
    moved = layout.family === familyBeside(outDir) && await moveIn(oldTrees, layout.buildsDir);
    if (moved) {
      for (const tree of TREES) await moveIn(path.join(layout.buildsDir, tree, 'build'), treeParts(path.join(layout.buildsDir, tree)).deploy);
    } else {
      await rm(oldTrees, { recursive: true, force: true });
    }
  }
  const build = path.join(path.dirname(outDir), OLD.build);
  if (!await isFolder(build)) return moved;
  let removed = false;
  for (const name of DEPLOY_ENTRIES) {
    // The links into the old trees, and only those.
    const entry = path.join(build, name);
    if (!/\.builds\//.test(await readlink(entry).catch(() => ''))) continue;
    await rm(entry, { force: true });
    removed = true;
  }
  await tidyBuildFolder(build, removed, warn);
  return moved;
}

/** Whether an entry of build/ is one the tools made (which the command that handles it moves or removes). */
async function madeByTools(build: string, name: string): Promise<boolean> {
  const entry = path.join(build, name);
  if (name === 'cli') return true;
  if (name === 'lambda') return exists(path.join(entry, 'index.mjs'));
  if (name in OLD_BUILD_ENTRIES) return exists(path.join(entry, OLD_BUILD_ENTRIES[name as keyof typeof OLD_BUILD_ENTRIES]));
  return (DEPLOY_ENTRIES as readonly string[]).includes(name) && /\.builds\//.test(await readlink(entry).catch(() => ''));
}

/**
 * build/ removed once empty; when it is not, what is left is named, once (when something was taken
 * out of it). What the tools made is not named: the other step removes it (the links beside an output
 * folder, the rest beside the project), and scripts/build-cli.mjs the CLI when it next compiles.
 */
async function tidyBuildFolder(build: string, removed: boolean, warn: Warn): Promise<void> {
  const left = await readdir(build).catch(() => undefined);
  if (!left) return;
  if (left.length === 0) { await rmdir(build).catch(() => {}); return; }
  const theirs: string[] = [];
  for (const name of left) if (!await madeByTools(build, name)) theirs.push(name);
  if (removed && theirs.length) {
    warn(`note: ${shown(build)}/ was where older versions wrote their output (now in ${shown(familyOf(path.dirname(build)))}/); it still holds ${theirs.join(', ')}, which no tool made, so it is left as it is`);
  }
}
