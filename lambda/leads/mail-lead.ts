// Sending one stored lead's e-mail and writing down how it went, for the handler (first try,
// straight after the store) and the retry mailer (every later try) alike.
import { SendEmailCommand, type SendEmailCommandInput } from '@aws-sdk/client-ses';
import { composeDigest, composeEmail } from '../email.ts';
import type { VolumeLimits } from '../limits/volume.ts';
import { classifySesError, type SesFailure } from '../ses-errors.ts';
import type { MailSender } from '../ses-client.ts';
import { leadContent } from './new-lead.ts';
import type { LeadRecord } from './record.ts';
import type { LeadStore } from './store.ts';

export interface LeadMailer {
  ses: MailSender;
  store: LeadStore;
  mailTo: string;
  mailFrom: string;
  /** The SES configuration set that reports bounces and complaints (none locally). */
  configurationSet?: string | undefined;
  /** The hourly cap on lead e-mails; without it (the owner's CLI on a local store) there is none. */
  limits?: VolumeLimits | undefined;
  now?: () => Date;
}

export type MailResult =
  | { sent: true; messageId: string }
  | { sent: false; failure: SesFailure };

/**
 * Sends the lead's e-mail and records the outcome on its record. Never throws for an SES failure
 * (the lead is safe in the table; the retry mailer tries again); a failure to record the outcome
 * does throw, and leaves the lead pending, so it is mailed again rather than lost.
 */
export function mailLead(record: LeadRecord, mailer: LeadMailer): Promise<MailResult> {
  const email = composeEmail(leadContent(record), {
    mailTo: mailer.mailTo,
    mailFrom: mailer.mailFrom,
    configurationSet: mailer.configurationSet,
    receivedAt: new Date(record.receivedAt),
    source: record.source,
  });
  return sendAndRecord(email, [record], mailer, false);
}

/**
 * Sends claimed leads as one digest e-mail and marks each sent with its message id; on an SES
 * failure marks each failed (letting go of their claims) for the next run.
 */
export function mailDigest(records: readonly LeadRecord[], mailer: LeadMailer): Promise<MailResult> {
  const email = composeDigest(
    records.map((record) => ({ content: leadContent(record), receivedAt: new Date(record.receivedAt), source: record.source })),
    { mailTo: mailer.mailTo, mailFrom: mailer.mailFrom, configurationSet: mailer.configurationSet },
  );
  return sendAndRecord(email, records, mailer, true);
}

/** One SendEmail, and its outcome written on every lead it carried. */
async function sendAndRecord(email: SendEmailCommandInput, records: readonly LeadRecord[], mailer: LeadMailer, inDigest: boolean): Promise<MailResult> {
  const now = mailer.now ?? (() => new Date());
  let messageId: string;
  try {
    const answer = await mailer.ses.send(new SendEmailCommand(email));
    messageId = String((answer as { MessageId?: unknown } | undefined)?.MessageId ?? 'unknown');
  } catch (error) {
    const failure = classifySesError(error);
    for (const record of records) await mailer.store.markFailed(record.submissionId, failure.kind, now());
    return { sent: false, failure };
  }
  for (const record of records) await mailer.store.markSent(record.submissionId, messageId, now(), inDigest);
  return { sent: true, messageId };
}
