import { IO_CONCURRENCY, mapLimit } from '../concurrency.ts';
import type { CacheStore } from './store.ts';

/**
 * `compute` for the items whose key the store does not hold, all in one batch (so that a worker
 * pool can share it out); the rest read from the store. Results in the items' order, how many
 * were computed, and each item's key. `store` puts the computed ones into the store; by default at once, but a caller may
 * put it off (see BuildCache: encoding them costs the main thread while the workers wait).
 */
export async function cachedMap<I, T>(store: CacheStore<T>, items: I[], keyOf: (item: I) => string, compute: (misses: I[]) => Promise<T[]>, later?: (put: () => Promise<void>) => void): Promise<{ results: T[]; computed: number; keys: string[] }> {
  const keys = items.map(keyOf);
  const results = await mapLimit(keys, IO_CONCURRENCY, (key) => store.get(key));
  const missing = results.flatMap((r, i) => (r === undefined ? [i] : []));
  if (missing.length) {
    const fresh = await compute(missing.map((i) => items[i]!));
    missing.forEach((index, k) => { results[index] = fresh[k]; });
    const put = async () => { await mapLimit(missing, IO_CONCURRENCY, (index) => store.set(keys[index]!, results[index]!)); };
    if (later) later(put); else await put();
  }
  return { results: results as T[], computed: missing.length, keys };
}
