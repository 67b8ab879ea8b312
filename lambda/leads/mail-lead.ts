// Sending one stored lead's e-mail and writing down how it went, for the handler (first try,
// straight after the store) and the retry mailer (every later try) alike.
import { SendEmailCommand } from '@aws-sdk/client-ses';
import { composeEmail } from '../email.ts';
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
export async function mailLead(record: LeadRecord, mailer: LeadMailer): Promise<MailResult> {
  const now = mailer.now ?? (() => new Date());
  const email = composeEmail(leadContent(record), {
    mailTo: mailer.mailTo,
    mailFrom: mailer.mailFrom,
    receivedAt: new Date(record.receivedAt),
    source: record.source,
  });
  let messageId: string;
  try {
    const answer = await mailer.ses.send(new SendEmailCommand(email));
    messageId = String((answer as { MessageId?: unknown } | undefined)?.MessageId ?? 'unknown');
  } catch (error) {
    const failure = classifySesError(error);
    await mailer.store.markFailed(record.submissionId, failure.kind, now());
    return { sent: false, failure };
  }
  await mailer.store.markSent(record.submissionId, messageId, now());
  return { sent: true, messageId };
}
