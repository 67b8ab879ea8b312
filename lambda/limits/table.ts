// The counters behind the volume limits: one small DynamoDB table, apart from the leads (a scan of
// the leads must never meet a counter), each item one window of one key, deleted by TTL.

/** The table's partition key: `<limit>#<key>#<window number>`, e.g. `perAddress#203.0.113.7#2950123`. */
export const LIMIT_KEY = 'limitKey';
/** The TTL attribute (epoch seconds): a window's counter lives a little past its window. */
export const LIMIT_TTL_ATTRIBUTE = 'expiresAt';
/** The environment variable that names the table to the Lambdas. */
export const LIMITS_TABLE_ENV = 'LIMITS_TABLE';

/** The key schema every copy of the table is created with (CDK stack, dynalite, tests). */
export const LIMITS_TABLE_SCHEMA = {
  KeySchema: [{ AttributeName: LIMIT_KEY, KeyType: 'HASH' }],
  AttributeDefinitions: [{ AttributeName: LIMIT_KEY, AttributeType: 'S' }],
} as const;
