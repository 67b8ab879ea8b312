// Sending one stored lead's e-mail, or a digest of several, and writing down how it went, for the
// handler (first try, straight after the store) and the retry mailer (every later try) alike.
import { SendEmailCommand, type SendEmailCommandInput } from '@aws-sdk/client-ses';
import { composeDigest, composeEmail } from '../email.ts';
import type { VolumeLimits } from '../limits/volume.ts';
import { classifySesError, type SesFailure } from '../ses-errors.ts';
import type { MailSender } from '../ses-client.ts';
import { leadContent } from './new-lead.ts';
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
 * Sends the lead's e-mail and records the outcome on its record. Never throws for an SES failure
 * (the lead is safe in the table; the retry mailer tries again); a failure to record the outcome
 * does throw, and leaves the lead pending (its outcome unknown: leads/resend.ts).
 */
export function mailLead(record: LeadRecord, mailer: LeadMailer, label: SendLabel): Promise<MailResult> {
  const email = composeEmail(leadContent(record), {
    mailTo: mailer.mailTo,
    mailFrom: mailer.mailFrom,
    configurationSet: mailer.configurationSet,
    receivedAt: new Date(record.receivedAt),
    source: record.source,
    repeat: label.repeat,
  });
  return sendAndRecord(email, [record], mailer, label.sendId, false);
}

/**
 * Sends claimed leads as one digest e-mail and marks each sent with its message id; on an SES
 * failure marks each failed (letting go of their claims) for the next run. `repeats` are the leads
 * an earlier send of which may have arrived.
 */
export async function mailDigest(records: readonly LeadRecord[], mailer: LeadMailer, sendId: string, repeats: ReadonlySet<string> = new Set()): Promise<MailResult> {
  const email = composeDigest(
    records.map((record) => ({ content: leadContent(record), receivedAt: new Date(record.receivedAt), source: record.source, repeat: repeats.has(record.submissionId) })),
    { mailTo: mailer.mailTo, mailFrom: mailer.mailFrom, configurationSet: mailer.configurationSet },
  );
  for (const record of records) await mailer.store.markSending(record.submissionId, sendId);
  return sendAndRecord(email, records, mailer, sendId, true);
}

/** One SendEmail, tagged with its send id, and its outcome written on every lead it carried. */
async function sendAndRecord(email: SendEmailCommandInput, records: readonly LeadRecord[], mailer: LeadMailer, sendId: string, inDigest: boolean): Promise<MailResult> {
  const now = mailer.now ?? (() => new Date());
  let messageId: string;
  try {
    const answer = await mailer.ses.send(new SendEmailCommand({ ...email, Tags: [{ Name: SEND_TAG, Value: sendId }] }));
    messageId = String((answer as { MessageId?: unknown } | undefined)?.MessageId ?? 'unknown');
  } catch (error) {
    const failure = classifySesError(error);
    for (const record of records) {
      if (failure.kind === 'unanswered') await mailer.store.markUnanswered(record.submissionId, now());
      else await mailer.store.markFailed(record.submissionId, failure.kind, now());
    }
    return { sent: false, failure };
  }
  for (const record of records) await mailer.store.markSent(record.submissionId, messageId, now(), inDigest);
  return { sent: true, messageId };
}
