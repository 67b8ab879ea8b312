// Sliding-window counters in DynamoDB, one item per limit, key and window: the posts of the last
// full window's length are estimated as this window's count plus the share of the previous
// window's that the sliding window still covers, so a burst either side of a window's edge gets
// one window's worth, not two. An atomic conditional ADD takes a slot or fails when the estimate
// is full, so every Lambda instance (they share no memory) counts against the same figure. TTL
// deletes a window's item a day after it ends.
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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

/**
 * Milliseconds until the estimate has room again: while this window lasts, once the previous
 * window's share has shrunk enough; else into the next, where this window's `count` is the
 * previous one.
 */
export function untilRoom(limit: RateLimit, before: number, count: number, now: number, windowEnd: number): number {
  // ceil(before × covered) < max − count once covered ≤ (max − count − 1) / before.
  if (count < limit.max && before > 0) return Math.max(0, windowEnd - now - limit.windowMs * ((limit.max - count - 1) / before));
  if (count < limit.max) return 0;
  return windowEnd - now + limit.windowMs * (1 - (limit.max - 1) / count);
}

export function limitCounter(client: DynamoDBClient, table: string): LimitCounter {
  const doc = DynamoDBDocumentClient.from(client);
  return {
    async take(name, limit, key, now, token) {
      const window = Math.floor(now.getTime() / limit.windowMs);
      const windowEnd = (window + 1) * limit.windowMs;
      const Key = { [LIMIT_KEY]: `${name}#${key}#${window}` };
      // The previous window's count, weighed by how much of it the sliding window still covers.
      const previous = await doc.send(new GetCommand({ TableName: table, Key: { [LIMIT_KEY]: `${name}#${key}#${window - 1}` }, ConsistentRead: true }));
      const before = Number(previous.Item?.count ?? 0);
      const covered = (windowEnd - now.getTime()) / limit.windowMs;
      // Rounded up: never more lenient than the posts the window really covers.
      const room = limit.max - Math.ceil(before * covered);
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
          // With no room at all the write is still tried, so a retry of a submission that holds a slot finds its token; a window not started yet fails it.
          ConditionExpression: `${room > 0 ? '(attribute_not_exists(#count) OR #count < :room)' : '#count < :room'} AND NOT contains(#tokens, :token)`,
          ExpressionAttributeNames: { '#count': 'count', '#ttl': LIMIT_TTL_ATTRIBUTE, '#tokens': 'tokens' },
          ExpressionAttributeValues: { ':one': 1, ':room': room, ':ttl': ttl, ':tokens': new Set([id]), ':token': id },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }));
        return { ok: true };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        // Full, or this id already holds a slot (its own landed write, or the same submission's first post): only the first costs anything.
        const tokens = error.Item?.tokens?.SS ?? [];
        if (tokens.includes(id)) return { ok: true };
        const count = Number(error.Item?.count?.N ?? 0);
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(untilRoom(limit, before, count, now.getTime(), windowEnd) / 1000)) };
      }
    },
  };
}
