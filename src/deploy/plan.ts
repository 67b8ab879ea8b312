// What a deploy will do, decided from the files and the bucket listing alone (no I/O), so the
// dry run prints exactly what the real run then does.
import type { LocalFile } from './local-files.ts';
import { isHashedAsset } from '../url-resolution/cache-control.ts';

export interface RemoteObject {
  key: string;
  size: number;
  /** ETag without quotes. */
  etag: string;
  /** The sha256 from the object's metadata, when it had to be read (the ETag was not an MD5). */
  sha256?: string;
}

/** 'status': the same bytes, but the error status its metadata holds is not the rules' (deploy.ts). */
export type UploadReason = 'new' | 'changed' | 'forced' | 'status';

export interface Upload {
  file: LocalFile;
  reason: UploadReason;
}

export interface DeployPlan {
  /** In upload order: content-hashed files, then everything else, then the HTML that refers to them. */
  uploads: Upload[];
  unchanged: LocalFile[];
  /** Keys in the bucket (under the prefix) that the build no longer has, share cards (og/) apart. Deleted last. */
  deletes: string[];
  /** Such keys left in place this once (`keepStale`): a later deploy deletes them. */
  kept: string[];
}

const PLAIN_MD5 = /^[0-9a-f]{32}$/;

/** Whether an ETag can be compared with a file's MD5 (one-part upload, no KMS encryption). */
export function etagIsMd5(etag: string): boolean {
  return PLAIN_MD5.test(etag);
}

export function sameContent(file: LocalFile, remote: RemoteObject): boolean {
  if (remote.size !== file.size) return false;
  if (etagIsMd5(remote.etag)) return remote.etag === file.md5;
  return remote.sha256 === file.sha256;
}

const isHtml = (key: string) => key.endsWith('.html');

/**
 * Share cards are never deleted: LinkedIn, Facebook, X and Slack keep the og:image URL of a link
 * shared months ago and fetch it again when they redraw the post. A card is named by its content,
 * so an old one is never wrong, only unused, and costs a few tens of kilobytes; keeping "those a
 * live page used in the last 30 days" would need a history the deploy does not keep (it decides
 * from the build and the bucket listing alone).
 */
export const KEPT_PREFIX = 'og/';

/**
 * `keepStale` leaves the stale keys where they are: for a build that renames files the CDN's routing
 * names (such as pages moving from about/index.html to about.html), whose old names must keep
 * answering until the new routing is live.
 */
export function planDeploy(files: readonly LocalFile[], remote: ReadonlyMap<string, RemoteObject>, options: { force?: boolean; keepStale?: boolean; restatus?: ReadonlySet<string> } = {}): DeployPlan {
  const uploads: Upload[] = [];
  const unchanged: LocalFile[] = [];
  for (const file of files) {
    const existing = remote.get(file.key);
    if (!existing) uploads.push({ file, reason: 'new' });
    else if (options.force) uploads.push({ file, reason: 'forced' });
    else if (!sameContent(file, existing)) uploads.push({ file, reason: 'changed' });
    else if (options.restatus?.has(file.key)) uploads.push({ file, reason: 'status' });
    else unchanged.push(file);
  }
  // A file must never arrive before the files it names: content-hashed files first, then the other
  // files (the search index's entry file and loader name its hashed files), HTML last (stable otherwise).
  const rank = (key: string) => (isHtml(key) ? 2 : isHashedAsset(key) ? 0 : 1);
  uploads.sort((a, b) => rank(a.file.key) - rank(b.file.key));
  const local = new Set(files.map((f) => f.key));
  const stale = [...remote.keys()].filter((key) => !local.has(key) && !key.startsWith(KEPT_PREFIX)).sort();
  return { uploads, unchanged, deletes: options.keepStale ? [] : stale, kept: options.keepStale ? stale : [] };
}
