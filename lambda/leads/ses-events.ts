// What became of a lead's e-mail after SES took it: SES publishes the bounce, complaint and delivery
// events of the stack's configuration set to an SNS topic, and this Lambda (handler
// `index.sesEvents`) writes each on the leads it concerns, as `mail.delivery` ('delivered',
// 'bounced' or 'complained'), `mail.deliveryAt` and `mail.deliveryReason`, and logs the bounce and
// complaint metrics the stack's alarms watch. The e-mails go to the consultancy's own inbox, so a
// bounce or complaint means that inbox is refusing leads: the owner must hear of it at once.
//
// SES's events also settle a send whose answer never came (lambda/leads/resend.ts): every lead
// e-mail is tagged `send=<sendId>` (mail-lead.ts) and the lead keeps that id (`mail.sendId`), so a
// Send, Delivery, Bounce or Complaint event of that send marks a lead still pending sent (it went:
// no repeat), and a Reject marks it failed (SES took it but never sent it: the mailer tries again).
//
// A lead is found by the SES message id its record keeps (`mail.messageId`, written when SES took
// it) with a filtered Scan: the table holds hundreds of leads a year, and a GSI cannot index a
// nested attribute. A digest e-mail carries several leads under one message id, so every match is
// marked. The table is reached with the document client here, not through LeadStore: this function
// may only Scan and UpdateItem (infra/lib/mail-events.ts), and needs nothing else.
import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Logger } from '../log.ts';
import { METRICS, metricFields, type MetricName } from '../metrics.ts';
import { SEND_TAG } from './mail-lead.ts';
import { LEAD_KEY as KEY, type MailDelivery } from './record.ts';

/** The environment variable naming the SES configuration set every lead e-mail must be sent with. */
export const SES_CONFIGURATION_SET_ENV = 'SES_CONFIGURATION_SET';

/** What the recipient's mail server made of the e-mail, as SES reported it. */
export type { MailDelivery } from './record.ts';

export interface DeliveryMark {
  delivery: MailDelivery;
  /** ISO time of the event, as SES reported it. */
  at: string;
  /** Bounce type/subtype (`Permanent/General`) or the complaint's feedback type (`abuse`). */
  reason?: string;
}

/** The two operations this Lambda needs on the leads table. */
export interface DeliveryStore {
  /** The submissionIds of the leads whose e-mail had this SES message id. */
  findByMessageId(messageId: string): Promise<string[]>;
  /** Marks sent, with this message id, every lead of send `sendId` still pending; answers which. */
  confirmSent(sendId: string, messageId: string, at: string): Promise<string[]>;
  /** Marks pending and failed (`rejected`) every lead of send `sendId`; answers which. */
  markRejected(sendId: string, at: string): Promise<string[]>;
  /** Writes the mark on one lead; false when the lead is gone or already carries a bounce or complaint that a delivery must not hide. */
  mark(submissionId: string, messageId: string, mark: DeliveryMark): Promise<boolean>;
}

export type SesEventOutcome =
  | { kind: 'marked'; delivery: MailDelivery; messageId: string; leads: string[]; confirmed?: string[] }
  | { kind: 'confirmed'; messageId: string; leads: string[] }
  | { kind: 'rejected'; messageId: string; leads: string[] }
  | { kind: 'unmatched'; delivery: MailDelivery; messageId: string }
  | { kind: 'ignored'; type: string }
  | { kind: 'malformed'; reason: string };


export function deliveryStore(client: DynamoDBClient, table: string): DeliveryStore {
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

  /** The leads whose mail attribute `field` holds `value`, found by a filtered Scan (a report is rare; the table is small). */
  async function findByMail(field: 'sendId' | 'messageId', value: string): Promise<string[]> {
    const ids: string[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(new ScanCommand({
        TableName: table,
        ConsistentRead: true,
        FilterExpression: '#mail.#field = :value',
        ProjectionExpression: '#key',
        ExpressionAttributeNames: { '#mail': 'mail', '#field': field, '#key': KEY },
        ExpressionAttributeValues: { ':value': value },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }));
      for (const item of page.Items ?? []) ids.push(String(item[KEY]));
      start = page.LastEvaluatedKey;
    } while (start);
    return ids.sort();
  }

  /** One conditional update per lead of the send; answers the leads it changed. */
  async function updateEach(ids: readonly string[], sendId: string, condition: string, update: string, values: Record<string, unknown>): Promise<string[]> {
    const changed: string[] = [];
    for (const id of ids) {
      try {
        await doc.send(new UpdateCommand({
          TableName: table,
          Key: { [KEY]: id },
          ConditionExpression: `attribute_exists(#key) AND #mail.#sendId = :sendId${condition}`,
          UpdateExpression: update,
          ExpressionAttributeNames: { '#key': KEY, '#mail': 'mail', '#sendId': 'sendId', '#state': 'state' },
          ExpressionAttributeValues: { ':sendId': sendId, ...values },
        }));
        changed.push(id);
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    return changed;
  }

  return {
    async confirmSent(sendId, messageId, at) {
      const ids = await findByMail('sendId', sendId);
      return updateEach(ids, sendId, ' AND #mail.#state = :pending',
        `SET #mail.#state = :sent, #mail.messageId = :messageId, #mail.confirmedAt = :at${ids.length > 1 ? ', #mail.inDigest = :true' : ''} REMOVE #mail.lastError, #mail.claimedUntil, #mail.held`,
        { ':pending': 'pending', ':sent': 'sent', ':messageId': messageId, ':at': at, ...(ids.length > 1 ? { ':true': true } : {}) });
    },
    async markRejected(sendId, at) {
      return updateEach(await findByMail('sendId', sendId), sendId, '',
        'SET #mail.#state = :pending, #mail.lastError = :rejected, #mail.lastAttemptAt = :at REMOVE #mail.messageId, #mail.inDigest',
        { ':pending': 'pending', ':rejected': 'rejected', ':at': at });
    },
    findByMessageId: (messageId) => findByMail('messageId', messageId),
    async mark(submissionId, messageId, mark) {
      // A delivery report never hides a bounce or complaint that arrived first (SNS does not keep order).
      const keepWorse = mark.delivery === 'delivered' ? ' AND (attribute_not_exists(#mail.#delivery) OR #mail.#delivery = :delivery)' : '';
      try {
        await doc.send(new UpdateCommand({
          TableName: table,
          Key: { [KEY]: submissionId },
          // attribute_exists: a lead erased meanwhile must not come back as a bare mail state.
          ConditionExpression: `attribute_exists(#key) AND #mail.#messageId = :id${keepWorse}`,
          UpdateExpression: `SET #mail.#delivery = :delivery, #mail.#deliveryAt = :at${mark.reason ? ', #mail.#deliveryReason = :reason' : ' REMOVE #mail.#deliveryReason'}`,
          ExpressionAttributeNames: {
            '#key': KEY, '#mail': 'mail', '#messageId': 'messageId', '#delivery': 'delivery', '#deliveryAt': 'deliveryAt', '#deliveryReason': 'deliveryReason',
          },
          ExpressionAttributeValues: { ':id': messageId, ':delivery': mark.delivery, ':at': mark.at, ...(mark.reason ? { ':reason': mark.reason } : {}) },
        }));
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
  };
}


type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
/** Letters, digits and a few separators, at most 60 characters: a reason is a label, never free text. */
const label = (value: string): string => value.replace(/[^\w/ .-]/g, '').slice(0, 60);

const DELIVERIES: Record<string, MailDelivery> = { Bounce: 'bounced', Complaint: 'complained', Delivery: 'delivered' };
const DETAIL: Record<MailDelivery, string> = { bounced: 'bounce', complained: 'complaint', delivered: 'delivery' };
const METRIC: Partial<Record<MailDelivery, MetricName>> = { bounced: METRICS.bounces, complained: METRICS.complaints };

/**
 * One SES notification (the SNS message's text) read into the lead's message id and its mark. Both
 * shapes SES sends are read: configuration-set event publishing (`eventType`) and identity
 * feedback notifications (`notificationType`).
 */
/** What one notification says: the e-mail's message id, its send's id (the `send` tag) when it has one, whether it went, and any mark for the lead. */
export interface SesNotice {
  messageId: string;
  sendId?: string;
  /** Whether SES sent the e-mail (every event but a Reject says it did). */
  went: boolean;
  mark?: DeliveryMark;
}

/** Events that settle only a tagged send: it went (Send), or SES took it but never sent it (Reject). */
const SEND_EVENTS: Record<string, boolean> = { Send: true, Reject: false };

export function readSesNotification(message: string, now: Date): SesNotice | Extract<SesEventOutcome, { kind: 'ignored' | 'malformed' }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return { kind: 'malformed', reason: 'the message is not JSON' };
  }
  if (!isObject(parsed)) return { kind: 'malformed', reason: 'the message is not a JSON object' };
  const type = text(parsed.eventType) ?? text(parsed.notificationType);
  if (!type) return { kind: 'malformed', reason: 'the message has neither eventType nor notificationType' };
  const delivery = DELIVERIES[type];
  const tags = isObject(parsed.mail) && isObject(parsed.mail.tags) ? parsed.mail.tags : {};
  const sendTag = Array.isArray(tags[SEND_TAG]) ? text(tags[SEND_TAG][0]) : undefined;
  const sendId = sendTag && /^[\w-]{1,100}$/.test(sendTag) ? sendTag : undefined;
  // A Send or Reject of an e-mail that was not a lead's (no send tag) has nothing to settle.
  if (!delivery && !(type in SEND_EVENTS && sendId)) return { kind: 'ignored', type: label(type) };
  const messageId = isObject(parsed.mail) ? text(parsed.mail.messageId) : undefined;
  if (!messageId) return { kind: 'malformed', reason: `the ${type} notification has no mail.messageId` };
  if (!delivery) return { messageId, ...(sendId ? { sendId } : {}), went: SEND_EVENTS[type]! };
  const detail = parsed[DETAIL[delivery]];
  if (!isObject(detail)) return { kind: 'malformed', reason: `the ${type} notification has no ${DETAIL[delivery]} object` };

  const stamp = text(detail.timestamp);
  const at = stamp && !Number.isNaN(Date.parse(stamp)) ? new Date(stamp).toISOString() : now.toISOString();
  let reason: string | undefined;
  if (delivery === 'bounced') {
    reason = [text(detail.bounceType), text(detail.bounceSubType)].filter(Boolean).join('/') || 'bounce';
  } else if (delivery === 'complained') {
    reason = text(detail.complaintFeedbackType) ?? text(detail.complaintSubType) ?? 'complaint';
  }
  return { messageId, ...(sendId ? { sendId } : {}), went: true, mark: { delivery, at, ...(reason ? { reason: label(reason) } : {}) } };
}

export interface SesEventsOptions {
  store: DeliveryStore;
  log: Logger;
  now?: () => Date;
}

/**
 * Reads one notification and marks its leads. The bounce or complaint metric is logged before the
 * table is touched, so the alarm fires even when the lead cannot be marked (erased, or the table
 * unreachable: that error is thrown, and Lambda retries the event). A message that cannot be read
 * is logged and dropped: retrying would not make it readable.
 */
export async function recordSesNotification(message: string, options: SesEventsOptions): Promise<SesEventOutcome> {
  const now = (options.now ?? (() => new Date()))();
  const read = readSesNotification(message, now);
  if ('kind' in read) {
    if (read.kind === 'malformed') options.log({ level: 'error', event: 'ses_event_malformed', reason: read.reason });
    else options.log({ level: 'info', event: 'ses_event_ignored', type: read.type });
    return read;
  }
  const { messageId, sendId, mark } = read;
  // First settle the send: a lead whose send got no answer is now known sent (or not).
  let confirmed: string[] = [];
  if (sendId && read.went) confirmed = await options.store.confirmSent(sendId, messageId, mark?.at ?? now.toISOString());
  if (sendId && !read.went) {
    const rejected = await options.store.markRejected(sendId, now.toISOString());
    options.log({ level: 'warn', event: 'ses_event_rejected', messageId, leads: rejected });
    return { kind: 'rejected', messageId, leads: rejected };
  }
  if (confirmed.length > 0) options.log({ level: 'info', event: 'ses_event_confirmed_send', messageId, leads: confirmed });
  if (!mark) return { kind: 'confirmed', messageId, leads: confirmed };
  const metric = METRIC[mark.delivery];
  if (metric) {
    options.log({ level: 'error', event: `ses_${mark.delivery}`, messageId, reason: mark.reason, [metric]: 1, ...metricFields(now, [metric]) });
  }
  const found = await options.store.findByMessageId(messageId);
  const leads: string[] = [];
  for (const id of found) if (await options.store.mark(id, messageId, mark)) leads.push(id);
  if (found.length === 0) {
    // An erased lead, or an e-mail that was not a lead's (SES reports every send of the configuration set).
    options.log({ level: 'warn', event: 'ses_event_unmatched', delivery: mark.delivery, messageId });
    return { kind: 'unmatched', delivery: mark.delivery, messageId };
  }
  options.log({ level: 'info', event: 'ses_event_recorded', delivery: mark.delivery, messageId, leads });
  return { kind: 'marked', delivery: mark.delivery, messageId, leads, ...(confirmed.length ? { confirmed } : {}) };
}

/** The part of Lambda's SNS event this reads. */
export interface SnsEvent {
  Records: ReadonlyArray<{ Sns: { Message: string } }>;
}

/** The Lambda body: every record of the SNS event, in order. */
export function createSesEventsHandler(options: SesEventsOptions): (event: SnsEvent) => Promise<SesEventOutcome[]> {
  return async (event) => {
    const outcomes: SesEventOutcome[] = [];
    for (const record of event.Records ?? []) outcomes.push(await recordSesNotification(String(record.Sns?.Message ?? ''), options));
    return outcomes;
  };
}
