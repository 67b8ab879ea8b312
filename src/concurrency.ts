/** How many file reads or writes are in flight at once: enough to keep the disk busy, few enough not to exhaust descriptors. */
export const IO_CONCURRENCY = 48;

/** `fn` over every item, at most `limit` at a time; results in the items' order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
