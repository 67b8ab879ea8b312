import { threadId } from 'node:worker_threads';

/**
 * The name a file is written under before it is renamed into place, so that no reader sees it half
 * written. Unique to the process, its thread and each write in it: two writes of one file at once
 * (two builds of `site serve` drawing the same card, say) must not share one, or the second rename
 * finds its temporary file already moved. Ends in `.tmp`, which the caches' pruning recognises.
 */
let writes = 0;
export const tempFileFor = (file: string): string => `${file}.${process.pid}-${threadId}-${(writes += 1)}.tmp`;
