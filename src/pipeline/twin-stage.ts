// The `twin` stage, after a clean build (no tree before it): the other tree made this one's twin, so
// that the first body edit after it finds the build before last that a quick rebuild needs
// (quick-start.ts), rather than two full builds being needed before the first quick one.
import { copyFileSync, linkSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { SEAL_FILE } from '../output/seal.ts';
import { pathIn } from '../output/tree-file.ts';
import { writeBeside } from '../temp-file.ts';
import { treeParts } from '../output/layout.ts';
import type { BuildRecord } from './build-record.ts';

/**
 * `twin`: every file of `tree` (the site's `files`, by public path, its deploy files and its file list)
 * hard-linked into `twin`, which is emptied first, with a record of its own whose id is `id` (the id
 * `tree`'s record names as its previous, with nothing fresh and nothing gone). The twin's completion
 * manifest is linked last: a twin left half made is never taken for a complete build, and the next
 * build brings it up to date as it would any. A later build writes each file beside and renames it
 * over, or unlinks it first, never through it: the two trees share inodes as a build and the one
 * before it always have. Synchronous: a link is a few microseconds, and through promises the trips
 * through the thread pool cost more (see output/tree-file.ts).
 */
export async function twinStage(tree: string, twin: string, id: string, files: readonly string[]): Promise<void> {
  rmSync(twin, { recursive: true, force: true });
  const from = treeParts(tree);
  const to = treeParts(twin);
  const link = (source: string, target: string) => {
    try { linkSync(source, target); } catch { copyFileSync(source, target); }
  };
  const sources = files.map((file) => pathIn(from.site, file));
  const folders = new Set([to.site, ...sources.map((source) => to.site + path.dirname(source).slice(from.site.length))]);
  for (const folder of folders) mkdirSync(folder, { recursive: true });
  for (const source of sources) link(source, to.site + source.slice(from.site.length));
  for (const e of readdirSync(from.deploy, { recursive: true, withFileTypes: true })) {
    const target = path.join(to.deploy, path.relative(from.deploy, path.join(e.parentPath, e.name)));
    if (e.isDirectory()) mkdirSync(target, { recursive: true });
    else if (e.isFile()) { mkdirSync(path.dirname(target), { recursive: true }); link(path.join(e.parentPath, e.name), target); }
  }
  link(from.fileList, to.fileList);
  const record: Omit<BuildRecord, 'quick'> = { format: 1, id, previous: null, fresh: [], gone: [] };
  await writeBeside(to.record, JSON.stringify(record));
  link(path.join(from.site, SEAL_FILE), path.join(to.site, SEAL_FILE));
}
