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
// A lead is found by its send's id, through the index on `sendKey` (a top-level copy of
// `mail.sendId`: a GSI cannot index a nested attribute), never by reading the table: one Query, then
// one conditional update per lead (two when the sender's own answer has not been written yet), so
// a lead's event settles in three requests at most. A digest e-mail carries several leads under one
// send, so each is marked. The table is reached with the document client here, not through
// LeadStore: this function may only Query the index and UpdateItem (infra/lib/mail-events.ts).
import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Logger } from '../log.ts';
import { METRICS, metricFields, type MetricName } from '../metrics.ts';
import { SEND_TAG } from './mail-lead.ts';
import { LEAD_KEY as KEY, MESSAGE_INDEX, SEND_INDEX, unsentShardOf, type MailDelivery } from './record.ts';

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

/** What this Lambda does to the leads table: one Query to find a send's leads, one or two conditional updates for each. */
export interface DeliveryStore {
  /** The submissionIds of the leads send `sendId` carries (the index on sendKey). */
  leadsOfSend(sendId: string): Promise<string[]>;
  /** The submissionIds of the leads SES took as this message id (the index on messageKey), for a report with no send tag. */
  leadsOfMessage(messageId: string): Promise<string[]>;
  /** Marks the lead sent by send `sendId` (with a delivery mark, if any) while it is pending; false when it is not (sent already, or taken by another send). */
  confirmSent(submissionId: string, sendId: string, messageId: string, at: string, mark?: DeliveryMark): Promise<boolean>;
  /** The lead is pending again: SES took send `sendId` but never sent it. Counts a refusal of its content; false when the send no longer holds it. */
  markRejected(submissionId: string, sendId: string, at: string): Promise<boolean>;
  /** Writes the mark on a lead sent with this message id; false when it is not (yet) marked sent with it, or already carries a bounce or complaint that a delivery must not hide. */
  mark(submissionId: string, messageId: string, mark: DeliveryMark): Promise<boolean>;
}

export type SesEventOutcome =
  | { kind: 'marked'; delivery: MailDelivery; messageId: string; leads: string[]; confirmed?: string[] }
  | { kind: 'confirmed'; messageId: string; leads: string[] }
  | { kind: 'rejected'; messageId: string; leads: string[] }
  | { kind: 'unmatched'; delivery: MailDelivery; messageId: string }
  | { kind: 'ignored'; type: string }
  | { kind: 'malformed'; reason: string };

const NAMES = { '#key': KEY, '#mail': 'mail', '#state': 'state', '#version': 'version', '#writeId': 'writeId' };
const BUMP = '#mail.#version = if_not_exists(#mail.#version, :zero) + :one, #mail.#writeId = :writeId';
/** The send was not rejected already (a Reject delivered twice counts once; a Send after it changes nothing). */
const NOT_REJECTED = '(attribute_not_exists(#mail.rejectedSend) OR #mail.rejectedSend <> :sendId)';
const DELIVERY_NAMES = { '#delivery': 'delivery', '#deliveryAt': 'deliveryAt', '#deliveryReason': 'deliveryReason' };

/** The SET and REMOVE parts a delivery mark adds to an update. */
function markParts(mark: DeliveryMark | undefined): { set: string; remove: string; values: Record<string, unknown> } {
  if (!mark) return { set: '', remove: '', values: {} };
  return {
    set: `, #mail.#delivery = :delivery, #mail.#deliveryAt = :deliveryAt${mark.reason ? ', #mail.#deliveryReason = :reason' : ''}`,
    remove: mark.reason ? '' : ', #mail.#deliveryReason',
    values: { ':delivery': mark.delivery, ':deliveryAt': mark.at, ...(mark.reason ? { ':reason': mark.reason } : {}) },
  };
}

export function deliveryStore(client: DynamoDBClient, table: string): DeliveryStore {
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

  async function update(submissionId: string, condition: string, expression: string, values: Record<string, unknown>, names: Record<string, string> = {}): Promise<boolean> {
    try {
      await doc.send(new UpdateCommand({
        TableName: table,
        Key: { [KEY]: submissionId },
        // attribute_exists: a lead erased meanwhile must not come back as a bare mail state.
        ConditionExpression: `attribute_exists(#key) AND ${condition}`,
        UpdateExpression: expression,
        ExpressionAttributeNames: { ...NAMES, ...names },
        ExpressionAttributeValues: { ...values, ':zero': 0, ':one': 1, ':writeId': randomUUID() },
      }));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** The keys of the leads whose `attribute` holds `value`, from its index (one Query, unless a send carries more leads than a page holds). */
  async function keysOf(index: string, attribute: 'sendKey' | 'messageKey', value: string): Promise<string[]> {
    const ids: string[] = [];
    const pages = paginateQuery({ client: doc }, {
      TableName: table,
      IndexName: index,
      KeyConditionExpression: '#attribute = :value',
      ExpressionAttributeNames: { '#attribute': attribute },
      ExpressionAttributeValues: { ':value': value },
    });
    for await (const page of pages) for (const item of page.Items ?? []) ids.push(String(item[KEY]));
    return ids.sort();
  }

  return {
    leadsOfSend: (sendId) => keysOf(SEND_INDEX, 'sendKey', sendId),
    leadsOfMessage: (messageId) => keysOf(MESSAGE_INDEX, 'messageKey', messageId),
    confirmSent(submissionId, sendId, messageId, at, mark) {
      const parts = markParts(mark);
      return update(submissionId, `sendKey = :sendId AND #mail.#state = :pending AND ${NOT_REJECTED}`,
        `SET #mail.#state = :sent, #mail.messageId = :messageId, messageKey = :messageId, #mail.confirmedAt = :at${parts.set}, ${BUMP} REMOVE #mail.lastError, #mail.claimedUntil, #mail.held, #mail.sending, unsent${parts.remove}`,
        { ':sendId': sendId, ':pending': 'pending', ':sent': 'sent', ':messageId': messageId, ':at': at, ...parts.values }, mark ? DELIVERY_NAMES : {});
    },
    markRejected(submissionId, sendId, at) {
      // The send lets go of the lead (mail.sendId removed, rejectedSend set): its own answer, or a Send event that comes later, no longer marks it sent.
      // sendKey stays until a later send takes the lead, so a Send event of the same send that comes after still finds it (and changes nothing).
      return update(submissionId, `sendKey = :sendId AND ${NOT_REJECTED}`,
        `SET #mail.#state = :pending, unsent = :unsent, #mail.lastError = :refused, #mail.lastAttemptAt = :at, #mail.rejectedSend = :sendId, #mail.refusals = if_not_exists(#mail.refusals, :zero) + :one, ${BUMP} REMOVE #mail.messageId, messageKey, #mail.inDigest, #mail.sendId, #mail.claimedUntil, #mail.sending`,
        { ':sendId': sendId, ':pending': 'pending', ':unsent': unsentShardOf(submissionId), ':refused': 'refused', ':at': at });
    },
    mark(submissionId, messageId, mark) {
      // A delivery report never hides a bounce or complaint that arrived first (SNS does not keep order).
      const keepWorse = mark.delivery === 'delivered' ? ' AND (attribute_not_exists(#mail.#delivery) OR #mail.#delivery = :delivery)' : '';
      const parts = markParts(mark);
      return update(submissionId, `#mail.#state = :sent AND #mail.messageId = :id${keepWorse}`,
        `SET ${parts.set.slice(2)}, ${BUMP}${parts.remove ? ` REMOVE ${parts.remove.slice(2)}` : ''}`,
        { ':sent': 'sent', ':id': messageId, ...parts.values }, DELIVERY_NAMES);
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
  /** When SES took the e-mail (mail.timestamp), when it says. */
  sentAt?: string;
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
  const sentStamp = isObject(parsed.mail) ? text(parsed.mail.timestamp) : undefined;
  const sentAt = sentStamp && !Number.isNaN(Date.parse(sentStamp)) ? { sentAt: new Date(sentStamp).toISOString() } : {};
  if (!delivery) return { messageId, ...(sendId ? { sendId } : {}), ...sentAt, went: SEND_EVENTS[type]! };
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
  return { messageId, ...(sendId ? { sendId } : {}), ...sentAt, went: true, mark: { delivery, at, ...(reason ? { reason: label(reason) } : {}) } };
}

export interface SesEventsOptions {
  store: DeliveryStore;
  log: Logger;
  now?: () => Date;
}

/**
 * Thrown for an event of a lead's send whose leads the index does not show yet: the index of send
 * ids is eventually consistent, so a Send or Reject can come before it has the lead's new send id.
 * Lambda runs the event again (twice, minutes apart, infra/lib/mail-events.ts), then dead-letters
 * it, which is alarmed; it is never dropped (a Reject dropped would leave a lead marked sent that
 * never arrived).
 */
export class LeadNotFoundYet extends Error {
  override readonly name = 'LeadNotFoundYet';
}

/**
 * How long after SES took an e-mail an event of it whose lead is not found is run again: the index
 * lags its table by seconds, and Lambda's two retries come within minutes. An event older than this
 * whose lead is not found concerns a lead that has moved on to a later send (sent again after the
 * quiet period, which is longer) or was erased: it is logged as unmatched.
 */
export const NOT_FOUND_RETRY_MS = 15 * 60 * 1000;

/**
 * Reads one notification and marks its leads. The bounce or complaint metric is logged before the
 * table is touched, so the alarm fires even when the lead cannot be marked (not found yet, or the
 * table unreachable: that error is thrown, and Lambda retries the event). A message that cannot be
 * read is logged and dropped: retrying would not make it readable.
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
  const metric = mark ? METRIC[mark.delivery] : undefined;
  if (mark && metric) {
    options.log({ level: 'error', event: `ses_${mark.delivery}`, messageId, reason: mark.reason, [metric]: 1, ...metricFields(now, [metric]) });
  }
  // The send's leads, by the index on its id; a report without the send tag, by the index on its message id.
  const found = sendId ? await options.store.leadsOfSend(sendId) : await options.store.leadsOfMessage(messageId);
  if (sendId && found.length === 0 && (read.sentAt === undefined || now.getTime() - Date.parse(read.sentAt) < NOT_FOUND_RETRY_MS)) {
    // Every send tag is a lead's: its leads are not in the index yet.
    options.log({ level: 'warn', event: 'ses_event_lead_not_found', messageId, sendId });
    throw new LeadNotFoundYet(`no lead of send ${sendId} is in the index yet`);
  }
  if (sendId && !read.went) {
    const rejected: string[] = [];
    for (const id of found) if (await options.store.markRejected(id, sendId, now.toISOString())) rejected.push(id);
    options.log({ level: 'warn', event: 'ses_event_rejected', messageId, leads: rejected });
    return { kind: 'rejected', messageId, leads: rejected };
  }
  const at = mark?.at ?? now.toISOString();
  const confirmed: string[] = [];
  const leads: string[] = [];
  for (const id of found) {
    // Most reports come after the sender marked the lead sent: the mark alone. Otherwise its answer
    // never came (or has not yet): the lead is settled as sent, with the mark, in the same write.
    if (mark && await options.store.mark(id, messageId, mark)) { leads.push(id); continue; }
    if (sendId && await options.store.confirmSent(id, sendId, messageId, at, mark)) { confirmed.push(id); if (mark) leads.push(id); }
  }
  if (confirmed.length > 0) options.log({ level: 'info', event: 'ses_event_confirmed_send', messageId, leads: confirmed });
  if (!mark) return { kind: 'confirmed', messageId, leads: confirmed };
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
