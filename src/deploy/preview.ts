// A pull request's preview: the build deployed to the previews' bucket under 'pr-<n>/' and its
// routing entries to the previews' store, each key behind 'pr-<n>:' (the routing functions answer
// 'pr-<n>.<preview domain>' from them, src/url-resolution/rule.ts), and taken out again when the
// pull request closes. The deploy itself is the site's (deploy.ts) over a view of the store that
// holds this preview's keys alone, so no other preview's key is ever planned, put or deleted.
import type { S3Client } from '@aws-sdk/client-s3';
import { deleteKeys, listRemote } from './bucket.ts';
import { convergeStore, type RoutingStore } from './store.ts';
import { STORE_LIMITS, type Entry } from '../url-resolution/store-data.ts';

/** A pull request's number as `site deploy --preview` takes it: 1 to 999,999,999, no leading zero (the functions' PREVIEW_HOST). */
export const PR_NUMBER = /^[1-9]\d{0,8}$/;

/** The preview's name ('pr-12'): its host's first label, its files' folder and its keys' prefix. */
export const previewName = (pr: string) => `pr-${pr}`;

/** Any preview's key ('pr-12:/about'), which the site's own store never holds. */
export const PREVIEW_KEY = /^pr-\d+:/;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The previews' store as one preview sees it: its own keys, their 'pr-<n>:' taken off, and updates
 * to them alone. `refuses` says whether this preview's entries would not fit beside the other
 * previews' (5 MB in all) or make a key longer than the store takes.
 */
export function previewStore(store: RoutingStore, pr: string): RoutingStore {
  const scope = `${previewName(pr)}:`;
  /** Bytes the other previews' keys hold, as last listed. */
  let others = 0;
  let mine = new Map<string, string>();
  return {
    async list() {
      others = 0;
      mine = new Map();
      for (const [key, value] of await store.list()) {
        if (key.startsWith(scope)) mine.set(key.slice(scope.length), value);
        else others += bytes(key) + bytes(value);
      }
      return new Map(mine);
    },
    update({ puts = [], deletes = [] }) {
      return store.update({ puts: puts.map((e) => ({ key: scope + e.key, value: e.value })), deletes: deletes.map((key) => scope + key) });
    },
    refuses(wanted: readonly Entry[]) {
      const long = wanted.find((e) => bytes(scope + e.key) > STORE_LIMITS.keyBytes);
      if (long) return `${long.key.slice(0, 80)}…: behind '${scope}' its key is ${bytes(scope + long.key)} bytes, and the CloudFront KeyValueStore takes keys of at most ${STORE_LIMITS.keyBytes}`;
      // The new keys go in before the old come out: both at once, beside every other preview.
      const both = new Map(mine);
      for (const e of wanted) both.set(e.key, e.value);
      let own = 0;
      for (const [key, value] of both) own += bytes(scope + key) + bytes(value);
      if (others + own <= STORE_LIMITS.totalBytes) return undefined;
      return `the previews' store would hold ${others + own} bytes with ${previewName(pr)}'s keys (${own}) beside the other previews' (${others}), and a CloudFront KeyValueStore holds at most ${STORE_LIMITS.totalBytes}: remove the previews of closed pull requests (site deploy --remove-preview <n>)`;
    },
  };
}

/** What a removal took out. */
export interface Removed { keys: number; objects: number; calls: number }

/**
 * Takes a preview out: its keys first (the functions then answer its host 404), then every object
 * under its folder. Another preview's keys and objects are never listed for deletion.
 */
export async function removePreview(options: { s3: S3Client; bucket: string; store: RoutingStore; pr: string; dryRun?: boolean; onConflict?: (attempt: number) => void }): Promise<Removed> {
  const { s3, bucket, store, pr } = options;
  const prefix = `${previewName(pr)}/`;
  const held = await store.list();
  if (options.dryRun) return { keys: held.size, objects: (await listRemote(s3, bucket, prefix)).size, calls: 0 };
  const calls = await convergeStore(store, new Map(held), (now) => ({ deletes: [...now.keys()] }), options.onConflict);
  const objects = [...(await listRemote(s3, bucket, prefix)).keys()];
  if (objects.length > 0) await deleteKeys(s3, bucket, prefix, objects);
  return { keys: held.size, objects: objects.length, calls };
}

/** Why a deploy of the site must not go to a store that holds previews (it would take out their keys as stale), or undefined. */
export function previewStoreProblem(held: ReadonlyMap<string, string>): string | undefined {
  const key = [...held.keys()].find((k) => PREVIEW_KEY.test(k));
  if (!key) return undefined;
  return `the routing store holds a pull request's preview (${key.slice(0, key.indexOf(':'))}): it is the previews' store (PreviewKeyValueStoreArn), not the site's; pass the KeyValueStoreArn output of the Site stack`;
}
