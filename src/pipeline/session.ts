// What a long-running `site serve` keeps between its builds: its own module, so that the build's
// stages (run.ts, write-stage.ts, prune-stage.ts) take its type from here and not from build.ts,
// which imports them.
import type { BundleResult } from '../bundle/bundle.ts';
import type { CardProcess } from '../cards/card-process.ts';
import type { BuildCode } from '../pool/code.ts';
import type { BuiltSearch } from '../search/search-index.ts';

/**
 * Kept by `site serve` from one build to the next: the bundled code and assets, reused while no
 * file under templates/, islands/ or src/ has changed (serve sets `codeChanged` when one does).
 */
export interface BuildSession {
  codeChanged: boolean;
  code?: BuildCode;
  assets?: BundleResult;
  cdn?: { table: string; request: string; response: string };
  /** Cache entries kept in memory; entries of old keys go when it grows past a bound (see run.ts). */
  memory?: Map<string, unknown>;
  /** The process that draws the share cards (cards/card-process.ts), kept warm from one build to the next; serve closes it. */
  cards?: CardProcess;
  /** Set once a build serve made has pruned the image cache: a save need not walk it again. */
  pruned?: boolean;
  /**
   * The last build's search index, served by serve from the cache as soon as it is ready (undefined:
   * the site has no search): a save's reload does not wait for pagefind, which took most of it.
   */
  search?: Promise<BuiltSearch | undefined>;
}
