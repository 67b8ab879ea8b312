// Which leads table `site leads` works on: the one a running `site serve` holds open (found through
// .site/data/leads.endpoint), else the local one under .site/data/leads (dynalite started in this
// process); another endpoint with --endpoint; or the real table in AWS (--table and --region, with
// the usual AWS credentials).
import { readFile, rm } from 'node:fs/promises';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localClient, startLocalStore } from '../../lambda/leads/local-store.ts';
import { leadStore, type LeadStore } from '../../lambda/leads/store.ts';
import { LOCAL_LEADS_TABLE, LOCAL_LIMITS_TABLE } from '../../lambda/leads/local-store.ts';
import { limitCounter, type LimitCounter } from '../../lambda/limits/counter.ts';
import { localLeadsDir, servedEndpointFile } from './serve-forms.ts';
import { adoptProjectFolders } from '../output/old-folders.ts';

/** The endpoint of a `site serve` running on this project's store, if one answers; a stale file is removed. */
async function servedEndpoint(root: string): Promise<string | undefined> {
  const file = servedEndpointFile(root);
  const endpoint = (await readFile(file, 'utf8').catch(() => ''))?.trim();
  if (!endpoint) return undefined;
  const client = localClient(endpoint);
  try {
    await client.send(new DescribeTableCommand({ TableName: LOCAL_LEADS_TABLE }));
    return endpoint;
  } catch {
    await rm(file, { force: true });
    return undefined;
  } finally {
    client.destroy();
  }
}

export interface StoreFlags {
  table?: string;
  region?: string;
  /** A DynamoDB-compatible endpoint, e.g. the one `site serve` printed. */
  endpoint?: string;
  /** The volume limits' table in AWS (the stack's LimitsTable output), where the hourly cap on lead e-mails is counted. */
  limitsTable?: string;
}

export interface OpenedStore {
  store: LeadStore;
  /** The counters of the volume limits beside it (the local store's own table, or --limits-table in AWS); none when not known. */
  counter?: LimitCounter;
  /** Where it is, for messages. */
  where: string;
  /** The local store's data folder, and whether a running `site serve` holds it (only it can rewrite the folder). */
  local?: { dataDir: string; heldByServe: boolean };
  close(): Promise<void>;
}

export class StoreFlagsError extends Error {}

export async function openLeadStore(root: string, flags: StoreFlags): Promise<OpenedStore> {
  if (flags.endpoint) {
    const client = localClient(flags.endpoint);
    return { store: leadStore(client, flags.table ?? LOCAL_LEADS_TABLE), counter: limitCounter(client, flags.limitsTable ?? LOCAL_LIMITS_TABLE), where: flags.endpoint, close: async () => client.destroy() };
  }
  if (flags.table || flags.region) {
    if (!flags.table || !flags.region) throw new StoreFlagsError('pass both --table and --region to work on a table in AWS');
    const client = new DynamoDBClient({ region: flags.region });
    return { store: leadStore(client, flags.table), ...(flags.limitsTable ? { counter: limitCounter(client, flags.limitsTable) } : {}), where: `table ${flags.table} in ${flags.region}`, close: async () => client.destroy() };
  }
  // The local leads of an older version (.site-data/) moved into .site/data/ first.
  await adoptProjectFolders(root, (line) => process.stderr.write(line + '\n'));
  const served = await servedEndpoint(root);
  if (served) {
    const client = localClient(served);
    return { store: leadStore(client, LOCAL_LEADS_TABLE), counter: limitCounter(client, LOCAL_LIMITS_TABLE), where: `${served} (the store of the running site serve)`, local: { dataDir: localLeadsDir(root), heldByServe: true }, close: async () => client.destroy() };
  }
  const dataDir = localLeadsDir(root);
  let local;
  try {
    local = await startLocalStore({ dataDir });
  } catch (error) {
    // LevelDB allows one process per folder: a running `site serve` holds it.
    if (/lock/i.test(String(error))) {
      throw new StoreFlagsError(`the local leads store (${dataDir}) is open in another process: pass --endpoint with the DynamoDB address it printed`);
    }
    throw error;
  }
  const client = local.client();
  return {
    store: leadStore(client, local.table),
    counter: limitCounter(client, local.limitsTable),
    where: dataDir,
    local: { dataDir, heldByServe: false },
    close: async () => { client.destroy(); await local.close(); },
  };
}
