// The leads table through the AWS SDK's DynamoDB document client: the few operations the
// handler, the retry mailer and `site leads` need, and nothing else. The handler's role may
// only PutItem and UpdateItem (infra/lib/leads.ts); reads and deletes are for the retry mailer
// and the owner's CLI.
//
// One sender at a time. Every change of a lead's mail state is a conditional write: a claim on the
// version its writer read (mail.version, raised by every write), every later write of a send on
// the send id that holds the lead (mail.sendId). So a writer holding an old copy, or a send that
// lost the lead to SES's Reject event or to a later send, changes nothing and sends nothing.
import { randomUUID } from 'node:crypto';
import { type AttributeValue, ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  DeleteCommand, DynamoDBDocumentClient, GetCommand, paginateQuery, paginateScan, PutCommand, QueryCommand, UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { EMAIL_INDEX, LEAD_KEY, likelySpamReason, UNSENT_INDEX, UNSENT_PARTITIONS, unsentShardOf, type LeadRecord } from './record.ts';

/** Leads one read of the index of unsent leads holds at most, over all its shards: well within the mailer's 256 MB (a lead is at most a few tens of KB). */
export const UNSENT_PAGE = 240;

/** What a conditional write of the mail state came to: done, or refused with the lead as it now stands (absent when erased). */
export type WriteResult = { ok: true; lead: LeadRecord } | { ok: false; current?: LeadRecord };

/** A claim on a pending lead for one send (LeadStore.claim). */
export interface ClaimRequest {
  now: Date;
  until: Date;
  /** The send's id: every later write of this send is conditional on it. */
  sendId: string;
  /** True when the e-mail goes to SES straight after (a lead on its own); false for a digest's lead, which markSending makes so. */
  sending: boolean;
}

/** What the store made of the answer SES gave one send, for each of its leads. */
export type SentResult = 'sent' | 'rejected' | 'taken';

export interface LeadStore {
  readonly table: string;
  /**
   * Writes a new lead, pending and claimed by no one; 'duplicate' when its submissionId is already
   * stored (the conditional write decides). A write that landed but whose answer was lost, so that
   * the SDK's retry met its own record, is 'stored': the stored record carries this one's write id
   * (unless a sender has changed it since, when it is theirs to send).
   */
  putNew(record: LeadRecord): Promise<'stored' | 'duplicate'>;
  /**
   * Takes a pending lead for one send, on the copy the caller read: refused when the lead changed
   * since (any write raises mail.version), is sent, or is claimed by another sender. Taking over a
   * claim that lapsed mid-send records for good that the lapsed send may have reached the inbox.
   */
  claim(lead: LeadRecord, request: ClaimRequest): Promise<WriteResult>;
  /** Moves a lead claimed as `from` to the digest send `to`, which may now reach SES. */
  markSending(submissionId: string, from: string, to: string): Promise<WriteResult>;
  /**
   * Records that SES took send `sendId` of the lead. Refused when SES's Reject event for that send
   * got there first ('rejected'), or the send no longer holds the lead ('taken'); 'sent' when SES's
   * Send event marked it sent already.
   */
  markSent(submissionId: string, sendId: string, messageId: string, at: Date, inDigest?: boolean): Promise<SentResult>;
  /** Records a failed attempt of send `sendId` and the kind of its error (the e-mail did not go), letting go of the claim; `refused` counts one more refusal of its content. */
  markFailed(submissionId: string, sendId: string, kind: string, at: Date, refused?: boolean): Promise<WriteResult>;
  /** Records that send `sendId` got no answer from SES: it may have gone, which the lead keeps for good (mail.maybeSent). */
  markUnanswered(submissionId: string, sendId: string, at: Date): Promise<WriteResult>;
  /** Leaves a lead no one holds for the digest, on the copy the caller read (refused when it changed since). */
  hold(lead: LeadRecord): Promise<WriteResult>;
  /** Lets go of send `sendId`'s claim before anything reached SES: `held` leaves the lead for the digest. */
  release(submissionId: string, sendId: string, held: boolean): Promise<WriteResult>;
  get(submissionId: string): Promise<LeadRecord | undefined>;
  /** Every lead (a scan, for the owner's `site leads list` and `export`). */
  all(): Promise<LeadRecord[]>;
  /**
   * Leads whose e-mail is still pending, from the sparse index of unsent leads (eventually
   * consistent: a claim checks each): real leads oldest first, then the likely spam oldest first.
   * Read a page at a time (at most `page` leads held over all the shards), so a caller that stops
   * early reads no more.
   */
  pending(page?: number): AsyncIterable<LeadRecord>;
  /** Every pending lead, in the same order (`site leads` and tests: the mailer pages through pending()). */
  unsent(): Promise<LeadRecord[]>;
  /**
   * Deletes every record of an address (any case); answers how many. The email index is eventually
   * consistent, so a lead written a moment ago may not be in it yet: a strongly consistent scan of
   * the table follows, and whatever either finds is deleted.
   */
  eraseEmail(email: string): Promise<number>;
  /** Writes a record as it is (`site leads` import in tests, restores), with the keys of the indexes its mail state calls for. */
  putRaw(record: LeadRecord): Promise<void>;
  /**
   * Gives the index keys to pending leads stored before the indexes existed, which the index of
   * unsent leads cannot see: a scan, for the owner's `site leads resend --unsent` only. Answers how many.
   */
  indexOlderLeads(): Promise<number>;
}

/** The index keys a record's mail state calls for: `unsent` while pending, `sendKey` while it has a send, `messageKey` once SES took it. */
export function withIndexKeys(record: LeadRecord): LeadRecord {
  const { unsent: _unsent, sendKey: _sendKey, messageKey: _messageKey, ...rest } = record;
  return {
    ...rest,
    unsentAt: unsentOrder(record),
    ...(record.mail?.state === 'pending' ? { unsent: unsentShardOf(String(record.submissionId)) } : {}),
    ...(typeof record.mail?.sendId === 'string' && record.mail.sendId ? { sendKey: record.mail.sendId } : {}),
    ...(typeof record.mail?.messageId === 'string' && record.mail.messageId ? { messageKey: record.mail.messageId } : {}),
  };
}

/** Where a lead sorts among the pending: real (0) before likely spam (1), then oldest first. */
export function unsentOrder(record: Pick<LeadRecord, 'receivedAt' | 'submissionId' | 'likelySpam'>): string {
  return `${likelySpamReason(record) ? 1 : 0} ${String(record.receivedAt)} ${String(record.submissionId)}`;
}

const MAIL_NAMES = { '#key': LEAD_KEY, '#mail': 'mail', '#state': 'state', '#version': 'version', '#sendId': 'sendId', '#writeId': 'writeId' };
/** Every change of the mail state raises the version by one and stamps the write's own id (to know it again if its answer is lost). */
const BUMP = '#mail.#version = if_not_exists(#mail.#version, :zero) + :one, #mail.#writeId = :writeId';
/** A write of send `:held`, which must still hold the pending lead. */
const HELD = 'attribute_exists(#key) AND #mail.#state = :pending AND #mail.#sendId = :held';
/**
 * Part of every change's condition: the write has not landed already. A write that lands and loses
 * its answer is sent again by the SDK; without this, a change whose other conditions it leaves true
 * (a failed attempt, an unanswered one) would be applied twice, counting one refusal as two.
 */
const NOT_LANDED = '(attribute_not_exists(#mail.#writeId) OR #mail.#writeId <> :writeId)';

export function leadStore(client: DynamoDBClient, table: string): LeadStore {
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

  async function scan(filter?: { expression: string; values: Record<string, unknown>; names?: Record<string, string> }): Promise<LeadRecord[]> {
    const items: LeadRecord[] = [];
    const pages = paginateScan({ client: doc }, {
      TableName: table,
      ConsistentRead: true,
      ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeValues: filter.values, ...(filter.names ? { ExpressionAttributeNames: filter.names } : {}) } : {}),
    });
    for await (const page of pages) items.push(...((page.Items ?? []) as LeadRecord[]));
    return items.sort((a, b) => String(a.receivedAt).localeCompare(String(b.receivedAt)) || a.submissionId.localeCompare(b.submissionId));
  }

  /**
   * One conditional change of a lead's mail state, applied once: its condition also asks that this
   * write's own id is not the last one stamped (NOT_LANDED). Refused, it answers the lead as it now
   * stands (ReturnValuesOnConditionCheckFailure); when that carries this write's own id, the write
   * had landed and only its answer was lost (the SDK's retry met it), so it counts as done.
   */
  async function change(submissionId: string, condition: string, update: string, values: Record<string, unknown>, names: Record<string, string> = {}): Promise<WriteResult> {
    const writeId = randomUUID();
    try {
      const answer = await doc.send(new UpdateCommand({
        TableName: table,
        Key: { [LEAD_KEY]: submissionId },
        ConditionExpression: `${condition} AND ${NOT_LANDED}`,
        UpdateExpression: update,
        // Only the names the expressions use: DynamoDB refuses a request that defines one it does not.
        ExpressionAttributeNames: Object.fromEntries(Object.entries({ ...MAIL_NAMES, ...names }).filter(([name]) => `${condition} ${NOT_LANDED} ${update}`.includes(name))),
        ExpressionAttributeValues: { ...values, ':zero': 0, ':one': 1, ':writeId': writeId },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }));
      return { ok: true, lead: answer.Attributes as LeadRecord };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const current = error.Item ? (unmarshall(error.Item as Record<string, AttributeValue>) as LeadRecord) : undefined;
      if (current?.mail?.writeId === writeId) return { ok: true, lead: current };
      return current ? { ok: false, current } : { ok: false };
    }
  }

  /** A change made by send `sendId` while it holds the lead. */
  const byHolder = (submissionId: string, sendId: string, update: string, values: Record<string, unknown>, names: Record<string, string> = {}) =>
    change(submissionId, HELD, update, { ...values, ':pending': 'pending', ':held': sendId }, names);

  return {
    table,
    async putNew(record) {
      try {
        await doc.send(new PutCommand({
          TableName: table,
          Item: withIndexKeys({ ...record, mail: { ...record.mail, version: 0 } }),
          ConditionExpression: 'attribute_not_exists(#key)',
          ExpressionAttributeNames: { '#key': LEAD_KEY },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }));
        return 'stored';
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        // Its own first attempt, landed with its answer lost: the same write id (a fresh UUID per post).
        const stored = error.Item ? (unmarshall(error.Item as Record<string, AttributeValue>) as LeadRecord) : undefined;
        return stored?.mail?.writeId !== undefined && stored.mail.writeId === record.mail.writeId ? 'stored' : 'duplicate';
      }
    },
    async claim(lead, request) {
      const read = lead.mail.version;
      const lapsed = lead.mail.claimedUntil !== undefined && Date.parse(lead.mail.claimedUntil) <= request.now.getTime();
      // A lapsed claim whose holder may have reached SES (or one from before `sending` was kept) may have sent it.
      const tookOver = lapsed && (lead.mail.sending === true || read === undefined) ? 1 : 0;
      return change(lead.submissionId,
        `attribute_exists(#key) AND #mail.#state = :pending AND ${read === undefined ? 'attribute_not_exists(#mail.#version)' : '#mail.#version = :read'} AND (attribute_not_exists(#mail.claimedUntil) OR #mail.claimedUntil <= :now)`,
        `SET #mail.claimedUntil = :until, #mail.#sendId = :sendId, sendKey = :sendId, #mail.maybeSent = if_not_exists(#mail.maybeSent, :legacy) + :took${request.sending ? ', #mail.sending = :true' : ''}, ${BUMP}${request.sending ? '' : ' REMOVE #mail.sending'}`,
        {
          ':pending': 'pending', ':now': request.now.toISOString(), ':until': request.until.toISOString(), ':sendId': request.sendId,
          ':legacy': lead.mail.unanswered ?? 0, ':took': tookOver, ...(read === undefined ? {} : { ':read': read }), ...(request.sending ? { ':true': true } : {}),
        });
    },
    markSending: (submissionId, from, to) => byHolder(submissionId, from,
      `SET #mail.#sendId = :to, sendKey = :to, #mail.sending = :true, ${BUMP}`, { ':to': to, ':true': true }),
    async markSent(submissionId, sendId, messageId, at, inDigest = false) {
      const result = await byHolder(submissionId, sendId,
        `SET #mail.#state = :sent, #mail.messageId = :id, messageKey = :id, #mail.lastAttemptAt = :at, #mail.attempts = #mail.attempts + :one${inDigest ? ', #mail.inDigest = :true' : ''}, ${BUMP} REMOVE #mail.lastError, #mail.claimedUntil, #mail.held, #mail.sending, unsent`,
        { ':sent': 'sent', ':id': messageId, ':at': at.toISOString(), ...(inDigest ? { ':true': true } : {}) });
      if (result.ok) return 'sent';
      if (result.current?.mail?.state === 'sent' && result.current.mail.messageId === messageId) return 'sent';
      return result.current?.mail?.rejectedSend === sendId ? 'rejected' : 'taken';
    },
    markFailed: (submissionId, sendId, kind, at, refused = false) => byHolder(submissionId, sendId,
      `SET #mail.lastError = :kind, #mail.lastAttemptAt = :at, #mail.attempts = #mail.attempts + :one${refused ? ', #mail.refusals = if_not_exists(#mail.refusals, :zero) + :one' : ''}, ${BUMP} REMOVE #mail.claimedUntil, #mail.sending`,
      { ':kind': kind, ':at': at.toISOString() }),
    markUnanswered: (submissionId, sendId, at) => byHolder(submissionId, sendId,
      `SET #mail.lastError = :kind, #mail.lastAttemptAt = :at, #mail.attempts = #mail.attempts + :one, #mail.maybeSent = if_not_exists(#mail.maybeSent, :zero) + :one, ${BUMP} REMOVE #mail.claimedUntil, #mail.sending`,
      { ':kind': 'unanswered', ':at': at.toISOString() }),
    hold: (lead) => change(lead.submissionId,
      `attribute_exists(#key) AND #mail.#state = :pending AND ${lead.mail.version === undefined ? 'attribute_not_exists(#mail.#version)' : '#mail.#version = :read'}`,
      `SET #mail.held = :true, ${BUMP}`,
      { ':pending': 'pending', ':true': true, ...(lead.mail.version === undefined ? {} : { ':read': lead.mail.version }) }),
    release: (submissionId, sendId, held) => byHolder(submissionId, sendId,
      `SET ${held ? '#mail.held = :true, ' : ''}${BUMP} REMOVE #mail.claimedUntil, #mail.sending`, held ? { ':true': true } : {}),
    async get(submissionId) {
      const found = await doc.send(new GetCommand({ TableName: table, Key: { [LEAD_KEY]: submissionId }, ConsistentRead: true }));
      return found.Item as LeadRecord | undefined;
    },
    all: () => scan(),
    async *pending(page = UNSENT_PAGE) {
      // One cursor per shard, each holding one page of its shard; the lead that sorts first of all their heads goes next.
      const limit = Math.max(1, Math.floor(page / UNSENT_PARTITIONS.length));
      const shards = UNSENT_PARTITIONS.map((partition) => ({ partition, items: [] as LeadRecord[], next: undefined as Record<string, unknown> | undefined, done: false }));
      const fill = async (shard: (typeof shards)[number]) => {
        while (shard.items.length === 0 && !shard.done) {
          const answer = await doc.send(new QueryCommand({
            TableName: table,
            IndexName: UNSENT_INDEX,
            KeyConditionExpression: 'unsent = :shard',
            ExpressionAttributeValues: { ':shard': shard.partition },
            Limit: limit,
            ...(shard.next ? { ExclusiveStartKey: shard.next } : {}),
          }));
          shard.items = ((answer.Items ?? []) as LeadRecord[]).sort((a, b) => unsentOrder(a).localeCompare(unsentOrder(b)));
          shard.next = answer.LastEvaluatedKey;
          shard.done = !shard.next;
        }
      };
      await Promise.all(shards.map(fill));
      for (;;) {
        let first: (typeof shards)[number] | undefined;
        for (const shard of shards) if (shard.items.length && (!first || unsentOrder(shard.items[0]!) < unsentOrder(first.items[0]!))) first = shard;
        if (!first) return;
        yield first.items.shift()!;
        await fill(first);
      }
    },
    async unsent() {
      const items: LeadRecord[] = [];
      for await (const lead of this.pending()) items.push(lead);
      return items;
    },
    async eraseEmail(email) {
      const keys: string[] = [];
      const pages = paginateQuery({ client: doc }, {
        TableName: table,
        IndexName: EMAIL_INDEX,
        KeyConditionExpression: 'emailKey = :email',
        ExpressionAttributeValues: { ':email': emailKeyOf(email) },
      });
      for await (const page of pages) for (const item of page.Items ?? []) keys.push(String(item[LEAD_KEY]));
      const consistent = await scan({ expression: 'emailKey = :email', values: { ':email': emailKeyOf(email) } });
      for (const item of consistent) if (!keys.includes(item.submissionId)) keys.push(item.submissionId);
      for (const key of keys) await doc.send(new DeleteCommand({ TableName: table, Key: { [LEAD_KEY]: key } }));
      return keys.length;
    },
    async putRaw(record) {
      await doc.send(new PutCommand({ TableName: table, Item: withIndexKeys(record) }));
    },
    async indexOlderLeads() {
      const older = await scan({ expression: '#mail.#state = :pending AND attribute_not_exists(unsentAt)', values: { ':pending': 'pending' }, names: { '#mail': 'mail', '#state': 'state' } });
      let indexed = 0;
      for (const lead of older) {
        const keys = withIndexKeys(lead);
        const result = await change(lead.submissionId, 'attribute_exists(#key) AND #mail.#state = :pending AND attribute_not_exists(unsentAt)',
          `SET unsent = :unsent, unsentAt = :unsentAt${keys.sendKey ? ', sendKey = :sendKey' : ''}, ${BUMP}`,
          { ':pending': 'pending', ':unsent': keys.unsent, ':unsentAt': keys.unsentAt, ...(keys.sendKey ? { ':sendKey': keys.sendKey } : {}) },
          {});
        if (result.ok) indexed += 1;
      }
      return indexed;
    },
  };
}

/** The email index's key: the address trimmed and in lower case. */
export function emailKeyOf(email: string): string {
  return email.trim().toLowerCase();
}
