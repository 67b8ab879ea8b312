/** When an article is live: its draft flag, publishDate and expiryDate read against the build's clock. */

export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** A date-time must carry its offset (Z or ±hh:mm): a bare time would mean whatever zone the build machine is in. */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;
export const ZONE = 'Europe/London';

export type PublicationStatus = 'live' | 'draft' | 'scheduled' | 'expired';

/** What `site serve` marks on an article that production leaves out, on its page and its cards. */
export type PreviewStatus = 'draft' | 'scheduled';

export interface PublicationFields {
  draft?: boolean;
  publishDate?: string;
  expiryDate?: string;
}

// Made on first use: loading the time-zone data cost a fifth of `site --help`, which never needs it.
let londonParts: Intl.DateTimeFormat | undefined;

function partsOf(at: Date): Record<'year' | 'month' | 'day' | 'hour' | 'minute', string> {
  const out: Record<string, string> = {};
  londonParts ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  });
  for (const p of londonParts.formatToParts(at)) out[p.type] = p.value;
  return out as Record<'year' | 'month' | 'day' | 'hour' | 'minute', string>;
}

/**
 * The instant an ISO date or date-time names, or undefined if it names none. A bare date is the start
 * of that day in London, so '2026-12-01' goes live at midnight UK time whether it is GMT or BST.
 */
export function instantOf(iso: string): Date | undefined {
  const date = iso.slice(0, 10);
  if (!(DATE_ONLY.test(iso) || DATE_TIME.test(iso)) || !isCalendarDate(date)) return undefined;
  if (iso.length > 10) {
    // Date accepts 24:00; an author writing it most likely meant something else.
    const at = new Date(iso);
    return Number.isNaN(at.getTime()) || iso.slice(11, 13) === '24' ? undefined : at;
  }
  const utcMidnight = new Date(`${date}T00:00:00Z`);
  // London is UTC or UTC+1, and its clocks change at 01:00 UTC: the offset at UTC midnight is the day's.
  const { hour, minute } = partsOf(utcMidnight);
  return new Date(utcMidnight.getTime() - (Number(hour) * 60 + Number(minute)) * 60_000);
}

/** Date rolls 2026-02-30 over into March; a real calendar date survives the round trip. */
function isCalendarDate(date: string): boolean {
  const at = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(date);
}

/** '2026-12-01 09:00 Europe/London': a moment as whoever runs the deploy reads a clock. */
export function londonDateTime(at: Date): string {
  const p = partsOf(at);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${ZONE}`;
}

/** '09:00' in London, for a date-time; undefined for a bare date. */
export function londonTimeOf(iso: string): string | undefined {
  if (!DATE_TIME.test(iso)) return undefined;
  const at = instantOf(iso);
  if (!at) return undefined;
  const p = partsOf(at);
  return `${p.hour}:${p.minute}`;
}

/** Live from publishDate (inclusive) until expiryDate (exclusive); a draft is never live. */
export function publicationStatus(post: PublicationFields, now: Date): PublicationStatus {
  if (post.draft) return 'draft';
  const expiry = post.expiryDate ? instantOf(post.expiryDate) : undefined;
  if (expiry && expiry.getTime() <= now.getTime()) return 'expired';
  const publish = post.publishDate ? instantOf(post.publishDate) : undefined;
  if (publish && publish.getTime() > now.getTime()) return 'scheduled';
  return 'live';
}

export interface ScheduledChange {
  at: Date;
  publishes: string[];
  expires: string[];
}

/** The earliest moment after `now` when a rebuild would change which articles are live, and what changes then. */
export function nextChange(posts: ReadonlyArray<PublicationFields & { slug: string }>, now: Date): ScheduledChange | undefined {
  let next: ScheduledChange | undefined;
  const consider = (iso: string | undefined, slug: string, kind: 'publishes' | 'expires') => {
    const at = iso ? instantOf(iso) : undefined;
    if (!at || at.getTime() <= now.getTime()) return;
    if (!next || at.getTime() < next.at.getTime()) next = { at, publishes: [], expires: [] };
    if (at.getTime() === next.at.getTime()) next[kind].push(slug);
  };
  for (const post of posts) {
    // A draft changes only when someone edits it, never on a date.
    if (post.draft) continue;
    consider(post.publishDate, post.slug, 'publishes');
    consider(post.expiryDate, post.slug, 'expires');
  }
  return next;
}
