import { rename, rm, writeFile } from 'node:fs/promises';
import { threadId } from 'node:worker_threads';

/**
 * The name a file is written under before it is renamed into place, so that no reader sees it half
 * written. Unique to the process, its thread and each write in it: two writes of one file at once
 * (two builds of `site serve` drawing the same card, say) must not share one, or the second rename
 * finds its temporary file already moved. Ends in `.tmp`, which the caches' pruning recognises.
 */
let writes = 0;
export const tempFileFor = (file: string): string => `${file}.${process.pid}-${threadId}-${(writes += 1)}.tmp`;

/**
 * `data` as `file`, written beside it under `tempFileFor`'s name and renamed over it: a reader never
 * sees half of it, and the file there is never written through (it may be another tree's too, by a
 * hard link). Should either step fail, the temporary file is removed and the error thrown.
 */
export async function writeBeside(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = tempFileFor(file);
  try {
    await writeFile(tmp, data);
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
