// A local store made before the leads table had its indexes (unsent leads, send and message ids):
// opened again, its table is rebuilt with them, and a lead left unsent is found by the mailer.
import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureLeadTable, startLocalStore, type LocalStore } from '../../lambda/leads/local-store.ts';
import { EMAIL_INDEX, LEAD_TABLE_SCHEMA, unsentShardOf } from '../../lambda/leads/record.ts';
import { leadStore } from '../../lambda/leads/store.ts';
import { PutCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { leadFieldValues } from '../../forms/fields.ts';

let local: LocalStore;
beforeAll(async () => { local = await startLocalStore(); });
afterAll(() => local?.close());

it('rebuilds a table of the old schema with the indexes, keeping every record, and the mailer finds the unsent one', async () => {
  const client = local.client();
  try {
    await client.send(new CreateTableCommand({
      TableName: 'old-leads', BillingMode: 'PAY_PER_REQUEST', KeySchema: [{ AttributeName: 'submissionId', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'submissionId', AttributeType: 'S' }, { AttributeName: 'emailKey', AttributeType: 'S' }],
      GlobalSecondaryIndexes: [{ IndexName: EMAIL_INDEX, KeySchema: [{ AttributeName: 'emailKey', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } }],
    }));
    // dynalite answers ResourceNotFound to a table still CREATING: wait for ACTIVE (the 60 s is a hang guard).
    await expect.poll(async () => (await client.send(new DescribeTableCommand({ TableName: 'old-leads' }))).Table?.TableStatus, { timeout: 60_000, interval: 5 }).toBe('ACTIVE');
    const doc = DynamoDBDocumentClient.from(client);
    const lead = (id: string, state: 'pending' | 'sent') => ({
      submissionId: id, form: 'contact', receivedAt: '2026-05-01T10:00:00.000Z', ...leadFieldValues({ name: 'Morag Campbell', email: 'morag@example.org' }),
      emailKey: 'morag@example.org', source: 'https://www.example.co.uk', mail: { state, attempts: 1, ...(state === 'sent' ? { messageId: 'm-1' } : { lastError: 'throttled' }) }, expiresAt: 2_000_000_000,
    });
    await doc.send(new PutCommand({ TableName: 'old-leads', Item: lead('old-unsent', 'pending') }));
    await doc.send(new PutCommand({ TableName: 'old-leads', Item: lead('old-sent', 'sent') }));

    await ensureLeadTable(client, 'old-leads');
    const store = leadStore(client, 'old-leads');
    expect((await store.all()).map((l) => l.submissionId)).toEqual(['old-sent', 'old-unsent']);
    expect((await store.unsent()).map((l) => l.submissionId)).toEqual(['old-unsent']);
    expect(LEAD_TABLE_SCHEMA.GlobalSecondaryIndexes.length).toBe(4);
  } finally {
    client.destroy();
  }
});

it("gives the index keys to a pending lead stored before them (a table in AWS keeps its records as they were): `site leads resend --unsent` then sees it", async () => {
  const client = local.client();
  try {
    await ensureLeadTable(client, 'aws-like-leads');
    const doc = DynamoDBDocumentClient.from(client);
    await doc.send(new PutCommand({ TableName: 'aws-like-leads', Item: {
      submissionId: 'before-index', form: 'contact', receivedAt: '2026-05-01T10:00:00.000Z', ...leadFieldValues({ name: 'Ewan Fraser', email: 'ewan@example.org' }),
      emailKey: 'ewan@example.org', source: 'https://www.example.co.uk', mail: { state: 'pending', attempts: 1, lastError: 'throttled', sendId: 'send-1' }, expiresAt: 2_000_000_000,
    } }));
    const store = leadStore(client, 'aws-like-leads');
    expect(await store.unsent()).toEqual([]);
    expect(await store.indexOlderLeads()).toBe(1);
    expect((await store.unsent()).map((l) => l.submissionId)).toEqual(['before-index']);
    expect(await store.get('before-index')).toMatchObject({ sendKey: 'send-1', unsent: unsentShardOf('before-index') });
    expect(await store.indexOlderLeads()).toBe(0);
  } finally {
    client.destroy();
  }
});
