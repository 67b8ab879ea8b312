// Erased means gone from the disk too. The local store is dynalite on LevelDB, which keeps a deleted
// record's bytes in its log and table files until a compaction happens to reach them, and dynalite
// gives no way to ask for one. So after an erasure the store is rewritten: every live item is read
// out, the folder is replaced by a fresh one, and the items are written back. Only the process that
// holds the folder can do this (LevelDB allows one): `site leads erase` when no `site serve` runs,
// else serve itself when it starts or stops (`ERASED_MARKER` tells it an erasure went through it).
import { randomUUID } from 'node:crypto';
import { rename, rm, writeFile, access } from 'node:fs/promises';
import path from 'node:path';
import { BatchWriteItemCommand, ListTablesCommand, ScanCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureLeadTable, ensureLimitsTable, LOCAL_LIMITS_TABLE, startLocalStore } from './local-store.ts';

/** Written beside the data folder when records were erased through a running `site serve`. */
export const erasedMarker = (dataDir: string) => `${dataDir}.erased`;

type Item = Record<string, AttributeValue>;

async function readAll(client: DynamoDBClient): Promise<Map<string, Item[]>> {
  const tables = new Map<string, Item[]>();
  const { TableNames = [] } = await client.send(new ListTablesCommand({}));
  for (const table of TableNames) {
    const items: Item[] = [];
    let start: Item | undefined;
    do {
      const page = await client.send(new ScanCommand({ TableName: table, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    tables.set(table, items);
  }
  return tables;
}

async function writeAll(client: DynamoDBClient, tables: Map<string, Item[]>): Promise<void> {
  for (const [table, items] of tables) {
    await (table === LOCAL_LIMITS_TABLE ? ensureLimitsTable(client, table) : ensureLeadTable(client, table));
    for (let i = 0; i < items.length; i += 25) {
      let pending: Item[] = items.slice(i, i + 25);
      while (pending.length > 0) {
        const answer = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending.map((Item) => ({ PutRequest: { Item } })) } }));
        pending = (answer.UnprocessedItems?.[table] ?? []).map((request) => request.PutRequest!.Item!);
      }
    }
  }
}

/**
 * Rewrites the store in `dataDir` (which no process may hold open) with only its live items. The old
 * folder is removed only once the new one holds every item; a failure leaves the old one in place.
 */
export async function rewriteLocalStore(dataDir: string): Promise<void> {
  const old = await startLocalStore({ dataDir });
  const oldClient = old.client();
  let tables: Map<string, Item[]>;
  try { tables = await readAll(oldClient); } finally { oldClient.destroy(); await old.close(); }

  const fresh = path.join(path.dirname(dataDir), `.${path.basename(dataDir)}.rewrite-${randomUUID()}`);
  const store = await startLocalStore({ dataDir: fresh });
  const client = store.client();
  try { await writeAll(client, tables); } catch (error) {
    client.destroy(); await store.close(); await rm(fresh, { recursive: true, force: true });
    throw error;
  }
  client.destroy();
  await store.close();
  const aside = `${fresh}.old`;
  await rename(dataDir, aside);
  await rename(fresh, dataDir);
  await rm(aside, { recursive: true, force: true });
}

/** Notes that records were erased through a running serve, whose store only it can rewrite. */
export const markErased = (dataDir: string) => writeFile(erasedMarker(dataDir), `${new Date().toISOString()}\n`);

/** Rewrites the store if an erasure went through a serve since it was last rewritten. */
export async function rewriteIfErased(dataDir: string): Promise<boolean> {
  const marker = erasedMarker(dataDir);
  if (!(await access(marker).then(() => true, () => false))) return false;
  await rewriteLocalStore(dataDir);
  await rm(marker, { force: true });
  return true;
}
