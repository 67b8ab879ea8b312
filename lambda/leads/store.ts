// The leads table through the AWS SDK's DynamoDB document client: the few operations the
// handler, the retry mailer and `site leads` need, and nothing else. The handler's role may
// only PutItem and UpdateItem (infra/lib/leads.ts); reads, scans and deletes are for the
// retry mailer and the owner's CLI.
import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { EMAIL_INDEX, LEAD_KEY, type LeadRecord } from './record.ts';

export interface LeadStore {
  readonly table: string;
  /** Writes a new lead; 'duplicate' when its submissionId is already stored (the conditional write decides). */
  putNew(record: LeadRecord): Promise<'stored' | 'duplicate'>;
  /** Records that SES accepted the lead's e-mail (`inDigest`: one of several in a digest e-mail). */
  markSent(submissionId: string, messageId: string, at: Date, inDigest?: boolean): Promise<void>;
  /** Leaves the lead pending for the digest (the hour's cap on lead e-mails is reached), and lets go of its claim. */
  markHeld(submissionId: string): Promise<void>;
  /** Records a failed send attempt and the kind of its error (SES answered, or was never reached: the e-mail did not go). */
  markFailed(submissionId: string, kind: string, at: Date): Promise<void>;
  /**
   * Records a send that got no answer from SES: it may have been sent, so the lead stays pending but
   * is not sent again before a long quiet period (leads/resend.ts). Does nothing to a lead SES's own
   * events have meanwhile shown sent.
   */
  markUnanswered(submissionId: string, at: Date): Promise<void>;
  /**
   * Takes a pending lead for one send until `until`, as send `sendId`: false when it is sent already,
   * erased, or claimed by another run, so two retry runs (or a run and `site leads resend`) never both mail it.
   */
  claim(submissionId: string, now: Date, until: Date, sendId: string): Promise<boolean>;
  /** Names the send a claimed lead goes out in (a digest's, shared by its leads), before it is made. */
  markSending(submissionId: string, sendId: string): Promise<void>;
  get(submissionId: string): Promise<LeadRecord | undefined>;
  /** Every lead (a scan: the table holds a consultancy's leads, hundreds a year, not millions). */
  all(): Promise<LeadRecord[]>;
  /** Leads whose e-mail is still pending. */
  unsent(): Promise<LeadRecord[]>;
  /**
   * Deletes every record of an address (any case); answers how many. The email index is eventually
   * consistent, so a lead written a moment ago may not be in it yet: a strongly consistent scan of
   * the table follows, and whatever either finds is deleted.
   */
  eraseEmail(email: string): Promise<number>;
  /** Writes a record as it is (`site leads` import in tests, restores). */
  putRaw(record: LeadRecord): Promise<void>;
}

export function leadStore(client: DynamoDBClient, table: string): LeadStore {
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

  async function scan(filter?: { expression: string; values: Record<string, unknown>; names?: Record<string, string> }): Promise<LeadRecord[]> {
    const items: LeadRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(new ScanCommand({
        TableName: table,
        ConsistentRead: true,
        ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeValues: filter.values, ...(filter.names ? { ExpressionAttributeNames: filter.names } : {}) } : {}),
        ...(start ? { ExclusiveStartKey: start } : {}),
      }));
      items.push(...((page.Items ?? []) as LeadRecord[]));
      start = page.LastEvaluatedKey;
    } while (start);
    return items.sort((a, b) => a.receivedAt.localeCompare(b.receivedAt) || a.submissionId.localeCompare(b.submissionId));
  }

  /**
   * One send attempt recorded on an existing lead (an erased lead must not come back as a bare mail
   * state): `set` and `remove` say what it came to; the attempt count and time are kept alike.
   */
  async function recordAttempt(submissionId: string, at: Date, set: string, remove: string, values: Record<string, unknown>, names: Record<string, string> = {}, onlyPending = false): Promise<void> {
    try {
      await doc.send(new UpdateCommand({
        TableName: table,
        Key: { [LEAD_KEY]: submissionId },
        ConditionExpression: `attribute_exists(#key)${onlyPending ? ' AND #mail.#state = :pending' : ''}`,
        UpdateExpression: `${set}, #mail.lastAttemptAt = :at, #mail.attempts = #mail.attempts + :one ${remove}`,
        ExpressionAttributeNames: { '#key': LEAD_KEY, '#mail': 'mail', ...(onlyPending ? { '#state': 'state' } : {}), ...names },
        ExpressionAttributeValues: { ...values, ':at': at.toISOString(), ':one': 1, ...(onlyPending ? { ':pending': 'pending' } : {}) },
      }));
    } catch (error) {
      // Only a conditional write on a pending lead is let off: SES's events got there first.
      if (!(onlyPending && error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  /** One unconditional change to a stored lead's mail state (the lead must exist). */
  async function updateLead(submissionId: string, update: string, values: Record<string, unknown>): Promise<void> {
    await doc.send(new UpdateCommand({
      TableName: table,
      Key: { [LEAD_KEY]: submissionId },
      ConditionExpression: 'attribute_exists(#key)',
      UpdateExpression: update,
      ExpressionAttributeNames: { '#key': LEAD_KEY, '#mail': 'mail' },
      ExpressionAttributeValues: values,
    }));
  }

  return {
    table,
    async putNew(record) {
      try {
        await doc.send(new PutCommand({
          TableName: table,
          Item: record,
          ConditionExpression: 'attribute_not_exists(#key)',
          ExpressionAttributeNames: { '#key': LEAD_KEY },
        }));
        return 'stored';
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return 'duplicate';
        throw error;
      }
    },
    markSent: (submissionId, messageId, at, inDigest = false) => recordAttempt(submissionId, at,
      `SET #mail.#state = :sent, #mail.messageId = :id${inDigest ? ', #mail.inDigest = :true' : ''}`, 'REMOVE #mail.lastError, #mail.claimedUntil, #mail.held',
      { ':sent': 'sent', ':id': messageId, ...(inDigest ? { ':true': true } : {}) }, { '#state': 'state' }),
    markHeld: (submissionId) => updateLead(submissionId, 'SET #mail.held = :true REMOVE #mail.claimedUntil', { ':true': true }),
    markFailed: (submissionId, kind, at) => recordAttempt(submissionId, at,
      'SET #mail.lastError = :kind', 'REMOVE #mail.claimedUntil', { ':kind': kind }),
    markUnanswered: (submissionId, at) => recordAttempt(submissionId, at,
      'SET #mail.lastError = :kind, #mail.unanswered = if_not_exists(#mail.unanswered, :zero) + :one', 'REMOVE #mail.claimedUntil',
      { ':kind': 'unanswered', ':zero': 0 }, {}, true),
    markSending: (submissionId, sendId) => updateLead(submissionId, 'SET #mail.sendId = :sendId', { ':sendId': sendId }),
    async claim(submissionId, now, until, sendId) {
      try {
        await doc.send(new UpdateCommand({
          TableName: table,
          Key: { [LEAD_KEY]: submissionId },
          ConditionExpression: 'attribute_exists(#key) AND #mail.#state = :pending AND (attribute_not_exists(#mail.claimedUntil) OR #mail.claimedUntil < :now)',
          UpdateExpression: 'SET #mail.claimedUntil = :until, #mail.sendId = :sendId',
          ExpressionAttributeNames: { '#key': LEAD_KEY, '#mail': 'mail', '#state': 'state' },
          ExpressionAttributeValues: { ':pending': 'pending', ':now': now.toISOString(), ':until': until.toISOString(), ':sendId': sendId },
        }));
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
    async get(submissionId) {
      const found = await doc.send(new GetCommand({ TableName: table, Key: { [LEAD_KEY]: submissionId }, ConsistentRead: true }));
      return found.Item as LeadRecord | undefined;
    },
    all: () => scan(),
    unsent: () => scan({ expression: '#mail.#state = :pending', values: { ':pending': 'pending' }, names: { '#mail': 'mail', '#state': 'state' } }),
    async eraseEmail(email) {
      const keys: string[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await doc.send(new QueryCommand({
          TableName: table,
          IndexName: EMAIL_INDEX,
          KeyConditionExpression: 'emailKey = :email',
          ExpressionAttributeValues: { ':email': emailKeyOf(email) },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }));
        for (const item of page.Items ?? []) keys.push(String(item[LEAD_KEY]));
        start = page.LastEvaluatedKey;
      } while (start);
      const consistent = await scan({ expression: 'emailKey = :email', values: { ':email': emailKeyOf(email) } });
      for (const item of consistent) if (!keys.includes(item.submissionId)) keys.push(item.submissionId);
      for (const key of keys) await doc.send(new DeleteCommand({ TableName: table, Key: { [LEAD_KEY]: key } }));
      return keys.length;
    },
    async putRaw(record) {
      await doc.send(new PutCommand({ TableName: table, Item: record }));
    },
  };
}

/** The email index's key: the address trimmed and in lower case. */
export function emailKeyOf(email: string): string {
  return email.trim().toLowerCase();
}
