/** A process and every descendant running now, from /proc (see process-tree.mjs). */
export function processTree(pid: number): number[];
