/** The children a process has now, from /proc (see process-tree.mjs). */
export function childrenOf(pid: number): number[];
/** A process and every descendant running now, from /proc (see process-tree.mjs). */
export function processTree(pid: number): number[];
