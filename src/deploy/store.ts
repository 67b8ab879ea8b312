// The CloudFront KeyValueStore side of a deploy, through @aws-sdk/client-cloudfront-keyvaluestore:
// what the store holds, and changes to it in batches within the service's per-call limits. Each
// batch carries the ETag the store had when it was last listed (If-Match), or that the deploy's own
// last batch left it with: a change planned from one listing never lands on a store that another
// writer has changed since. That writer's change answers ConflictException (HTTP 409, as the
// UpdateKeys API reference lists a stale If-Match:
// https://docs.aws.amazon.com/cloudfront/latest/APIReference/API_kvs_UpdateKeys.html), and the
// deploy lists the store again and plans again (deploy.ts), never sending the stale plan.
import '@aws-sdk/signature-v4a';
import {
  ConflictException,
  DescribeKeyValueStoreCommand,
  ListKeysCommand,
  UpdateKeysCommand,
  type CloudFrontKeyValueStoreClient,
} from '@aws-sdk/client-cloudfront-keyvaluestore';
import { JOURNAL_KEY, type Entry } from '../url-resolution/store-data.ts';

export { JOURNAL_KEY };

/** UpdateKeys takes at most 50 keys (puts and deletes together) and 3 MB in one call. */
export const UPDATE_LIMITS = { keys: 50, bytes: 3 * 1024 * 1024 } as const;
/** ListKeys returns at most 50 keys a page. */
const LIST_PAGE = 50;
/**
 * The paths a deploy is to invalidate are noted under JOURNAL_KEY until CloudFront has them (so
 * that a deploy that stopped part-way, run again, still invalidates them).
 */

/** The journal's value: the paths as JSON, or '/*' where they would not fit a value (1 KB). */
export function journalValue(paths: readonly string[]): string {
  const value = JSON.stringify(paths);
  return Buffer.byteLength(value) <= 1024 ? value : '["/*"]';
}

export function readJournal(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const paths = JSON.parse(value) as unknown;
    return Array.isArray(paths) && paths.every((p) => typeof p === 'string' && p.startsWith('/')) ? paths as string[] : ['/*'];
  } catch {
    // Unreadable: everything, to be sure.
    return ['/*'];
  }
}

/** What the deploy needs of the store. */
export interface RoutingStore {
  /** Every key the store holds, with its value; the store's ETag read before listing is what the next update is made against. */
  list(): Promise<Map<string, string>>;
  /**
   * Puts and deletes, in as few calls as the limits allow; resolves to the number of UpdateKeys
   * calls made. Rejects with ConflictException when another writer changed the store
   * since it was listed: the change was planned from what it no longer holds.
   */
  update(change: { puts?: readonly Entry[]; deletes?: readonly string[] }): Promise<number>;
  /** Why the store, as last listed, could not take `wanted` (a limit it shares with keys it does not list), or undefined. */
  refuses?(wanted: readonly Entry[]): string | undefined;
}

/** Splits puts and deletes into batches within UPDATE_LIMITS (the request's JSON counted with room to spare). */
export function batches(puts: readonly Entry[], deletes: readonly string[]): Array<{ puts: Entry[]; deletes: string[] }> {
  const out: Array<{ puts: Entry[]; deletes: string[] }> = [];
  let current = { puts: [] as Entry[], deletes: [] as string[] };
  let bytes = 0;
  const add = (size: number, place: () => void) => {
    if (current.puts.length + current.deletes.length >= UPDATE_LIMITS.keys || bytes + size > UPDATE_LIMITS.bytes - 1024) {
      out.push(current);
      current = { puts: [], deletes: [] };
      bytes = 0;
    }
    place();
    bytes += size;
  };
  for (const e of puts) add(Buffer.byteLength(JSON.stringify({ Key: e.key, Value: e.value })) + 1, () => current.puts.push(e));
  for (const key of deletes) add(Buffer.byteLength(JSON.stringify({ Key: key })) + 1, () => current.deletes.push(key));
  if (current.puts.length + current.deletes.length > 0) out.push(current);
  return out;
}

/** The service's answer to an If-Match that is no longer the store's ETag: ConflictException, HTTP 409. */
export function isStaleEtag(error: unknown): boolean {
  return error instanceof ConflictException && error.$metadata.httpStatusCode === 409;
}

/** How often a deploy lists the store again and plans again after another writer got in first. */
export const CONFLICT_RETRIES = 5;

/** A change to the store, planned from what it holds. */
export type Change = (held: ReadonlyMap<string, string>) => { puts?: Entry[]; deletes?: string[] };

/**
 * Brings the store in line with `change`, planned from what it holds (`latest`): the deploy's
 * listing, with its own changes applied as they succeed, and after another writer's change
 * (ConflictException), a fresh listing, up to CONFLICT_RETRIES times. A plan is only ever sent
 * against the ETag of the listing it was made from. Resolves to the UpdateKeys calls made.
 */
export async function convergeStore(store: RoutingStore, latest: Map<string, string>, change: Change, onConflict?: (attempt: number) => void): Promise<number> {
  let made = 0;
  for (let attempt = 1; ; attempt++) {
    const { puts = [], deletes = [] } = change(latest);
    if (puts.length + deletes.length === 0) return made;
    try {
      made += await store.update({ puts, deletes });
      for (const e of puts) latest.set(e.key, e.value);
      for (const key of deletes) latest.delete(key);
      return made;
    } catch (error) {
      if (!isStaleEtag(error) || attempt > CONFLICT_RETRIES) throw error;
      made += 1;
      onConflict?.(attempt);
      latest.clear();
      for (const [key, value] of await store.list()) latest.set(key, value);
    }
  }
}

export function keyValueStore(client: CloudFrontKeyValueStoreClient, arn: string): RoutingStore {
  const etag = async () => (await client.send(new DescribeKeyValueStoreCommand({ KvsARN: arn }))).ETag;
  /** The ETag of the store as last listed, or as the last batch left it. */
  let known: string | undefined;
  return {
    async list() {
      // Read first: a write between it and the listing makes the next update a conflict, never a blind overwrite.
      known = await etag();
      const entries = new Map<string, string>();
      let token: string | undefined;
      do {
        const page = await client.send(new ListKeysCommand({ KvsARN: arn, MaxResults: LIST_PAGE, ...(token ? { NextToken: token } : {}) }));
        for (const item of page.Items ?? []) entries.set(item.Key!, item.Value!);
        token = page.NextToken;
      } while (token);
      return entries;
    },
    async update({ puts = [], deletes = [] }) {
      let calls = 0;
      if (known === undefined) throw new Error('the routing store was changed before it was listed');
      for (const batch of batches(puts, deletes)) {
        calls += 1;
        const result: { ETag?: string } = await client.send(new UpdateKeysCommand({
          KvsARN: arn,
          IfMatch: known,
          ...(batch.puts.length ? { Puts: batch.puts.map((e) => ({ Key: e.key, Value: e.value })) } : {}),
          ...(batch.deletes.length ? { Deletes: batch.deletes.map((key) => ({ Key: key })) } : {}),
        }));
        known = result.ETag;
      }
      return calls;
    },
  };
}

/** The change that brings the store from `current` to `wanted`: new and changed keys to put, keys no longer wanted to delete. */
export function planStore(wanted: readonly Entry[], current: ReadonlyMap<string, string>): { puts: Entry[]; added: number; changed: number; deletes: string[] } {
  const puts: Entry[] = [];
  let added = 0;
  const keep = new Set<string>();
  for (const e of wanted) {
    keep.add(e.key);
    const now = current.get(e.key);
    if (now === e.value) continue;
    if (now === undefined) added += 1;
    puts.push(e);
  }
  const deletes = [...current.keys()].filter((key) => !keep.has(key)).sort();
  return { puts, added, changed: puts.length - added, deletes };
}
