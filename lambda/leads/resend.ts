// The retry mailer: finds leads whose e-mail is still pending and sends them again, with backoff,
// marking each sent. Run every 5 minutes by a schedule in the stack (infra/lib/leads.ts, as the
// bundle's `resend` export: lambda/handler.ts, through lambda/leads/resend-job.ts),
// and by `site leads resend` on the owner's request.
//
// Why a schedule rather than a DynamoDB stream: the handler already makes the first attempt
// straight after the store, so a stream would only ever see leads that failed a moment ago, and
// its retries are measured in seconds, which is no use when SES is out for an hour or the sender
// identity needs fixing. A schedule retries for as long as it takes, needs no on-failure
// destination, and is the same code the owner runs from the CLI. The table holds a consultancy's
// leads (hundreds a year), so finding the pending ones with a filtered scan costs nothing.
import type { LeadRecord } from './record.ts';
import { mayMailNow } from '../limits/volume.ts';
import { jsonLogger, type Logger } from '../log.ts';
import { mailDigest, mailLead, type LeadMailer, type MailResult } from './mail-lead.ts';

/** A lead is left to the handler's own send for this long after it arrives. */
export const HANDLER_GRACE_MS = 2 * 60 * 1000;
/** Waits between attempts: 1, 2, 4 … minutes, never more than an hour. */
export const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** A lead pending for longer than this raises the alarm. */
export const STUCK_AFTER_MS = 30 * 60 * 1000;
/** How long one run holds a lead it is sending. */
const CLAIM_MS = 5 * 60 * 1000;

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 60_000 * 2 ** Math.max(0, attempts - 1));
}

/** True when the lead's next attempt is due: past the handler's grace period and its backoff. */
export function isDue(lead: LeadRecord, now: Date): boolean {
  const age = now.getTime() - Date.parse(lead.receivedAt);
  if (age < HANDLER_GRACE_MS) return false;
  if (!lead.mail.lastAttemptAt) return true;
  return now.getTime() - Date.parse(lead.mail.lastAttemptAt) >= backoffMs(lead.mail.attempts);
}

export interface ResendOptions {
  /** Only these leads (`site leads resend --id`); otherwise every pending one. */
  ids?: readonly string[];
  /** Ignore the grace period and the backoff (the owner asked for it now). A lead another sender holds is still left to it. */
  now?: boolean;
  log?: Logger;
}

export interface ResendReport {
  sent: string[];
  /** Sent together in one digest e-mail: past the hour's cap on lead e-mails. */
  digested: string[];
  failed: { submissionId: string; kind: string }[];
  /** Pending, but not yet due (or held by another sender). */
  waiting: number;
  /** Asked for by id but not pending (sent already, or no such lead). */
  notPending: string[];
  /** Leads still pending after this run that arrived more than 30 minutes ago: the alarm's figure. */
  stuck: number;
}

export async function resendLeads(mailer: LeadMailer, options: ResendOptions = {}): Promise<ResendReport> {
  const clock = mailer.now ?? (() => new Date());
  const log = options.log ?? jsonLogger;
  const report: ResendReport = { sent: [], digested: [], failed: [], waiting: 0, notPending: [], stuck: 0 };
  let pending: LeadRecord[];
  if (options.ids) {
    pending = [];
    for (const id of options.ids) {
      const lead = await mailer.store.get(id);
      if (lead?.mail.state === 'pending') pending.push(lead);
      else report.notPending.push(id);
    }
  } else {
    pending = await mailer.store.unsent();
  }
  // Claimed leads past the hour's cap, sent together at the end of the run.
  const forDigest: LeadRecord[] = [];
  // One at a time: SES's sending rate is low in the sandbox, and a backlog is small.
  for (const lead of pending) {
    const now = clock();
    const due = options.now || isDue(lead, now);
    // The claim is the one every send takes, the handler's first included: whoever holds it sends.
    if (!due || !(await mailer.store.claim(lead.submissionId, now, new Date(now.getTime() + CLAIM_MS)))) {
      report.waiting += 1;
      if (isStuck(lead, now)) report.stuck += 1;
      continue;
    }
    if (mailer.limits && !(await mayMailNow(mailer.limits, now, log))) {
      forDigest.push(lead);
      continue;
    }
    const result: MailResult = await mailLead(lead, mailer);
    if (result.sent) report.sent.push(lead.submissionId);
    else {
      report.failed.push({ submissionId: lead.submissionId, kind: result.failure.kind });
      if (isStuck(lead, clock())) report.stuck += 1;
    }
  }
  if (forDigest.length > 0) {
    const result = await mailDigest(forDigest, mailer);
    for (const lead of forDigest) {
      if (result.sent) report.digested.push(lead.submissionId);
      else {
        report.failed.push({ submissionId: lead.submissionId, kind: result.failure.kind });
        if (isStuck(lead, clock())) report.stuck += 1;
      }
    }
  }
  return report;
}

export function isStuck(lead: LeadRecord, now: Date): boolean {
  return lead.mail.state === 'pending' && now.getTime() - Date.parse(lead.receivedAt) > STUCK_AFTER_MS;
}
