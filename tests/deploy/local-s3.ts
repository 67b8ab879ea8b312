// s3rver, an S3-compatible server, in-process on 127.0.0.1 at a free port with a throwaway data
// folder, and a real S3 client pointed at it. s3rver predates the SDK's default checksums, so the
// client sends and checks them only where the API requires them; and it has no DNS for
// bucket.host names, so requests are path-style.
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';

interface ListOptions { delimiter?: string; startAfter?: string; prefix?: string; maxKeys?: number }
interface Listing { objects: Array<{ key: string }>; commonPrefixes: string[]; isTruncated: boolean }
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  store: { listObjects(bucket: string, options: ListOptions): Promise<Listing> };
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

// s3rver is CommonJS without type declarations.
const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverClass;

// s3rver seals ListObjectsV2's continuation token with single DES ('des'), which the OpenSSL 3 of
// Node 22+ no longer has (without --openssl-legacy-provider): every listing of more than 1,000 keys
// failed with InternalError. Triple DES with the one key three times is single DES, and the
// default provider has it; only s3rver, in this process, ever asks for 'des'.
const nodeCrypto = require('node:crypto') as typeof import('node:crypto');
const tripled = (key: import('node:crypto').CipherKey) => Buffer.concat([Buffer.from(key as Buffer), Buffer.from(key as Buffer), Buffer.from(key as Buffer)]);
const { createCipheriv, createDecipheriv } = nodeCrypto;
Object.assign(nodeCrypto, {
  createCipheriv: (algorithm: string, key: Buffer, iv: Buffer | null, options?: object) =>
    (algorithm === 'des' ? createCipheriv('des-ede3-cbc', tripled(key), iv, options as never) : createCipheriv(algorithm, key, iv, options as never)),
  createDecipheriv: (algorithm: string, key: Buffer, iv: Buffer | null, options?: object) =>
    (algorithm === 'des' ? createDecipheriv('des-ede3-cbc', tripled(key), iv, options as never) : createDecipheriv(algorithm, key, iv, options as never)),
});

export interface LocalS3 {
  endpoint: string;
  client: S3Client;
  close(): Promise<void>;
}

export async function startLocalS3(buckets: string[]): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  // s3rver walks its folders in path order, which puts 'blog/a.html' before 'blog.html' ('/' sorts
  // after '.' in a key, before it in a walk), then pages by "start after the last key": a listing of
  // more than one page skipped keys. S3 lists in key order: so does this, a page at a time.
  const listObjects = server.store.listObjects.bind(server.store);
  server.store.listObjects = async (bucket, options) => {
    const all = await listObjects(bucket, { ...options, startAfter: '', maxKeys: Infinity });
    const after = all.objects.filter((o) => o.key > (options.startAfter ?? '')).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const max = options.maxKeys ?? Infinity;
    return { ...all, objects: after.slice(0, max), isTruncated: after.length > max };
  };
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'eu-west-2',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // s3rver's default key pair; it checks the signature.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    endpoint,
    client,
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
