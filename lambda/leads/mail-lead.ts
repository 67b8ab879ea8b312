// Sending one stored lead's e-mail, or a digest of several, and writing down how it went, for the
// handler (first try, straight after the store) and the retry mailer (every later try) alike.
import { randomUUID } from 'node:crypto';
import { SendEmailCommand, type SendEmailCommandInput } from '@aws-sdk/client-ses';
import { composeDigest, composeEmail } from '../email.ts';
import type { VolumeLimits } from '../limits/volume.ts';
import { classifySesError, isFailureOfTheEmail, type SesFailure } from '../ses-errors.ts';
import type { MailSender } from '../ses-client.ts';
import { leadContent } from './new-lead.ts';
import { digestLeadOf } from './digest-plan.ts';
import { unsentOrder } from './store.ts';
import type { LeadRecord } from './record.ts';
import type { LeadStore } from './store.ts';

/** The SES message tag every lead e-mail carries: the send's id, by which SES's events find its leads. */
export const SEND_TAG = 'send';

export interface LeadMailer {
  ses: MailSender;
  store: LeadStore;
  mailTo: string;
  mailFrom: string;
  /** The SES configuration set that reports sends, deliveries, bounces and complaints (none locally). */
  configurationSet?: string | undefined;
  /** The hourly cap on lead e-mails; without it there is none. */
  limits?: VolumeLimits | undefined;
  now?: () => Date;
}

export type MailResult =
  | { sent: true; messageId: string }
  | { sent: false; failure: SesFailure };

/** One send: its id (the SES tag), and whether an earlier send of any lead in it may have reached the inbox. */
export interface SendLabel {
  sendId: string;
  /** The e-mail says in its subject that it may repeat one already received. */
  repeat: boolean;
}

/**
 * Sends the lead's e-mail, which send `label.sendId` holds (the handler's new record, or a claim
 * taken with `sending`), and records the outcome on its record. Never throws for an SES failure
 * (the lead is safe in the table; the retry mailer tries again); a failure to record the outcome
 * does throw, and leaves the claim to lapse (a send that may have gone: leads/resend.ts).
 */
export async function mailLead(record: LeadRecord, mailer: LeadMailer, label: SendLabel): Promise<MailResult> {
  const email = composeEmail(leadContent(record), {
    mailTo: mailer.mailTo,
    mailFrom: mailer.mailFrom,
    configurationSet: mailer.configurationSet,
    receivedAt: new Date(record.receivedAt),
    source: record.source,
    repeat: label.repeat,
  });
  const [result] = await sendAndRecord(email, [record], mailer, label.sendId, false);
  return result!.result;
}

/** One lead of a digest, and the send that claimed it. */
export interface ClaimedLead { lead: LeadRecord; sendId: string; repeat: boolean }

/** What became of each lead of a digest. */
export interface DigestOutcome { lead: LeadRecord; result: MailResult }

/**
 * Sends claimed leads as one digest e-mail, real leads oldest first, then the likely spam, and marks each sent with its message id.
 * SES refusing the digest for what it holds splits it in halves, each sent on its own, so one bad
 * lead costs a few sends, never one per lead; any other failure marks each failed (letting go of
 * their claims) for the next run.
 */
export async function mailDigest(claimed: readonly ClaimedLead[], mailer: LeadMailer): Promise<DigestOutcome[]> {
  const moved: ClaimedLead[] = [];
  const sendId = randomUUID();
  for (const item of claimed) {
    if ((await mailer.store.markSending(item.lead.submissionId, item.sendId, sendId)).ok) moved.push({ ...item, sendId });
  }
  if (moved.length === 0) return [];
  // Real leads oldest first, then the likely spam.
  const inOrder = [...moved].sort((a, b) => unsentOrder(a.lead).localeCompare(unsentOrder(b.lead)));
  const email = composeDigest(
    inOrder.map(({ lead, repeat }) => digestLeadOf(lead, repeat)),
    { mailTo: mailer.mailTo, mailFrom: mailer.mailFrom, configurationSet: mailer.configurationSet },
  );
  if (inOrder.length > 1) {
    // Refused for what it holds: the halves go on their own (each a send of its own), down to the lead SES will not take.
    const outcome = await send(email, sendId, mailer);
    if (!outcome.sent && isFailureOfTheEmail(outcome.failure.kind)) {
      const half = Math.ceil(inOrder.length / 2);
      return [...await mailDigest(inOrder.slice(0, half), mailer), ...await mailDigest(inOrder.slice(half), mailer)];
    }
    return record(outcome, inOrder.map((item) => item.lead), mailer, sendId, true);
  }
  return sendAndRecord(email, inOrder.map((item) => item.lead), mailer, sendId, true);
}

/** One SendEmail, tagged with its send id. */
async function send(email: SendEmailCommandInput, sendId: string, mailer: LeadMailer): Promise<MailResult> {
  try {
    const answer = await mailer.ses.send(new SendEmailCommand({ ...email, Tags: [{ Name: SEND_TAG, Value: sendId }] }));
    return { sent: true, messageId: String((answer as { MessageId?: unknown } | undefined)?.MessageId ?? 'unknown') };
  } catch (error) {
    return { sent: false, failure: classifySesError(error) };
  }
}

/** One SendEmail, and its outcome written on every lead it carried. */
async function sendAndRecord(email: SendEmailCommandInput, records: readonly LeadRecord[], mailer: LeadMailer, sendId: string, inDigest: boolean): Promise<DigestOutcome[]> {
  return record(await send(email, sendId, mailer), records, mailer, sendId, inDigest);
}

/**
 * The outcome of send `sendId` written on its leads. SES's Reject event may have come first (the
 * lead is pending again, and this answer changes nothing), or its Send event (already sent).
 */
async function record(result: MailResult, records: readonly LeadRecord[], mailer: LeadMailer, sendId: string, inDigest: boolean): Promise<DigestOutcome[]> {
  const now = mailer.now ?? (() => new Date());
  const outcomes: DigestOutcome[] = [];
  for (const lead of records) {
    if (result.sent) {
      const marked = await mailer.store.markSent(lead.submissionId, sendId, result.messageId, now(), inDigest);
      outcomes.push({ lead, result: marked === 'rejected' ? { sent: false, failure: { kind: 'refused', name: 'Reject' } } : result });
    } else {
      if (result.failure.kind === 'unanswered') await mailer.store.markUnanswered(lead.submissionId, sendId, now());
      else await mailer.store.markFailed(lead.submissionId, sendId, result.failure.kind, now(), isFailureOfTheEmail(result.failure.kind));
      outcomes.push({ lead, result });
    }
  }
  return outcomes;
}
