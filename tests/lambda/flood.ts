// A flood held in the leads table, for the tests that measure what it does to a real lead: `count`
// likely-spam leads from rotating /64s of one /48 (held past the /48's limit, one a second), stored
// as the handler stores them, 25 to a batch write, a few batches at once.
import { type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { newLead } from '../../lambda/leads/new-lead.ts';
import type { LeadRecord } from '../../lambda/leads/record.ts';
import { withIndexKeys } from '../../lambda/leads/store.ts';
import { validateContact } from '../../forms/contact.ts';
import { validContact } from './support.ts';

/** A lead as the handler stores it, held for the digest; `likelySpam` when a limit or the honeypot flagged it. */
export function heldLead(id: string, name: string, receivedAt: Date, likelySpam?: LeadRecord['likelySpam']): LeadRecord {
  const checked = validateContact(validContact({ name, email: `${id}@example.org` }));
  if (!checked.ok) throw new Error('invalid fixture');
  const record = newLead({ form: 'contact', data: checked.data }, { submissionId: id, receivedAt, source: 'https://www.example.co.uk/contact', retentionMonths: 24, held: true });
  return { ...record, ...(likelySpam ? { likelySpam } : {}), mail: { ...record.mail, version: 0 } };
}

/** Stores `count` flood leads, the first at `from`, one a second after. */
export async function storeFlood(client: DynamoDBClient, table: string, count: number, from: Date): Promise<void> {
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  const batch = (start: number) => Array.from({ length: Math.min(25, count - start) }, (_, k) =>
    ({ PutRequest: { Item: withIndexKeys(heldLead(`flood-${start + k}`, `Flood ${start + k}`, new Date(from.getTime() + (start + k) * 1000), "past its network's limit")) } }));
  const starts = Array.from({ length: Math.ceil(count / 25) }, (_, b) => b * 25);
  for (let i = 0; i < starts.length; i += 8) {
    await Promise.all(starts.slice(i, i + 8).map(async (start) => {
      let items = batch(start);
      while (items.length) {
        const answer = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: items } }));
        items = (answer.UnprocessedItems?.[table] ?? []) as typeof items;
      }
    }));
  }
}

/** Counts the items the client's Queries read (their Count), the measure of what a run held in memory from the index. */
export function countQueryItems(client: DynamoDBClient): { items: number; queries: number } {
  const counts = { items: 0, queries: 0 };
  client.middlewareStack.add((next) => async (args) => {
    const answer = await next(args);
    const output = answer.output as { Count?: number; ScannedCount?: number };
    if ((args.input as { KeyConditionExpression?: string }).KeyConditionExpression) { counts.queries += 1; counts.items += output.ScannedCount ?? 0; }
    return answer;
  }, { step: 'initialize', name: 'countQueryItems' });
  return counts;
}
