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

/** The key schema, attributes and index every copy of the table is created with (CDK stack, dynalite, tests). */
export const LEAD_TABLE_SCHEMA = {
  KeySchema: [{ AttributeName: LEAD_KEY, KeyType: 'HASH' }],
  AttributeDefinitions: [
    { AttributeName: LEAD_KEY, AttributeType: 'S' },
    { AttributeName: 'emailKey', AttributeType: 'S' },
  ],
  GlobalSecondaryIndexes: [
    { IndexName: EMAIL_INDEX, KeySchema: [{ AttributeName: 'emailKey', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } },
  ],
} as const;

/** Where the lead's e-mail stands: `pending` until SES accepts it, `sent` with its message id after. */
export type MailState = 'pending' | 'sent';

export interface LeadMail {
  state: MailState;
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
  /** True when the post filled the forms' hidden honeypot field: kept, but mailed only in the digest. */
  likelySpam?: boolean;
  mail: LeadMail;
  /** TTL, epoch seconds. */
  expiresAt: number;
};
