// The one place the form backend's volume limits are set. Chosen so that a real visitor never
// meets them (a person sends one enquiry, perhaps a correction after it), while a script posting
// from one address is cut off after a handful. No limit can be aimed at someone else: only the one
// on a single address (an IPv4 address, an IPv6 /64) refuses a post. Those on what many people
// share (an IPv6 /48, an e-mail address anyone can type, a network's share of the hour) never
// refuse: they only send the leads past them together in the digest. A retry of the same
// submission never takes a slot of its own.

export interface RateLimit {
  /** Posts allowed in one window. */
  max: number;
  /** The window's length, in milliseconds: a sliding window (counter.ts), counted in windows aligned to the epoch. */
  windowMs: number;
}

export const VOLUME_LIMITS = {
  /** Valid posts from one client address (the viewer address CloudFront passes on; an IPv6 address's /64). */
  perAddress: { max: 5, windowMs: 10 * 60 * 1000 },
  /**
   * Valid posts from one IPv6 /48 (one site's allocation: a script rotating through its /64s) mailed
   * one each; past it they are stored and go in the digest, never refused. A mobile carrier puts
   * thousands of customers in one /48, so a refusal here would let one of them lock out the rest.
   */
  perSite: { max: 10, windowMs: 10 * 60 * 1000 },
  /** Valid posts naming one e-mail address, from anywhere, mailed one each: past it the leads are stored and go in the digest. */
  perEmail: { max: 5, windowMs: 60 * 60 * 1000 },
  /**
   * Lead e-mails sent in one hour before the inbox is protected: past it, leads are still stored,
   * but mailed together as one digest by the scheduled mailer, and the owner is alarmed.
   */
  mailsPerHour: { max: 30, windowMs: 60 * 60 * 1000 },
} as const satisfies Record<string, RateLimit>;

/**
 * The most of the hour's lead e-mails (mailsPerHour) one network, an IPv4 /24 or an IPv6 /48, may
 * use: a fifth, 6 of 30. One address within every other limit could otherwise take all 30 and push
 * every real lead of that hour into the digest; this way it takes 6, and it takes five networks
 * working together to fill the hour. A real office or household sends one or two enquiries an
 * hour, far inside it. Past its share a network's leads are stored and go in the digest.
 */
export const NETWORK_SHARE_OF_HOUR = 1 / 5;

/** How many of `mailsPerHour` one network may use (at least one). */
export function networkMailsPerHour(mailsPerHour: number): number {
  return Math.max(1, Math.floor(mailsPerHour * NETWORK_SHARE_OF_HOUR));
}

/** How often the scheduled mailer runs, and so how often a digest may go out, in minutes. */
export const MAILER_EVERY_MINUTES = 5;
