import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Every folder the tools write, named here and nowhere else. All but the site to upload live in one
 * folder, `.site/`, beside the output folder (for the project, beside dist; for a test's
 * `--out tmp/x/dist`, in tmp/x/):
 *
 *     dist                     → .site/builds/dist/current/site  the site to upload (a link, made once)
 *     .site/builds/dist/a, b   the two output trees: site/ (the public files), deploy/ (below), written-files.json
 *     .site/builds/dist/current → a or b: the one link a build flips
 *     .site/deploy/            what a deploy reads beside the site: routing.json, headers.json, cloudfront/
 *                              (the CDN functions and the routing store's entries), cards.json, each a link
 *                              into builds/dist/current/deploy/; and lambda/, the form handler's bundle
 *     .site/cache/            the build cache (parsed markdown, pages' parts, images, cards, bundles)
 *     .site/data/             local data kept between runs: serve's leads store
 *     .site/cli/              the compiled CLI (scripts/build-cli.mjs keeps its own copy of the name)
 *     .site/serve/            serve's output, a family of its own: site → builds/site/current/site, builds/, deploy/
 *     .site/cdk.out/          what `cdk synth` writes (infra/cdk.json names it)
 *
 * The trees are kept per output folder (builds/<its name>/): two folders built side by side (a
 * test's `clean` and `rebuilt`, say) never take each other's files or flip each other's link.
 * A build fills the other tree and, once every stage has passed, points `current` at it with one
 * rename: dist/ and the files of deploy/ change together, and at no moment is either half old and
 * half new. The cache, data, cli and serve folders belong to the project (its root), the rest to an
 * output folder; for the project's dist/ both are the same `.site/`. Folders of older versions are
 * moved in by old-folders.ts.
 */
export const FAMILY = '.site';

/** The build cache, from the project folder: `path.join(root, CACHE_DIR, …)`. */
export const CACHE_DIR = path.join(FAMILY, 'cache');

/** The family folder of the project at `root`. */
export const familyOf = (root: string) => path.join(path.resolve(root), FAMILY);

/** The family folder an output folder's trees and deploy artifacts go in: the `.site` beside it. */
export const familyBeside = (outDir: string) => familyOf(path.dirname(path.resolve(outDir)));

/** Local data kept between runs (serve's leads store), from the project folder. */
export const DATA_DIR = path.join(FAMILY, 'data');
export const dataDirOf = (root: string) => path.join(path.resolve(root), DATA_DIR);

/** The compiled CLI, under the generator's own package folder. */
export const cliDirOf = (packageDir: string) => path.join(familyOf(packageDir), 'cli');

/** The Lambda bundle lambda/bundle-lambda.ts writes and infra/ reads: in the deploy folder beside dist/. */
export const lambdaDirOf = (root: string) => path.join(familyOf(root), 'deploy', 'lambda');
/** The content manager's sign-in handler's bundle: a folder of its own beside lambda/. */
export const CMS_AUTH_DIR = 'lambda-cms-auth';

/** `site serve`'s output family: its pages (which load the live-reload script) never reach dist/. */
export const serveFamilyOf = (root: string) => path.join(familyOf(root), 'serve');

/** The folder `site serve` serves: a link into its own family, as dist/ is into the project's. */
export const serveOutDirOf = (root: string) => path.join(serveFamilyOf(root), 'site');

export interface OutputLayout {
  /** The folder people name (`--out`, `--dir`): a link to the current tree's site/. */
  outDir: string;
  /** The family folder the trees and the deploy folder are in. */
  family: string;
  /** deploy/: the routing table, headers and CDN functions, each linking into the current tree. */
  deployDir: string;
  /** builds/<the output folder's name>/: the two trees and the `current` link. */
  buildsDir: string;
  current: string;
}

/** The names in deploy/ that belong to one build, and so link into its tree (cards.json: each page's share card, for serve's preview). */
export const DEPLOY_ENTRIES = ['routing.json', 'headers.json', 'cloudfront', 'cards.json'] as const;

export const TREES = ['a', 'b'] as const;

/** How messages name the deploy folder beside an output folder. */
export const DEPLOY_DIR = path.join(FAMILY, 'deploy');

/** The deploy folder that goes with an output folder: the routing table, headers and CDN functions are never in the site itself. */
export function deployDirFor(outDir: string, family = familyBeside(outDir)): string {
  return path.join(family, path.basename(DEPLOY_DIR));
}

/**
 * Where the deploy files of a folder of built pages are, for the commands that read them (check-links,
 * deploy, the quality gates): its own tree's deploy/ when the folder is a tree's site/ or a link to one
 * (dist, serve's site, the pages a failed build left), else the deploy folder of the family beside it.
 */
export function deployFilesOf(pagesDir: string): string {
  let real: string;
  try { real = realpathSync(pagesDir); } catch { real = path.resolve(pagesDir); }
  const tree = path.dirname(real);
  if (path.basename(real) === 'site' && existsSync(path.join(tree, 'deploy'))) return path.join(tree, 'deploy');
  return deployDirFor(pagesDir);
}

/** An output folder's layout; its family is the `.site` beside it unless given (serve's is its own, see serveFamilyOf). */
export function outputLayout(outDir: string, family = familyBeside(outDir)): OutputLayout {
  const buildsDir = path.join(family, 'builds', path.basename(path.resolve(outDir)));
  return { outDir: path.resolve(outDir), family, deployDir: deployDirFor(outDir, family), buildsDir, current: path.join(buildsDir, 'current') };
}

/** The parts of one tree: its deploy/ beside its site/, as the family's deploy/ links to them. */
export function treeParts(tree: string) {
  // record: what the build that made the tree was made from, for a quick rebuild after it (pipeline/build-record.ts).
  return { site: path.join(tree, 'site'), deploy: path.join(tree, 'deploy'), fileList: path.join(tree, 'written-files.json'), record: path.join(tree, 'build-record.json') };
}

/** Where builds before the list's rename kept it (`records.json`): read once if the list is missing, then removed. */
export function formerFileList(fileList: string): string {
  return path.join(path.dirname(fileList), 'records.json');
}

/** Beside a tree's file list, the entries a quick rebuild changed since it was written whole (pipeline/dist-writer.ts). */
export function fileListPatch(fileList: string): string {
  return path.join(path.dirname(fileList), 'written-files.patch.json');
}
