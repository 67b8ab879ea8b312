// The local store answers a failed conditional write as DynamoDB does: with the item as it stood
// when the write asked for it (ReturnValuesOnConditionCheckFailure ALL_OLD), and without it when
// the write did not ask; every other answer is dynalite's own, its checksum included, through the
// real SDK client.
import { ConditionalCheckFailedException, DeleteItemCommand, GetItemCommand, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStore, type LocalStore } from '../../lambda/leads/local-store.ts';

let local: LocalStore;
beforeAll(async () => { local = await startLocalStore(); });
afterAll(() => local?.close());

const stored = { submissionId: { S: 'lead-1' }, form: { S: 'contact' }, version: { N: '3' } };

/** The refusal a write met, with the item it carried (undefined when it carried none). */
async function refusal(write: Promise<unknown>): Promise<{ item: unknown }> {
  const error = await write.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ConditionalCheckFailedException);
  return { item: (error as ConditionalCheckFailedException).Item };
}

describe('the local store, on a failed conditional write', () => {
  it('gives the old item to a PutItem, an UpdateItem and a DeleteItem that asked for it, and nothing to one that did not', async () => {
    const client = local.client();
    try {
      await client.send(new PutItemCommand({ TableName: local.table, Item: stored }));
      const stale = { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': { N: '2' } } };
      const put = await refusal(client.send(new PutItemCommand({ TableName: local.table, Item: { ...stored, version: { N: '4' } }, ...stale, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })));
      expect(put.item).toEqual(stored);
      const update = await refusal(client.send(new UpdateItemCommand({ TableName: local.table, Key: { submissionId: stored.submissionId }, UpdateExpression: 'SET version = :n', ...stale, ExpressionAttributeValues: { ':v': { N: '2' }, ':n': { N: '4' } }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })));
      expect(update.item).toEqual(stored);
      const remove = await refusal(client.send(new DeleteItemCommand({ TableName: local.table, Key: { submissionId: stored.submissionId }, ...stale, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })));
      expect(remove.item).toEqual(stored);
      const unasked = await refusal(client.send(new UpdateItemCommand({ TableName: local.table, Key: { submissionId: stored.submissionId }, UpdateExpression: 'SET version = :n', ...stale, ExpressionAttributeValues: { ':v': { N: '2' }, ':n': { N: '4' } } })));
      expect(unasked.item).toBeUndefined();
      // A refusal of a lead not stored at all carries no item, asked or not.
      const absent = await refusal(client.send(new UpdateItemCommand({ TableName: local.table, Key: { submissionId: { S: 'lead-none' } }, UpdateExpression: 'SET version = :n', ConditionExpression: 'attribute_exists(submissionId)', ExpressionAttributeValues: { ':n': { N: '1' } }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })));
      expect(absent.item).toBeUndefined();
      // Nothing was written by the refused writes.
      expect((await client.send(new GetItemCommand({ TableName: local.table, Key: { submissionId: stored.submissionId }, ConsistentRead: true }))).Item).toEqual(stored);
    } finally {
      client.destroy();
    }
  });

  it('passes a write that meets its condition, and every read, through with dynalite’s answer and checksum', async () => {
    const client = local.client();
    const checksums: string[] = [];
    client.middlewareStack.add((next) => async (args) => {
      const out = await next(args);
      checksums.push(String((out.response as { headers: Record<string, string> }).headers['x-amz-crc32'] ?? ''));
      return out;
    }, { step: 'deserialize', name: 'checksums' });
    try {
      await client.send(new PutItemCommand({ TableName: local.table, Item: { ...stored, submissionId: { S: 'lead-2' } }, ConditionExpression: 'attribute_not_exists(submissionId)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
      const read = await client.send(new GetItemCommand({ TableName: local.table, Key: { submissionId: { S: 'lead-2' } } }));
      expect(read.Item).toEqual({ ...stored, submissionId: { S: 'lead-2' } });
      expect(checksums).toHaveLength(2);
      for (const checksum of checksums) expect(checksum).toMatch(/^\d+$/);
    } finally {
      client.destroy();
    }
  });
});
