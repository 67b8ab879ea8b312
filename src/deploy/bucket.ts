// The bucket operations a deploy needs, through @aws-sdk/client-s3.
import { readFile } from 'node:fs/promises';
import {
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { LocalFile } from './local-files.ts';
import { etagIsMd5, type RemoteObject } from './plan.ts';
import { ERROR_STATUS_METADATA } from '../url-resolution/store-data.ts';

/** S3's limit on keys per DeleteObjects request. */
const DELETE_BATCH = 1000;
/** The metadata key (x-amz-meta-sha256) holding each object's content hash. */
export const SHA256_METADATA = 'sha256';

/**
 * Every object under the prefix, keyed relative to it. Where the ETag is not an MD5 (a multipart
 * or KMS-encrypted object) the sha256 is read from the object's metadata instead.
 */
export async function listRemote(s3: S3Client, bucket: string, prefix: string): Promise<Map<string, RemoteObject>> {
  const objects = new Map<string, RemoteObject>();
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken: token }));
    for (const item of page.Contents ?? []) {
      if (!item.Key || item.Key.endsWith('/')) continue;
      const key = item.Key.slice(prefix.length);
      objects.set(key, { key, size: item.Size ?? 0, etag: (item.ETag ?? '').replace(/"/g, '') });
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);

  for (const object of objects.values()) {
    if (etagIsMd5(object.etag)) continue;
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: prefix + object.key }));
    const sha256 = head.Metadata?.[SHA256_METADATA];
    if (sha256) object.sha256 = sha256;
  }
  return objects;
}

/** The status an error page's object carries in its metadata (ERROR_STATUS_METADATA), or undefined. */
export async function statusMetadata(s3: S3Client, bucket: string, prefix: string, key: string): Promise<string | undefined> {
  const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: prefix + key }));
  return head.Metadata?.[ERROR_STATUS_METADATA];
}

/** Uploads `file`; `status`: the status an error page answers with, kept in its metadata for the viewer-response function. */
export async function putFile(s3: S3Client, bucket: string, prefix: string, file: LocalFile, status?: number): Promise<void> {
  const body = await readFile(file.absolutePath);
  await s3.send(new PutObjectCommand({
    Bucket: bucket,
    Key: prefix + file.key,
    Body: body,
    ContentType: file.contentType,
    CacheControl: file.cacheControl,
    // S3 checks the body against this and refuses a corrupted upload.
    ContentMD5: Buffer.from(file.md5, 'hex').toString('base64'),
    Metadata: { [SHA256_METADATA]: file.sha256, ...(status === undefined ? {} : { [ERROR_STATUS_METADATA]: String(status) }) },
  }));
}

export async function deleteKeys(s3: S3Client, bucket: string, prefix: string, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += DELETE_BATCH) {
    const batch = keys.slice(i, i + DELETE_BATCH);
    const result = await s3.send(new DeleteObjectsCommand({
      Bucket: bucket,
      Delete: { Objects: batch.map((key) => ({ Key: prefix + key })), Quiet: true },
    }));
    const failed = result.Errors ?? [];
    if (failed.length > 0) {
      throw new Error(`could not delete ${failed.length} object(s): ${failed.slice(0, 5).map((e) => `${e.Key} (${e.Code})`).join(', ')}`);
    }
  }
}
