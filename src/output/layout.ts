import path from 'node:path';

/**
 * Where a build's outputs live. Two trees sit beside the output folder, and links name the one that
 * holds the last complete build:
 *
 *     dist                 → .dist.builds/current/site                  (made once)
 *     build/routing.json   → ../.dist.builds/current/build/routing.json (made once; headers.json, cloudfront/ alike)
 *     .dist.builds/current → a or b                                     (the one link a build flips)
 *     .dist.builds/a/      site/ (the public files), build/ (routing table, headers, CDN functions), written-files.json
 *
 * A build fills the other tree and, once every stage has passed, points `current` at it with one
 * rename: dist/ and the files of build/ a deploy reads change together, and at no moment is either
 * half old and half new.
 */
export interface OutputLayout {
  /** The folder people name (`--out`, `--dir`): a link to the current tree's site/. */
  outDir: string;
  /** build/ beside it, whose routing table, headers and CDN functions link into the current tree. */
  metaDir: string;
  /** `.dist.builds/`: the two trees and the `current` link. */
  treesDir: string;
  current: string;
}

/** The names in build/ that belong to one build, and so link into its tree (cards.json: each page's share card, for serve's preview). */
export const META_ENTRIES = ['routing.json', 'headers.json', 'cloudfront', 'cards.json'] as const;

export const TREES = ['a', 'b'] as const;

/** Files that are not public (the CDN functions, the routing table, the headers) go beside dist/, never in it. */
export function metaDirFor(outDir: string): string {
  return path.join(path.dirname(path.resolve(outDir)), 'build');
}

export function outputLayout(outDir: string): OutputLayout {
  const out = path.resolve(outDir);
  const treesDir = path.join(path.dirname(out), `.${path.basename(out)}.builds`);
  return { outDir: out, metaDir: metaDirFor(out), treesDir, current: path.join(treesDir, 'current') };
}

/**
 * The parts of one tree: its build/ sits beside its site/ as build/ sits beside dist/ (metaDirFor),
 * so every command can read a tree as it reads dist/ (the pages of a failed build, say).
 */
export function treeParts(tree: string) {
  const site = path.join(tree, 'site');
  // record: what the build that made the tree was made from, for a quick rebuild after it (pipeline/build-record.ts).
  return { site, meta: metaDirFor(site), fileList: path.join(tree, 'written-files.json'), record: path.join(tree, 'build-record.json') };
}

/** Where builds before the list's rename kept it (`records.json`): read once if the list is missing, then removed. */
export function formerFileList(fileList: string): string {
  return path.join(path.dirname(fileList), 'records.json');
}

/** Beside a tree's file list, the entries a quick rebuild changed since it was written whole (pipeline/dist-writer.ts). */
export function fileListPatch(fileList: string): string {
  return path.join(path.dirname(fileList), 'written-files.patch.json');
}
