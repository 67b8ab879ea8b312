// Fixed-window counters in DynamoDB, one item per limit, key and window: an atomic conditional
// ADD takes a slot or fails when the window is full, so every Lambda instance (they share no
// memory) counts against the same figure. TTL deletes a window's item a day after it ends.
import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LIMIT_KEY, LIMIT_TTL_ATTRIBUTE } from './table.ts';
import type { RateLimit } from './settings.ts';

export type Slot = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface LimitCounter {
  /** Takes one slot of `limit` for `key` at `now`, or says how long until its window ends. */
  take(name: string, limit: RateLimit, key: string, now: Date): Promise<Slot>;
}

const KEEP_AFTER_WINDOW_S = 24 * 60 * 60;

export function limitCounter(client: DynamoDBClient, table: string): LimitCounter {
  const doc = DynamoDBDocumentClient.from(client);
  return {
    async take(name, limit, key, now) {
      const window = Math.floor(now.getTime() / limit.windowMs);
      const windowEnd = (window + 1) * limit.windowMs;
      try {
        await doc.send(new UpdateCommand({
          TableName: table,
          Key: { [LIMIT_KEY]: `${name}#${key}#${window}` },
          UpdateExpression: 'ADD #count :one SET #ttl = :ttl',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
          ExpressionAttributeNames: { '#count': 'count', '#ttl': LIMIT_TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':one': 1, ':max': limit.max, ':ttl': Math.ceil(windowEnd / 1000) + KEEP_AFTER_WINDOW_S },
        }));
        return { ok: true };
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) {
          return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now.getTime()) / 1000)) };
        }
        throw error;
      }
    },
  };
}
