// The deploy's side of the CloudFront KeyValueStore, through the real client against the stand-in:
// the stand-in speaks the service's protocol and keeps its limits, and the deploy's batches,
// listing and retries stay within them.
import { ConflictException, ListKeysCommand, ServiceQuotaExceededException, UpdateKeysCommand, ValidationException, DescribeKeyValueStoreCommand, ResourceNotFoundException } from '@aws-sdk/client-cloudfront-keyvaluestore';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { batches, isStaleEtag, journalValue, keyValueStore, planStore, readJournal, UPDATE_LIMITS } from '../../src/deploy/store.ts';
import { KVS_ARN, startLocalKvs, type LocalKvs } from './local-kvs.ts';

let kvs: LocalKvs;
beforeAll(async () => { kvs = await startLocalKvs(); });
afterAll(async () => { await kvs.close(); });

describe('the stand-in speaks the KeyValueStore API', () => {
  test('UpdateKeys needs the current ETag, takes 50 keys a call and 5 MB in all; ListKeys pages by 50', async () => {
    const etag = async () => (await kvs.client.send(new DescribeKeyValueStoreCommand({ KvsARN: KVS_ARN }))).ETag!;
    const first = await etag();
    const puts = Array.from({ length: 51 }, (_, i) => ({ Key: `/p${i}`, Value: 'page' }));
    await expect(kvs.client.send(new UpdateKeysCommand({ KvsARN: KVS_ARN, IfMatch: first, Puts: puts }))).rejects.toBeInstanceOf(ValidationException);
    const done = await kvs.client.send(new UpdateKeysCommand({ KvsARN: KVS_ARN, IfMatch: first, Puts: puts.slice(0, 50) }));
    expect(done).toMatchObject({ ItemCount: 50, TotalSizeInBytes: 50 * 4 + puts.slice(0, 50).reduce((n, p) => n + p.Key.length, 0) });
    expect(done.ETag).not.toBe(first);
    await expect(kvs.client.send(new UpdateKeysCommand({ KvsARN: KVS_ARN, IfMatch: first, Deletes: [{ Key: '/p1' }] }))).rejects.toBeInstanceOf(ConflictException);
    await expect(kvs.client.send(new UpdateKeysCommand({ KvsARN: KVS_ARN, IfMatch: done.ETag, Puts: [{ Key: `/${'a'.repeat(512)}`, Value: 'page' }] }))).rejects.toBeInstanceOf(ValidationException);
    const page = await kvs.client.send(new ListKeysCommand({ KvsARN: KVS_ARN, MaxResults: 50 }));
    expect(page.Items).toHaveLength(50);
    expect(page.NextToken).toBeUndefined();
    await expect(kvs.client.send(new DescribeKeyValueStoreCommand({ KvsARN: KVS_ARN.replace(/.$/, '0') }))).rejects.toBeInstanceOf(ResourceNotFoundException);

    // 5 MB in all: 6,000 values of 1,000 bytes do not fit.
    const store = keyValueStore(kvs.client, KVS_ARN);
    const big = Array.from({ length: 6000 }, (_, i) => ({ key: `/big/${i}`, value: 'x'.repeat(1000) }));
    await store.list();
    await expect(store.update({ puts: big })).rejects.toBeInstanceOf(ServiceQuotaExceededException);
    expect((await store.list()).size).toBeGreaterThan(50);
    await store.update({ deletes: [...(await store.list()).keys()] });
    expect(kvs.entries.size).toBe(0);
  });
});

describe('a stale If-Match, as the UpdateKeys API reference documents it', () => {
  test('HTTP 409, error type ConflictException, a body of one Message; the SDK\'s ConflictException, which the deploy re-plans on', async () => {
    const etag = (await kvs.client.send(new DescribeKeyValueStoreCommand({ KvsARN: KVS_ARN }))).ETag!;
    const url = `${kvs.endpoint}/key-value-stores/${encodeURIComponent(KVS_ARN)}/keys`;
    const raw = await fetch(url, { method: 'POST', headers: { 'if-match': `${etag}-stale`, 'content-type': 'application/json', authorization: 'AWS4-ECDSA-P256-SHA256 Credential=KVSLOCAL', 'x-amz-region-set': '*' }, body: JSON.stringify({ Puts: [{ Key: '/x', Value: 'page' }] }) });
    expect(raw.status).toBe(409);
    expect(raw.headers.get('x-amzn-errortype')).toBe('ConflictException');
    expect(await raw.json()).toEqual({ Message: 'Resource is not in expected state.' });
    const error = await kvs.client.send(new UpdateKeysCommand({ KvsARN: KVS_ARN, IfMatch: `${etag}-stale`, Puts: [{ Key: '/x', Value: 'page' }] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictException);
    expect(isStaleEtag(error)).toBe(true);
    expect(isStaleEtag(new ValidationException({ message: 'no', $metadata: { httpStatusCode: 400 } }))).toBe(false);
  });
});

describe('the deploy\'s store changes', () => {
  test('batches of at most 50 keys, and under 3 MB however large the values', () => {
    const many = batches(Array.from({ length: 120 }, (_, i) => ({ key: `/a${i}`, value: 'page' })), ['/x', '/y']);
    expect(many.map((b) => [b.puts.length, b.deletes.length])).toEqual([[50, 0], [50, 0], [20, 2]]);
    const heavy = batches(Array.from({ length: 50 }, (_, i) => ({ key: `/${String(i).padStart(500, 'k')}`, value: 'v'.repeat(100_000) })), []);
    expect(heavy.length).toBeGreaterThan(1);
    for (const b of heavy) expect(Buffer.byteLength(JSON.stringify({ Puts: b.puts.map((e) => ({ Key: e.key, Value: e.value })) }))).toBeLessThan(UPDATE_LIMITS.bytes);
  });

  test('puts new and changed keys, deletes the keys no longer wanted, leaves the rest', () => {
    const current = new Map([['/a', 'page'], ['/b', 'page'], ['/old', 'page'], ['rules', '{}']]);
    expect(planStore([{ key: '/a', value: 'page' }, { key: '/b', value: '301 /a' }, { key: '/new', value: 'page' }, { key: 'rules', value: '{}' }], current))
      .toEqual({ puts: [{ key: '/b', value: '301 /a' }, { key: '/new', value: 'page' }], added: 1, changed: 1, deletes: ['/old'] });
  });

  test('the journal of paths to invalidate fits a value, and an unreadable one means everything', () => {
    expect(readJournal(journalValue(['/a', '/a.html']))).toEqual(['/a', '/a.html']);
    expect(journalValue(Array.from({ length: 60 }, (_, i) => `/blog/a-rather-long-article-slug-${i}`))).toBe('["/*"]');
    expect(readJournal('not json')).toEqual(['/*']);
    expect(readJournal(undefined)).toEqual([]);
  });
});
