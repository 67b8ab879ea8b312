// Plain JavaScript, so that the benchmark (scripts/bench.mjs, run by node alone) and the gates share it.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * A process and every descendant running now, from /proc (each thread's `children`); a process
 * that ended meanwhile, or a system without /proc, leaves just what could be read.
 * @param {number} pid
 * @returns {number[]}
 */
export function processTree(pid) {
  const all = [pid];
  const read = (/** @type {() => string[] | string} */ fn, /** @type {string[] | string} */ fallback) => { try { return fn(); } catch { return fallback; } };
  for (let i = 0; i < all.length; i++) {
    for (const task of read(() => readdirSync(`/proc/${all[i]}/task`), [])) {
      for (const child of String(read(() => readFileSync(`/proc/${all[i]}/task/${task}/children`, 'utf8'), '')).split(' ').filter(Boolean)) all.push(Number(child));
    }
  }
  return all;
}
