// A lead as it is stored in DynamoDB: the one shape the form handler writes, the retry mailer and
// `site leads` read, and the CDK stack and the local store (dynalite) declare. Stored before it is
// e-mailed, so a lead outlives any mail outage.
import type { FormName } from '../../forms/names.ts';
import type { LeadFieldValues } from '../../forms/fields.ts';

/** The table's partition key: the browser's random UUID, or one the server derives for a plain form post. */
export const LEAD_KEY = 'submissionId';
/** The global secondary index on `emailKey`, by which `site leads erase --email` finds every record of an address. */
export const EMAIL_INDEX = 'byEmail';
/** The TTL attribute: epoch seconds after which DynamoDB deletes the record (the retention period of content/site.yaml). */
export const TTL_ATTRIBUTE = 'expiresAt';
/**
 * The sparse index of unsent leads: only a lead whose e-mail is pending carries `unsent` (a GSI
 * cannot index the nested `mail.state`), so the mailer reads the pending leads, real before likely
 * spam and oldest first, a page at a time, without reading the table. Its key is sharded
 * (UNSENT_SHARDS values, by a hash of the submissionId), so a flood of pending leads spreads its
 * index writes over as many partitions instead of throttling one, and with it the table's puts.
 */
export const UNSENT_INDEX = 'byUnsent';
/** The index on `sendKey` (a copy of `mail.sendId`): SES's events find the leads of their send with one Query. */
export const SEND_INDEX = 'bySend';
/** The index on `messageKey` (a copy of `mail.messageId`): a report that carries no send tag finds its leads by SES's message id. */
export const MESSAGE_INDEX = 'byMessage';
/** The value of `unsent` on pending leads stored before the index was sharded: read as one more shard. */
export const UNSENT_VALUE = 'pending';
/** The shards of the index of unsent leads. */
export const UNSENT_SHARDS = 8;

/** The index key of a pending lead: its shard, from a hash of its submissionId (FNV-1a). */
export function unsentShardOf(submissionId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < submissionId.length; i += 1) hash = Math.imul(hash ^ submissionId.charCodeAt(i), 0x01000193);
  return `${UNSENT_VALUE}#${(hash >>> 0) % UNSENT_SHARDS}`;
}

/** Every value `unsent` may hold: the shards, and the one partition of leads stored before them. */
export const UNSENT_PARTITIONS = [...Array.from({ length: UNSENT_SHARDS }, (_, n) => `${UNSENT_VALUE}#${n}`), UNSENT_VALUE];

/** The key schema, attributes and index every copy of the table is created with (CDK stack, dynalite, tests). */
export const LEAD_TABLE_SCHEMA = {
  KeySchema: [{ AttributeName: LEAD_KEY, KeyType: 'HASH' }],
  AttributeDefinitions: [
    { AttributeName: LEAD_KEY, AttributeType: 'S' },
    { AttributeName: 'emailKey', AttributeType: 'S' },
    { AttributeName: 'unsent', AttributeType: 'S' },
    { AttributeName: 'unsentAt', AttributeType: 'S' },
    { AttributeName: 'sendKey', AttributeType: 'S' },
    { AttributeName: 'messageKey', AttributeType: 'S' },
  ],
  GlobalSecondaryIndexes: [
    { IndexName: EMAIL_INDEX, KeySchema: [{ AttributeName: 'emailKey', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } },
    { IndexName: UNSENT_INDEX, KeySchema: [{ AttributeName: 'unsent', KeyType: 'HASH' }, { AttributeName: 'unsentAt', KeyType: 'RANGE' }], Projection: { ProjectionType: 'ALL' } },
    { IndexName: SEND_INDEX, KeySchema: [{ AttributeName: 'sendKey', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } },
    { IndexName: MESSAGE_INDEX, KeySchema: [{ AttributeName: 'messageKey', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } },
  ],
} as const;

/** Why a lead is likely spam (LeadRecord.likelySpam). */
export type LikelySpam = 'hidden field filled' | 'past its network\'s limit' | 'past its e-mail address\'s limit';

/** The reason a record gives for being likely spam, or undefined for a real lead. */
export function likelySpamReason(record: { likelySpam?: unknown }): string | undefined {
  if (record.likelySpam === true) return 'hidden field filled';
  return typeof record.likelySpam === 'string' && record.likelySpam ? record.likelySpam : undefined;
}

/** Where the lead's e-mail stands: `pending` until SES accepts it, `sent` with its message id after. */
export type MailState = 'pending' | 'sent';

export interface LeadMail {
  state: MailState;
  /**
   * Raised by one on every change of the mail state: each change is a conditional write on the
   * version its writer read (or on the send id it holds), so a writer holding an old copy changes
   * nothing (lambda/leads/store.ts). Absent on a lead stored before versions: read as 0.
   */
  version?: number;
  /** The id of the write that made the last change: a writer whose answer was lost knows its own write by it. */
  writeId?: string;
  /** Send attempts so far, by the handler and the retry mailer together. */
  attempts: number;
  /** SES's MessageId, once sent. */
  messageId?: string;
  /**
   * The kind of the last failure (`throttled`, `connection`, `unavailable`, `rejected`, …), never its
   * raw text; `unanswered` when the request left but SES gave no answer in time, so the e-mail may
   * have been sent (lambda/ses-errors.ts).
   */
  lastError?: string;
  /** Sends of this lead that got no answer from SES (each may have reached the inbox): any later e-mail of it says it is a repeat. */
  unanswered?: number;
  /**
   * Sends of this lead that may have reached the inbox, recorded for good: each unanswered one, and
   * each whose sender stopped mid-send (its claim lapsed with `sending` set), counted by the write
   * that takes the lead over. Never lowered; any later e-mail of the lead says it may be a repeat.
   */
  maybeSent?: number;
  /** True once the holder of the claim may have handed the e-mail to SES: a lapsed claim with it set is a send that may have gone. */
  sending?: boolean;
  /** Sends SES refused for this e-mail's own content or address (`refused`); past two, the lead is set aside for the owner. */
  refusals?: number;
  /**
   * Why the mailer stopped sending this lead on its own (`damaged: …`, `refused`, `maybe-sent`): it
   * stays pending, and the mailer's log and the set-aside alarm name it until the owner sends it
   * with `site leads resend --id` or erases it.
   */
  setAside?: string;
  /** The send SES rejected after taking it (its Reject event): an answer for it that comes later does not mark the lead sent. */
  rejectedSend?: string;
  /**
   * The id of the send that holds the lead, or made its last attempt: every SendEmail is tagged
   * `send=<sendId>`, so SES's own events (Send, Delivery, Reject) find the leads it carried even when
   * SES's answer never came (lambda/leads/ses-events.ts).
   */
  sendId?: string;
  /** ISO time SES's own event showed a send sent whose answer never came (lambda/leads/ses-events.ts). */
  confirmedAt?: string;
  /** ISO time of the last attempt. */
  lastAttemptAt?: string;
  /** ISO time until which one sender (the handler's first send, a retry run) holds the lead (see LeadStore.claim). */
  claimedUntil?: string;
  /** True while the lead waits for the digest: it arrived past the hour's cap on lead e-mails, or past the limit of posts naming its e-mail address. */
  held?: boolean;
  /** True when it was sent as one of several leads in a digest e-mail (messageId is the digest's). */
  inDigest?: boolean;
  /** What SES reported after it took the e-mail (lambda/leads/ses-events.ts): a bounce or complaint means the inbox never had it. */
  delivery?: MailDelivery;
  /** ISO time of that report. */
  deliveryAt?: string;
  /** The bounce's type and sub-type, or the complaint's kind. */
  deliveryReason?: string;
}

export type MailDelivery = 'delivered' | 'bounced' | 'complained';

/**
 * A stored lead. Its text is one attribute per text field of either form (forms/fields.ts: name,
 * email, company, message, …), each '' when not given or not on its form; a lead stored before a
 * field existed lacks that attribute, and is read as ''.
 */
export type LeadRecord = LeadFieldValues & {
  submissionId: string;
  form: FormName;
  /** ISO time the handler received the post (the browser's clock is not trusted). */
  receivedAt: string;
  /** The address in lower case: the email index's key. */
  emailKey: string;
  /** Assessment only: each question's text → the chosen answer's label, in the questions' order. */
  assessment?: Record<string, string>;
  /** The page or origin the post came from. */
  source: string;
  /**
   * Why the lead is likely spam, when it is: the hidden honeypot field filled (`true` on older
   * records), or past the limit on its IPv6 /48 or on its e-mail address. Kept and mailed, but only
   * in the digest, after every other held lead, and flagged there, in the CSV and in `site leads list`.
   */
  likelySpam?: boolean | LikelySpam;
  mail: LeadMail;
  /** Its shard (unsentShardOf) while the e-mail is unsent, absent once sent: the key of the sparse index of unsent leads (UNSENT_INDEX). */
  unsent?: string;
  /**
   * The sort key of that index: 0 for a real lead or 1 for a likely-spam one, then receivedAt and
   * submissionId, so each shard reads real leads oldest first, then the likely spam, and each lead
   * has a key of its own (dynalite tells entries under one index key apart by six hex digits of a
   * hash of the table key, which 100,000 leads would share). Written once, kept.
   */
  unsentAt?: string;
  /** A copy of `mail.sendId`, the key of the index SES's events find their leads by (SEND_INDEX). */
  sendKey?: string;
  /** A copy of `mail.messageId` once SES took the e-mail, the key of MESSAGE_INDEX. */
  messageKey?: string;
  /** TTL, epoch seconds. */
  expiresAt: number;
};
