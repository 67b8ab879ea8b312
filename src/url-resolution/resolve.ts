/**
 * `resolve(path, table)`: the routing rule (rule.ts) over the build's routing table, held in
 * memory as the very entries the CloudFront KeyValueStore holds (store-data.ts). `site serve` and
 * `site check-links` call it; the CloudFront functions run the same rule over the store.
 */
import { answer, type Resolution } from './rule.ts';
import { rulesOf, storeEntries } from './store-data.ts';
import type { RoutingTable } from './routing-table.ts';

export { pageFile, type Resolution } from './rule.ts';

export type { RoutingTable } from './routing-table.ts';

/** Each table's entries, made once: serve and the link checker resolve many paths over one table. */
const held = new WeakMap<RoutingTable, Map<string, string>>();

function entriesOf(table: RoutingTable): Map<string, string> {
  let entries = held.get(table);
  if (!entries) {
    entries = new Map(storeEntries(table).map((e) => [e.key, e.value]));
    held.set(table, entries);
  }
  return entries;
}

/** `host`: the Host the request named, where the table tells the site's host from the content manager's (RoutingTable.hosts). */
export function resolve(path: string, table: RoutingTable, host?: string): Resolution {
  const entries = entriesOf(table);
  return answer(path, rulesOf(table), (key) => entries.get(key), host);
}
