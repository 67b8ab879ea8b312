// A quick rebuild's first steps (see quick-build.ts), in a module of few imports so that `site build`
// takes them before it loads the rest: the last build's records read, and the content's changes
// asked for in a thread (content-changes.ts), which answers while the rebuild's modules load.
import { existsSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { CACHE_DIR, outputLayout, treeParts, TREES } from '../output/layout.ts';
import { SEAL_FILE } from '../output/seal.ts';
import { readRecord, SETTLED_MS, type RecordRead, type Signature } from './build-record.ts';
import { contentChanges, type ContentChanges } from './content-changes.ts';
import { dropSpareThread } from '../pool/spare-thread.ts';
import type { BuildOptions } from './run.ts';

/** More changed articles than this, and the full build (whose workers share the work) is the quicker. */
const MOST_ARTICLES = 20;

/** Why a quick rebuild gave way to the full build: for tests and the curious (SITE_QUICK_WHY=1). */
export class NotQuick extends Error {}
/** Gives way; the thread bin/site started for the content's changes goes too, if it was not asked yet. */
export const notQuick = (why: string): never => { dropSpareThread(); throw new NotQuick(why); };

/** What the first steps found: the folders, the output's two trees, the last build's record and the content stats taken since it, and the question asked. */
export interface QuickStart {
  root: string; contentDir: string; cacheDir: string;
  layout: ReturnType<typeof outputLayout>;
  liveTree: ReturnType<typeof treeParts>; nextTree: ReturnType<typeof treeParts>;
  last: RecordRead; since: Record<string, Signature | null>;
  /** Which content files changed (rejects with content-changes.ts's NotSmall when too much did). */
  asked: Promise<ContentChanges>;
}

/**
 * The first steps, or a rejection with NotQuick when the last build cannot be followed by a quick one.
 * Synchronous up to the thread's start: a caller that goes on to load modules (`site build`, see
 * cli.ts) would otherwise start it only once they had loaded.
 */
export async function startQuick(opts: BuildOptions): Promise<QuickStart> {
  if (opts.session || opts.preview || opts.extraHead !== undefined) notQuick('serve, preview or extra head');
  const root = path.resolve(opts.root);
  const contentDir = path.resolve(opts.contentDir ?? path.join(root, 'content'));
  const cacheDir = path.resolve(opts.cacheDir ?? path.join(root, CACHE_DIR));
  // The last build's record, and the tree it was built beside: still as that build left it (sealed) and the one it names.
  const layout = outputLayout(opts.outDir, opts.family);
  let current: string | undefined;
  try { current = readlinkSync(layout.current); } catch { current = undefined; }
  const live = TREES.find((t) => t === current) ?? notQuick('no complete build yet');
  const liveTree = treeParts(path.join(layout.buildsDir, live));
  const nextTree = treeParts(path.join(layout.buildsDir, TREES.find((t) => t !== live)!));
  const [last, before] = [readRecord(liveTree.record), readRecord(nextTree.record)];
  const since = last?.quickPatch ?? notQuick('the last build left no record for a quick one');
  if (!before || before.id !== last!.previous || !existsSync(path.join(nextTree.site, SEAL_FILE))) notQuick('the other tree is not the build before last');
  // Every content file's stat against the record's (the same files, and only articles changed).
  const asked = contentChanges(contentDir, liveTree.record, since, SETTLED_MS, MOST_ARTICLES);
  asked.catch(() => undefined); // awaited by the rebuild, unless it gives way first
  return { root, contentDir, cacheDir, layout, liveTree, nextTree, last: last!, since, asked };
}
