// Fixed-window counters in DynamoDB, one item per limit, key and window: an atomic conditional
// ADD takes a slot or fails when the window is full, so every Lambda instance (they share no
// memory) counts against the same figure. TTL deletes a window's item a day after it ends.
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LIMIT_KEY, LIMIT_TTL_ATTRIBUTE } from './table.ts';
import type { RateLimit } from './settings.ts';

export type Slot = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface LimitCounter {
  /**
   * Takes one slot of `limit` for `key` at `now`, or says how long until its window ends, once
   * whatever the SDK retries. With a `token` (the submission's id) a slot is taken once per token:
   * a retry of the same submission is let through on the slot its first post took, and takes no other.
   */
  take(name: string, limit: RateLimit, key: string, now: Date, token?: string): Promise<Slot>;
}

const KEEP_AFTER_WINDOW_S = 24 * 60 * 60;

export function limitCounter(client: DynamoDBClient, table: string): LimitCounter {
  const doc = DynamoDBDocumentClient.from(client);
  return {
    async take(name, limit, key, now, token) {
      const window = Math.floor(now.getTime() / limit.windowMs);
      const windowEnd = (window + 1) * limit.windowMs;
      const Key = { [LIMIT_KEY]: `${name}#${key}#${window}` };
      const ttl = Math.ceil(windowEnd / 1000) + KEEP_AFTER_WINDOW_S;
      // Every take carries an id (the submission's, or one of its own) kept beside the count (at most
      // `max` of them), and is conditional on its absence: the SDK sending a landed write again
      // meets its own id, and it counts once.
      const id = token ?? randomUUID();
      try {
        await doc.send(new UpdateCommand({
          TableName: table,
          Key,
          UpdateExpression: 'ADD #count :one, #tokens :tokens SET #ttl = :ttl',
          ConditionExpression: '(attribute_not_exists(#count) OR #count < :max) AND NOT contains(#tokens, :token)',
          ExpressionAttributeNames: { '#count': 'count', '#ttl': LIMIT_TTL_ATTRIBUTE, '#tokens': 'tokens' },
          ExpressionAttributeValues: { ':one': 1, ':max': limit.max, ':ttl': ttl, ':tokens': new Set([id]), ':token': id },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }));
        return { ok: true };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        // Full, or this id already holds a slot (its own landed write, or the same submission's first post): only the first costs anything.
        const tokens = error.Item?.tokens?.SS ?? [];
        if (tokens.includes(id)) return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now.getTime()) / 1000)) };
    },
  };
}
