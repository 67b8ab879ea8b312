// How held leads are split into digest e-mails: by count and by bytes, each digest well under the
// 10 MB SES allows a message, so no digest is ever refused for its size, and no lead can hold the
// others back. A lead too big for any digest, or one SES refused the last time, goes in one of its own.
import { composeDigest, emailBytes, type DigestLead } from '../email.ts';
import { leadContent } from './new-lead.ts';
import { likelySpamReason, type LeadRecord } from './record.ts';

export const DIGEST_BOUNDS = {
  /** Leads in one digest. */
  maxLeads: 50,
  /**
   * The subject and bodies of one digest in UTF-8. SES's limit is 10 MB after MIME encoding, which
   * base64 makes a third bigger (the SendEmail request URL-encodes the same text, at most three
   * times bigger): 1 MB stays far below either.
   */
  maxBytes: 1_000_000,
  /** Digests one mailer run sends: a flood reaches the inbox as a few e-mails every few minutes, not dozens at once. */
  perRun: 5,
} as const;

export interface DigestBounds { maxLeads: number; maxBytes: number; perRun: number }

const CONTEXT = { mailTo: 'x@example.com', mailFrom: 'x@example.com' };
const OVERHEAD = emailBytes(composeDigest([], CONTEXT));

/** Room for what a lead's place in the digest adds (its number, longer counts in the heading). */
const PLACE_BYTES = 32;

/** A stored lead as a digest shows it: its content, when and where it came from, and whether it is likely spam. */
export function digestLeadOf(lead: LeadRecord, repeat?: boolean): DigestLead {
  const spam = likelySpamReason(lead);
  return { content: leadContent(lead), receivedAt: new Date(lead.receivedAt), source: lead.source, ...(repeat ? { repeat } : {}), ...(spam ? { likelySpam: spam } : {}) };
}

/** What one lead adds to a digest, in bytes (a little more, never less). */
export function digestBytesOf(lead: DigestLead): number {
  return emailBytes(composeDigest([lead], CONTEXT)) - OVERHEAD + PLACE_BYTES;
}

/** Digests being filled within the bounds; `add` says false once a lead fits in none this run. */
export class DigestPlan<T> {
  readonly batches: { items: T[]; bytes: number; alone: boolean }[] = [];

  constructor(private readonly bounds: DigestBounds = DIGEST_BOUNDS) {}

  /** Puts `item` (`bytes` big) in a digest with room, or a new one; `alone` for a lead that must go by itself. */
  add(item: T, bytes: number, alone = false): boolean {
    const solo = alone || OVERHEAD + bytes > this.bounds.maxBytes;
    if (!solo) {
      const open = this.batches.find((b) => !b.alone && b.items.length < this.bounds.maxLeads && OVERHEAD + b.bytes + bytes <= this.bounds.maxBytes);
      if (open) { open.items.push(item); open.bytes += bytes; return true; }
    }
    if (this.batches.length >= this.bounds.perRun) return false;
    this.batches.push({ items: [item], bytes, alone: solo });
    return true;
  }

  /** Would `add` take a lead of this size now? */
  hasRoom(bytes: number, alone = false): boolean {
    if (this.batches.length < this.bounds.perRun) return true;
    if (alone || OVERHEAD + bytes > this.bounds.maxBytes) return false;
    return this.batches.some((b) => !b.alone && b.items.length < this.bounds.maxLeads && OVERHEAD + b.bytes + bytes <= this.bounds.maxBytes);
  }
}
