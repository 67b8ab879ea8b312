// From a validated submission to the record stored for it: its submissionId (the browser's, or
// one derived from the content for a post without JavaScript), its TTL, and a pending mail state.
import { createHash, randomUUID } from 'node:crypto';
import { contentOf, type LeadContent, type Submission } from '../email.ts';
import { ASSESSMENT_QUESTIONS } from '../../forms/assessment-questions.ts';
import { leadFieldValues } from '../../forms/fields.ts';
import { emailKeyOf } from './store.ts';
import type { LeadRecord } from './record.ts';

/** What the browser may send as its id: a UUID, or anything as plain (letters, digits, dashes), 8 to 64 long. */
const CLIENT_ID = /^[A-Za-z0-9-]{8,64}$/;

/**
 * A plain form post is one lead per content per window: a double-click (or the back button and a
 * second send) within the same 10 minutes stores and mails once. Two posts either side of a
 * window's edge are two leads; that costs one duplicate e-mail, never a lost lead.
 */
export const DERIVED_ID_WINDOW_MS = 10 * 60 * 1000;

/** The submissionId the browser sent, when it is well formed; otherwise undefined. */
function clientSubmissionId(payload: unknown): string | undefined {
  const value = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>).submissionId : undefined;
  return typeof value === 'string' && CLIENT_ID.test(value) ? value : undefined;
}

const contentDigest = (submission: Submission, ...more: unknown[]) =>
  createHash('sha256').update(JSON.stringify([submission.form, contentOf(submission), ...more])).digest('hex');

/** An id from the validated content and the coarse time window it arrived in. */
function derivedSubmissionId(submission: Submission, receivedAt: Date): string {
  const window = Math.floor(receivedAt.getTime() / DERIVED_ID_WINDOW_MS);
  return `plain-${contentDigest(submission, window).slice(0, 32)}`;
}

/**
 * The key a lead is stored under. The browser's id lives in a namespace of its own (`client-…`),
 * so no id a client sends can land on one derived for a plain post (`plain-…`) and pre-claim a
 * visitor's submission; and it is joined to a digest of the content, so a retry of the same
 * submission is one lead while the same id with other content is a lead of its own, never dropped.
 */
export function submissionKey(payload: unknown, submission: Submission, receivedAt: Date): string {
  const client = clientSubmissionId(payload);
  return client ? `client-${client}-${contentDigest(submission).slice(0, 16)}` : derivedSubmissionId(submission, receivedAt);
}

/**
 * How long the handler holds a new lead for its own first send: the claim every send takes
 * (LeadStore.claim), so neither the retry mailer nor `site leads resend --now` can mail it while
 * the handler's send is in flight. Far longer than the handler's 15 s timeout, so it only lapses
 * when the handler died mid-send, and then the retry mailer takes over.
 */
export const FIRST_SEND_CLAIM_MS = 2 * 60 * 1000;

export function addMonths(at: Date, months: number): Date {
  const end = new Date(at.getTime());
  end.setUTCMonth(end.getUTCMonth() + months);
  return end;
}

export interface NewLeadContext {
  submissionId: string;
  receivedAt: Date;
  source: string;
  /** The retention period of content/site.yaml: the record's TTL is this many months after receipt. */
  retentionMonths: number;
  /** Born held for the digest (a limit or the honeypot said so before the store). */
  held?: boolean;
}

export function newLead(submission: Submission, context: NewLeadContext): LeadRecord {
  const content = contentOf(submission);
  return {
    submissionId: context.submissionId,
    form: content.form,
    receivedAt: context.receivedAt.toISOString(),
    ...leadFieldValues(content),
    emailKey: emailKeyOf(content.email),
    ...(content.answers ? { assessment: Object.fromEntries(content.answers) } : {}),
    source: context.source,
    // Pending and claimed by no one: the handler claims it for its own send as any sender does, so a
    // handler stopped before that leaves a lead the mailer sends as new (no send of it can have gone).
    // The write id tells the store's own landed put from another post's (LeadStore.putNew).
    mail: { state: 'pending', attempts: 0, writeId: randomUUID(), ...(context.held ? { held: true } : {}) },
    expiresAt: Math.floor(addMonths(context.receivedAt, context.retentionMonths).getTime() / 1000),
  };
}

const QUESTION_ORDER = new Map(ASSESSMENT_QUESTIONS.map((q, i) => [q.question, i]));

/**
 * A stored record as the e-mail's content. DynamoDB keeps no order in a map, so the answers are put
 * back in the questions' order; a question no longer on the form (reworded since) goes last.
 */
export function leadContent(record: LeadRecord): LeadContent {
  const rank = (question: string) => QUESTION_ORDER.get(question) ?? QUESTION_ORDER.size;
  const answers = record.assessment ? Object.entries(record.assessment).sort(([a], [b]) => rank(a) - rank(b)) : undefined;
  return {
    form: record.form,
    ...leadFieldValues(record),
    ...(answers ? { answers } : {}),
  };
}
