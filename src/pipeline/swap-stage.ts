// The `swap` stage: the staging tree made the output in one step.
import { swapIn, type Staging } from '../output/swap.ts';
import { writeSeal } from '../output/seal.ts';
import type { DistWriter } from './dist-writer.ts';

/**
 * `swap`: the completion manifest, written last into the staging tree, then the swap that makes
 * it dist/ (and its routing table, headers and CDN functions those of .site/deploy/) in one step.
 */
export async function swapStage(staging: Staging, writer: DistWriter, about: { preview: boolean; clock?: Date }): Promise<void> {
  await writeSeal(writer.outDir, writer.files(), about);
  await swapIn(staging);
}
