// A DynamoDB-compatible server (dynalite) inside this process on 127.0.0.1, holding the leads
// table with the production key schema: for `site serve`, `site leads` and the tests.
// dynalite has no UpdateTimeToLive, so records never expire locally; the TTL attribute is still written.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { CreateTableCommand, type CreateTableCommandInput, DeleteTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { LEAD_TABLE_SCHEMA, type LeadRecord } from './record.ts';
import { withIndexKeys } from './store.ts';
import { LIMITS_TABLE_SCHEMA } from '../limits/table.ts';
import { answerOldItems } from './dynalite-old-item.ts';

export const LOCAL_LEADS_TABLE = 'site-leads';
/** The volume limits' counters, beside the leads. */
export const LOCAL_LIMITS_TABLE = 'site-limits';

export interface LocalStore {
  /** Endpoint to give the DynamoDB client. */
  endpoint: string;
  table: string;
  limitsTable: string;
  /** Where the data lives on disk; undefined when held in memory. */
  dataDir?: string;
  /** A client for this server (fixed dummy credentials: dynalite checks none). */
  client(): DynamoDBClient;
  close(): Promise<void>;
}

// Two attempts: dynalite is a node:http server, which closes a kept-alive connection 6 s after its
// last answer (keepAliveTimeout plus its buffer), so a request sent on it just then meets a reset
// (a send that waited out SES's 6 s timeout did exactly that); the second attempt opens a new one.
export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'eu-west-2', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 2 });
}

/**
 * Creates the leads table where it does not exist yet, with the schema of lead records. A table a
 * store made before the indexes of unsent leads and of send and message ids is rebuilt with them
 * (dynalite cannot add an index to a table): its records are read out, the table made again, and
 * each written back with the index keys its mail state calls for.
 */
export async function ensureLeadTable(client: DynamoDBClient, table: string): Promise<void> {
  await ensureTable(client, table, LEAD_TABLE_SCHEMA);
  const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
  const indexes = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  if (LEAD_TABLE_SCHEMA.GlobalSecondaryIndexes.every((index) => indexes.has(index.IndexName))) return;
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  const records: LeadRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new ScanCommand({ TableName: table, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }));
    records.push(...((page.Items ?? []) as LeadRecord[]));
    start = page.LastEvaluatedKey;
  } while (start);
  await client.send(new DeleteTableCommand({ TableName: table }));
  for (let tries = 0; tries < 100; tries += 1) {
    try { await client.send(new DescribeTableCommand({ TableName: table })); } catch (error) { if (error instanceof ResourceNotFoundException) break; throw error; }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await ensureTable(client, table, LEAD_TABLE_SCHEMA);
  for (let i = 0; i < records.length; i += 25) {
    let requests = records.slice(i, i + 25).map((record) => ({ PutRequest: { Item: withIndexKeys(record) } }));
    while (requests.length) {
      const answer = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
      requests = (answer.UnprocessedItems?.[table] ?? []) as typeof requests;
    }
  }
}

/** Creates the volume limits' table where it does not exist yet. */
export const ensureLimitsTable = (client: DynamoDBClient, table: string) => ensureTable(client, table, LIMITS_TABLE_SCHEMA);

type TableSchema = typeof LEAD_TABLE_SCHEMA | typeof LIMITS_TABLE_SCHEMA;

async function ensureTable(client: DynamoDBClient, table: string, schema: TableSchema): Promise<void> {
  const input: CreateTableCommandInput = {
    TableName: table,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [...schema.KeySchema],
    AttributeDefinitions: [...schema.AttributeDefinitions],
    ...('GlobalSecondaryIndexes' in schema ? {
      GlobalSecondaryIndexes: schema.GlobalSecondaryIndexes.map((index) => ({ IndexName: index.IndexName, KeySchema: [...index.KeySchema], Projection: { ...index.Projection } })),
    } : {}),
  };
  try {
    await client.send(new DescribeTableCommand({ TableName: table }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    await client.send(new CreateTableCommand(input));
  }
  // dynalite answers ResourceNotFound to a table still CREATING, even with createTableMs 0.
  for (let tries = 0; tries < 100; tries += 1) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
    if (Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`table ${table} did not become ACTIVE`);
}

/** Starts dynalite (port 0: a free one), on disk under `dataDir` when given, and creates the table. */
export async function startLocalStore(options: { dataDir?: string; port?: number; table?: string } = {}): Promise<LocalStore> {
  const host = '127.0.0.1';
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const server: Server = dynalite({ path: options.dataDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  // What dynalite lacks: the old item on a failed conditional write (dynalite-old-item.ts).
  answerOldItems(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => { server.off('error', reject); resolve(); });
  });
  const endpoint = `http://${host}:${(server.address() as AddressInfo).port}`;
  const table = options.table ?? LOCAL_LEADS_TABLE;
  const setup = localClient(endpoint);
  try {
    await ensureLeadTable(setup, table);
    await ensureLimitsTable(setup, LOCAL_LIMITS_TABLE);
  } finally { setup.destroy(); }
  return {
    endpoint,
    table,
    limitsTable: LOCAL_LIMITS_TABLE,
    dataDir: options.dataDir,
    client: () => localClient(endpoint),
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
