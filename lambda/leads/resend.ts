// The retry mailer: finds leads whose e-mail is still pending and sends them again, with backoff,
// marking each sent. Run every 5 minutes by a schedule in the stack (infra/lib/leads.ts, as the
// bundle's `resend` export: lambda/handler.ts, through lambda/leads/resend-job.ts), every few
// seconds by `site serve` (lambda/local-mailer.ts), and by `site leads resend` on the owner's request.
//
// Why a schedule rather than a DynamoDB stream: the handler already makes the first attempt
// straight after the store, so a stream would only ever see leads that failed a moment ago, and
// its retries are measured in seconds, which is no use when SES is out for an hour or the sender
// identity needs fixing. A schedule retries for as long as it takes, needs no on-failure
// destination, and is the same code the owner runs from the CLI. The table holds a consultancy's
// leads (hundreds a year), so finding the pending ones with a filtered scan costs nothing.
//
// One e-mail per lead, at most two under any one fault. A send SES refused, or that never reached
// it, is retried with backoff. A send that got no answer (the request left, the answer did not
// come in time) may have been sent: SES's own events settle it (ses-events.ts: a Send or Delivery
// event tagged with the send's id marks the lead sent, a Reject marks it failed), and without them
// it is sent once more, saying so in its subject, only after a long quiet period. The same holds for
// a lead whose sender left no outcome (it died mid-send, or could not write the outcome).
// After two such sends the mailer stops and the stuck-leads alarm tells the owner, who can check
// the inbox and send it with `site leads resend --id`.
import { randomUUID } from 'node:crypto';
import type { LeadRecord } from './record.ts';
import { mayMailNow } from '../limits/volume.ts';
import { jsonLogger, type Logger } from '../log.ts';
import { DigestPlan, digestBytesOf, type DigestBounds } from './digest-plan.ts';
import { mailDigest, mailLead, type LeadMailer, type MailResult } from './mail-lead.ts';
import { leadContent } from './new-lead.ts';

/** A lead is left to the handler's own send for this long after it arrives. */
export const HANDLER_GRACE_MS = 2 * 60 * 1000;
/** Waits between attempts: 1, 2, 4 … minutes, never more than an hour. */
export const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** A lead pending for longer than this raises the alarm. */
export const STUCK_AFTER_MS = 30 * 60 * 1000;
/**
 * How long a send with no answer is left before the lead is sent again: SES publishes a send's
 * events within a minute or so, so half an hour without one means it most likely never went.
 */
export const UNANSWERED_QUIET_MS = 30 * 60 * 1000;
/** Sends of unknown outcome after which only the owner sends the lead again (`site leads resend --id`). */
export const MAX_UNCERTAIN_SENDS = 2;
/** How long one run holds a lead it is sending. */
const CLAIM_MS = 5 * 60 * 1000;

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 60_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * The last sender to claim the lead left no outcome: every outcome (sent, failed, unanswered, held)
 * lets go of the claim, so a claim that ran out means its holder stopped mid-send (the handler or a
 * mailer run timed out) or could not write what came of it.
 */
const leftNoOutcome = (lead: LeadRecord, now: number) =>
  lead.mail.claimedUntil !== undefined && Date.parse(lead.mail.claimedUntil) <= now;

/** Sends of this lead that may have reached the inbox: each unanswered one, and one whose sender left no outcome. */
export function uncertainSends(lead: LeadRecord, now: number): number {
  return (lead.mail.unanswered ?? 0) + (leftNoOutcome(lead, now) ? 1 : 0);
}

/**
 * When the lead's next send is due (epoch ms), or undefined when only the owner may send it now.
 * `byOwner` (`site leads resend`) skips the grace period and the backoff, never the quiet period
 * after a send that may have gone; `explicit` (`--id`) may send it after two such sends.
 */
export function dueAt(lead: LeadRecord, now: Date, byOwner = false, explicit = false): number | undefined {
  const received = Date.parse(lead.receivedAt);
  const last = lead.mail.lastAttemptAt ? Date.parse(lead.mail.lastAttemptAt) : undefined;
  const lapsed = leftNoOutcome(lead, now.getTime());
  if (lapsed || lead.mail.lastError === 'unanswered') {
    if (uncertainSends(lead, now.getTime()) >= MAX_UNCERTAIN_SENDS && !explicit) return undefined;
    // From the send's last moment: the claim's end, or the unanswered attempt.
    return (lapsed ? Date.parse(lead.mail.claimedUntil!) : last ?? received) + UNANSWERED_QUIET_MS;
  }
  if (byOwner) return 0;
  return Math.max(received + HANDLER_GRACE_MS, last === undefined ? 0 : last + backoffMs(lead.mail.attempts));
}

/** True when the lead's next attempt is due by the scheduled mailer's rules. */
export function isDue(lead: LeadRecord, now: Date): boolean {
  const at = dueAt(lead, now);
  return at !== undefined && at <= now.getTime();
}

export interface ResendOptions {
  /** Only these leads (`site leads resend --id`); otherwise every pending one. */
  ids?: readonly string[];
  /** Ignore the grace period and the backoff (the owner asked for it now). A lead another sender holds is still left to it. */
  now?: boolean;
  log?: Logger;
  /** How digests are split (DIGEST_BOUNDS unless a test says otherwise). */
  digestBounds?: DigestBounds;
}

export interface ResendReport {
  sent: string[];
  /** Sent together in a digest e-mail: held past a limit, or past the hour's cap on lead e-mails. */
  digested: string[];
  failed: { submissionId: string; kind: string }[];
  /** Sent, but SES gave no answer: they may have arrived, and are left for SES's events or the quiet period. */
  unanswered: string[];
  /** Pending, but not yet due (or held by another sender). */
  waiting: number;
  /** Left alone because an earlier send may have arrived: sent again from `from` (ISO), or only by the owner (`from` undefined). */
  uncertain: { submissionId: string; from?: string }[];
  /** Asked for by id but not pending (sent already, or no such lead). */
  notPending: string[];
  /** Leads still pending after this run that arrived more than 30 minutes ago: the alarm's figure. */
  stuck: number;
}

export async function resendLeads(mailer: LeadMailer, options: ResendOptions = {}): Promise<ResendReport> {
  const clock = mailer.now ?? (() => new Date());
  const log = options.log ?? jsonLogger;
  const report: ResendReport = { sent: [], digested: [], failed: [], unanswered: [], waiting: 0, uncertain: [], notPending: [], stuck: 0 };
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
  // Claimed leads for this run's digests: held ones, and any past the hour's cap.
  const plan = new DigestPlan<LeadRecord>(options.digestBounds);
  let capReached = false;
  const wait = (lead: LeadRecord, now: Date) => {
    report.waiting += 1;
    if (isStuck(lead, now)) report.stuck += 1;
  };
  // One at a time: SES's sending rate is low in the sandbox, and a backlog is small.
  for (const lead of pending) {
    const now = clock();
    const at = dueAt(lead, now, Boolean(options.now), Boolean(options.ids));
    if (at === undefined || at > now.getTime()) {
      if (leftNoOutcome(lead, now.getTime()) || lead.mail.lastError === 'unanswered') report.uncertain.push({ submissionId: lead.submissionId, ...(at === undefined ? {} : { from: new Date(at).toISOString() }) });
      wait(lead, now);
      continue;
    }
    const bytes = digestBytesOf({ content: leadContent(lead), receivedAt: new Date(lead.receivedAt), source: lead.source });
    const alone = lead.mail.lastError === 'rejected';
    // A held lead, or any once the cap is reached, goes in a digest: one this run has no room for waits for the next.
    if ((lead.mail.held || capReached) && !plan.hasRoom(bytes, alone)) { wait(lead, now); continue; }
    // The claim is the one every send takes, the handler's first included: whoever holds it sends.
    const sendId = randomUUID();
    if (!(await mailer.store.claim(lead.submissionId, now, new Date(now.getTime() + CLAIM_MS), sendId))) {
      wait(lead, now);
      continue;
    }
    if (!lead.mail.held && !capReached && mailer.limits && !(await mayMailNow(mailer.limits, now, log))) capReached = true;
    if (lead.mail.held || capReached) {
      if (!plan.add(lead, bytes, alone)) {
        // No room left this run: held for the next, its claim let go.
        await mailer.store.markHeld(lead.submissionId);
        wait(lead, now);
      }
      continue;
    }
    const result: MailResult = await mailLead(lead, mailer, { sendId, repeat: uncertainSends(lead, now.getTime()) > 0 });
    record(report, [lead], result, false, clock);
  }
  for (const batch of plan.batches) {
    const at = clock().getTime();
    const repeats = new Set(batch.items.filter((lead) => uncertainSends(lead, at) > 0).map((lead) => lead.submissionId));
    const result = await mailDigest(batch.items, mailer, randomUUID(), repeats);
    record(report, batch.items, result, true, clock);
  }
  return report;
}

function record(report: ResendReport, leads: readonly LeadRecord[], result: MailResult, inDigest: boolean, clock: () => Date): void {
  for (const lead of leads) {
    if (result.sent) (inDigest ? report.digested : report.sent).push(lead.submissionId);
    else if (result.failure.kind === 'unanswered') report.unanswered.push(lead.submissionId);
    else report.failed.push({ submissionId: lead.submissionId, kind: result.failure.kind });
    if (!result.sent && isStuck(lead, clock())) report.stuck += 1;
  }
}

export function isStuck(lead: LeadRecord, now: Date): boolean {
  return lead.mail.state === 'pending' && now.getTime() - Date.parse(lead.receivedAt) > STUCK_AFTER_MS;
}
