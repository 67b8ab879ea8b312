// Before trusting s3rver as a stand-in for S3, prove that the real client and it agree: what is
// put is listed and read back byte for byte, with its headers, and deleted objects are gone.
import { createHash, randomBytes } from 'node:crypto';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startLocalS3, type LocalS3 } from './local-s3.ts';

let s3: LocalS3;
beforeAll(async () => { s3 = await startLocalS3(['roundtrip']); });
afterAll(async () => { await s3.close(); });

const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const objects: Record<string, Buffer> = {
  'index.html': Buffer.from('<!doctype html><title>Café – £5</title>\n', 'utf8'),
  'assets/all-bytes.bin': Buffer.concat([every, every.reverse()]),
  'assets/images/random-0123456789.png': randomBytes(70_000),
  'blog/page/2/index.html': Buffer.from('<p>second page</p>', 'utf8'),
  'empty.txt': Buffer.alloc(0),
};

describe('s3rver through @aws-sdk/client-s3', () => {
  test('put, list, get and delete round-trip byte for byte', async () => {
    for (const [key, body] of Object.entries(objects)) {
      await s3.client.send(new PutObjectCommand({
        Bucket: 'roundtrip', Key: key, Body: body,
        ContentType: 'application/x-test', CacheControl: 'public, max-age=0, must-revalidate', Metadata: { sha256: 'x' },
      }));
    }

    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: 'roundtrip' }));
    const byKey = new Map((listed.Contents ?? []).map((o) => [o.Key!, o]));
    expect([...byKey.keys()].sort()).toEqual(Object.keys(objects).sort());
    for (const [key, body] of Object.entries(objects)) {
      const item = byKey.get(key)!;
      expect(item.Size).toBe(body.length);
      // The deploy relies on this: a one-part upload's ETag is the MD5 of its bytes.
      expect(item.ETag).toBe(`"${createHash('md5').update(body).digest('hex')}"`);

      const got = await s3.client.send(new GetObjectCommand({ Bucket: 'roundtrip', Key: key }));
      const bytes = Buffer.from(await got.Body!.transformToByteArray());
      expect(bytes.equals(body), key).toBe(true);
      expect(got.ContentType).toBe('application/x-test');
      expect(got.CacheControl).toBe('public, max-age=0, must-revalidate');
      expect(got.Metadata).toEqual({ sha256: 'x' });
    }

    const gone = ['index.html', 'assets/all-bytes.bin'];
    const deleted = await s3.client.send(new DeleteObjectsCommand({ Bucket: 'roundtrip', Delete: { Objects: gone.map((Key) => ({ Key })) } }));
    expect((deleted.Deleted ?? []).map((d) => d.Key).sort()).toEqual([...gone].sort());
    const after = await s3.client.send(new ListObjectsV2Command({ Bucket: 'roundtrip' }));
    expect((after.Contents ?? []).map((o) => o.Key).sort()).toEqual(Object.keys(objects).filter((k) => !gone.includes(k)).sort());
  });
});
