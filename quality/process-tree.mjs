// Plain JavaScript, so that the benchmark (scripts/bench.mjs, run by node alone) and the gates share it.
import { readdirSync, readFileSync } from 'node:fs';

/** @param {() => string[] | string} fn @param {string[] | string} fallback */
const read = (fn, fallback) => { try { return fn(); } catch { return fallback; } };

/**
 * The children a process has now, from /proc (each of its threads' `children`); none if it has ended
 * or the system has no /proc.
 * @param {number} pid
 * @returns {number[]}
 */
export function childrenOf(pid) {
  const children = [];
  for (const task of read(() => readdirSync(`/proc/${pid}/task`), [])) {
    for (const child of String(read(() => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8'), '')).split(' ').filter(Boolean)) children.push(Number(child));
  }
  return children;
}

/**
 * A process and every descendant running now; a process that ended meanwhile leaves just what could be read.
 * @param {number} pid
 * @returns {number[]}
 */
export function processTree(pid) {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childrenOf(all[i]));
  return all;
}
