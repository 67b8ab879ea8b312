// The retry mailer: finds leads whose e-mail is still pending and sends them again, with backoff,
// marking each sent. Run every 5 minutes by a schedule in the stack (infra/lib/leads.ts, as the
// bundle's `resend` export: lambda/handler.ts, through lambda/leads/resend-job.ts), every few
// seconds by `site serve` (lambda/local-mailer.ts), and by `site leads resend` on the owner's request.
//
// Why a schedule rather than a DynamoDB stream: the handler already makes the first attempt
// straight after the store, so a stream would only ever see leads that failed a moment ago, and
// its retries are measured in seconds, which is no use when SES is out for an hour or the sender
// identity needs fixing. A schedule retries for as long as it takes, needs no on-failure
// destination, and is the same code the owner runs from the CLI. The pending leads come from the
// sparse index of unsent leads (store.ts), a page at a time: real leads oldest first, then the
// likely spam, so a run reads what is unsent, never the table, and under a flood of likely spam it
// stops reading once this run's digests are full: the real leads held with it go first.
//
// Each lead and each digest is a step of its own: a lead the table fails, or a damaged record (set
// aside and named), stops nothing else. Every send takes the lead with a conditional claim on the
// copy it read, so a run holding an old copy sends nothing another sender has moved on.
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
import { likelySpamReason, type LeadRecord } from './record.ts';
import { mayMailNow } from '../limits/volume.ts';
import { jsonLogger, type Logger } from '../log.ts';
import { DigestPlan, digestBytesOf, digestLeadOf, type DigestBounds } from './digest-plan.ts';
import { mailDigest, mailLead, type ClaimedLead, type DigestOutcome, type LeadMailer } from './mail-lead.ts';

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
/** SES refusals of a lead's own e-mail after which only the owner sends it (`site leads resend --id`): the same mail is refused again. */
export const MAX_REFUSALS = 2;
/** How long one run holds a lead it is sending. */
const CLAIM_MS = 5 * 60 * 1000;


export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 60_000 * 2 ** Math.max(0, attempts - 1));
}

const lapsed = (lead: LeadRecord, now: number) => lead.mail.claimedUntil !== undefined && Date.parse(lead.mail.claimedUntil) <= now;

/**
 * The last sender to claim the lead stopped mid-send, after it may have handed the e-mail to SES:
 * every outcome lets go of the claim, so a lapsed claim with `sending` set means its holder timed
 * out or could not write what came of it (a lead stored before `sending` was kept counts too).
 * The claim that takes the lead over records this for good (mail.maybeSent).
 */
const lapsedWhileSending = (lead: LeadRecord, now: number) =>
  lapsed(lead, now) && (lead.mail.sending === true || lead.mail.version === undefined);

/** Sends of this lead that may have reached the inbox: those recorded, and one whose sender stopped mid-send. */
export function uncertainSends(lead: LeadRecord, now: number): number {
  return (lead.mail.maybeSent ?? lead.mail.unanswered ?? 0) + (lapsedWhileSending(lead, now) ? 1 : 0);
}

/**
 * When the lead's next send is due (epoch ms), or undefined when only the owner may send it now.
 * `byOwner` (`site leads resend`) skips the grace period and the backoff, never the quiet period
 * after a send that may have gone; `explicit` (`--id`) may send it after two such sends, or two refusals.
 */
export function dueAt(lead: LeadRecord, now: Date, byOwner = false, explicit = false): number | undefined {
  const received = Date.parse(lead.receivedAt);
  const last = lead.mail.lastAttemptAt ? Date.parse(lead.mail.lastAttemptAt) : undefined;
  if ((lead.mail.refusals ?? 0) >= MAX_REFUSALS && !explicit) return undefined;
  const midSend = lapsedWhileSending(lead, now.getTime());
  if (midSend || lead.mail.lastError === 'unanswered') {
    if (uncertainSends(lead, now.getTime()) >= MAX_UNCERTAIN_SENDS && !explicit) return undefined;
    // From the send's last moment: the claim's end, or the unanswered attempt.
    return (midSend ? Date.parse(lead.mail.claimedUntil!) : last ?? received) + UNANSWERED_QUIET_MS;
  }
  if (byOwner) return 0;
  return Math.max(received + HANDLER_GRACE_MS, last === undefined ? 0 : last + backoffMs(lead.mail.attempts));
}

/** True when the lead's next attempt is due by the scheduled mailer's rules. */
export function isDue(lead: LeadRecord, now: Date): boolean {
  const at = dueAt(lead, now);
  return at !== undefined && at <= now.getTime();
}

/**
 * Why a stored record cannot be mailed, or undefined when it can: a record damaged by hand or by an
 * old bug is set aside (and named in the log) rather than stop every run at it.
 */
export function damageOf(lead: LeadRecord): string | undefined {
  if (typeof lead.submissionId !== 'string') return 'it has no submissionId';
  if (typeof lead.receivedAt !== 'string' || Number.isNaN(Date.parse(lead.receivedAt))) return 'its receivedAt is not a time';
  if (typeof lead.mail !== 'object' || lead.mail === null || typeof lead.mail.attempts !== 'number') return 'its mail state is unreadable';
  try {
    digestBytesOf(digestLeadOf(lead));
  } catch (error) {
    return `its e-mail cannot be written (${error instanceof Error ? error.name : typeof error})`;
  }
  return undefined;
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
  /** Left for the owner: a damaged record, or a lead SES refused twice for its content. Named in the log; the set-aside alarm fires. */
  setAside: { submissionId: string; reason: string }[];
  /** Leads this run could not read or write (the table failed them): the rest of the run went on. */
  errors: string[];
  /** Asked for by id but not pending (sent already, or no such lead). */
  notPending: string[];
  /** Leads still pending after this run that arrived more than 30 minutes ago: the alarm's figure (of those this run read). */
  stuck: number;
  /** The run stopped reading early: at likely spam its digests had no room for (`waiting` and `stuck` count the first of it only), or the index failed a page (logged). */
  unread?: boolean;
}

/** A lead claimed for this run's digests, with the send that holds it. */
type Claimed = ClaimedLead;

export async function resendLeads(mailer: LeadMailer, options: ResendOptions = {}): Promise<ResendReport> {
  const clock = mailer.now ?? (() => new Date());
  const log = options.log ?? jsonLogger;
  const report: ResendReport = { sent: [], digested: [], failed: [], unanswered: [], waiting: 0, uncertain: [], setAside: [], errors: [], notPending: [], stuck: 0 };
  let pending: AsyncIterable<LeadRecord> | LeadRecord[];
  if (options.ids) {
    pending = [];
    for (const id of options.ids) {
      const lead = await mailer.store.get(id);
      if (lead?.mail?.state === 'pending') pending.push(lead);
      else report.notPending.push(id);
    }
  } else {
    // Real leads oldest first, then the likely spam (the sparse index of unsent leads), a page at a time.
    pending = readable(mailer.store.pending());
  }
  /** A page the index fails (throttled, say) ends the reading, not the run: what it planned still goes. */
  async function* readable(leads: AsyncIterable<LeadRecord>): AsyncIterable<LeadRecord> {
    try {
      yield* leads;
    } catch (error) {
      report.unread = true;
      log({ level: 'error', event: 'resend_read_error', name: error instanceof Error ? error.name : typeof error });
    }
  }
  const byOwner = Boolean(options.now);
  const explicit = Boolean(options.ids);
  const plan = new DigestPlan<Claimed>(options.digestBounds);
  let capReached = false;
  // SES refused the account's e-mail (not one e-mail's): the rest wait for the next run.
  let stopped = false;
  const wait = (lead: LeadRecord, now: Date) => {
    report.waiting += 1;
    if (isStuck(lead, now)) report.stuck += 1;
  };

  /** Claims the lead on the copy read; on a copy gone stale, once more on the lead as it now stands, if that is still due. */
  async function claim(lead: LeadRecord, now: Date, sending: boolean): Promise<LeadRecord | undefined> {
    let read: LeadRecord | undefined = lead;
    for (let tries = 0; read && tries < 2; tries += 1) {
      const at = dueAt(read, now, byOwner, explicit);
      if (read.mail?.state !== 'pending' || at === undefined || at > now.getTime()) return undefined;
      const sendId = randomUUID();
      const taken = await mailer.store.claim(read, { now, until: new Date(now.getTime() + CLAIM_MS), sendId, sending });
      if (taken.ok) return taken.lead;
      read = taken.current;
    }
    return undefined;
  }

  async function consider(lead: LeadRecord): Promise<void> {
    const now = clock();
    const damage = damageOf(lead);
    if (damage) {
      report.setAside.push({ submissionId: String(lead.submissionId), reason: `damaged: ${damage}` });
      report.waiting += 1;
      return;
    }
    const at = dueAt(lead, now, byOwner, explicit);
    if (at === undefined || at > now.getTime()) {
      if ((lead.mail.refusals ?? 0) >= MAX_REFUSALS && !explicit) report.setAside.push({ submissionId: lead.submissionId, reason: 'refused: SES refused its e-mail twice' });
      else if (lapsedWhileSending(lead, now.getTime()) || lead.mail.lastError === 'unanswered') report.uncertain.push({ submissionId: lead.submissionId, ...(at === undefined ? {} : { from: new Date(at).toISOString() }) });
      wait(lead, now);
      return;
    }
    const bytes = digestBytesOf(digestLeadOf(lead));
    // A lead SES refused once goes in a digest of its own, so it holds back no other.
    const alone = (lead.mail.refusals ?? 0) > 0;
    // A held lead, or any once the cap is reached, goes in a digest: one this run has no room for waits for the next.
    if (stopped || ((lead.mail.held || capReached) && !plan.hasRoom(bytes, alone))) { wait(lead, now); return; }
    const claimed = await claim(lead, now, !(lead.mail.held || capReached));
    if (!claimed) { wait(lead, now); return; }
    const sendId = claimed.mail.sendId!;
    const repeat = uncertainSends(claimed, now.getTime()) > 0;
    if (!claimed.mail.held && !capReached && mailer.limits && !(await mayMailNow(mailer.limits, now, log))) capReached = true;
    if (claimed.mail.held || capReached) {
      if (!plan.add({ lead: claimed, sendId, repeat }, bytes, alone)) {
        // No room left this run: held for the next, its claim let go.
        await mailer.store.release(claimed.submissionId, sendId, true);
        wait(claimed, now);
      }
      return;
    }
    const result = await mailLead(claimed, mailer, { sendId, repeat });
    if (!result.sent && result.failure.kind === 'account') stopped = true;
    record(report, [{ lead: claimed, result }], false, clock);
  }

  // One at a time: SES's sending rate is low in the sandbox, and a backlog is small. A lead the
  // table fails is named and left for the next run; the others go ahead.
  for await (const lead of pending) {
    // Only likely spam is left, and this run's digests are full: what is left waits for the next run, unread.
    if (likelySpamReason(lead) && !options.ids && !plan.hasRoom(0)) {
      report.unread = true;
      wait(lead, clock());
      break;
    }
    try {
      await consider(lead);
    } catch (error) {
      report.errors.push(String(lead?.submissionId));
      log({ level: 'error', event: 'resend_lead_error', submissionId: String(lead?.submissionId), name: error instanceof Error ? error.name : typeof error });
    }
  }
  for (const batch of plan.batches) {
    try {
      if (stopped) throw new Error('SES refused the account\'s e-mail this run');
      record(report, await mailDigest(batch.items, mailer), true, clock);
    } catch (error) {
      // Its leads are let go of (held for the next run's digests), so they do not wait for their claims to lapse.
      for (const item of batch.items) {
        await mailer.store.release(item.lead.submissionId, item.sendId, true).catch(() => undefined);
        if (!stopped) report.errors.push(item.lead.submissionId);
        wait(item.lead, clock());
      }
      if (!stopped) log({ level: 'error', event: 'resend_digest_error', leads: batch.items.map((item) => item.lead.submissionId), name: error instanceof Error ? error.name : typeof error });
    }
  }
  return report;
}

function record(report: ResendReport, outcomes: readonly DigestOutcome[], inDigest: boolean, clock: () => Date): void {
  for (const { lead, result } of outcomes) {
    if (result.sent) (inDigest ? report.digested : report.sent).push(lead.submissionId);
    else if (result.failure.kind === 'unanswered') report.unanswered.push(lead.submissionId);
    else report.failed.push({ submissionId: lead.submissionId, kind: result.failure.kind });
    if (!result.sent && isStuck(lead, clock())) report.stuck += 1;
  }
}

export function isStuck(lead: LeadRecord, now: Date): boolean {
  return lead.mail.state === 'pending' && now.getTime() - Date.parse(lead.receivedAt) > STUCK_AFTER_MS;
}
