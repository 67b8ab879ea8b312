// The one place the form backend's volume limits are set. Chosen so that a real visitor never
// meets them (a person sends one enquiry, perhaps a correction after it), while a script posting
// from one address is cut off after a handful. No limit can be aimed at someone else: the one on
// an e-mail address (which anyone can type) never refuses a post, it only sends the leads past it
// together in the digest; and a retry of the same submission never takes a slot of its own.

export interface RateLimit {
  /** Posts allowed in one window. */
  max: number;
  /** The window's length, in milliseconds (fixed windows, aligned to the epoch). */
  windowMs: number;
}

export const VOLUME_LIMITS = {
  /** Valid posts from one client address (the viewer address CloudFront passes on; an IPv6 address's /64). */
  perAddress: { max: 5, windowMs: 10 * 60 * 1000 },
  /** Valid posts from one IPv6 /48 (one site's allocation): a script rotating through its /64s. An office full of visitors stays well inside it. */
  perSite: { max: 10, windowMs: 10 * 60 * 1000 },
  /** Valid posts naming one e-mail address, from anywhere, mailed one each: past it the leads are stored and go in the digest. */
  perEmail: { max: 5, windowMs: 60 * 60 * 1000 },
  /**
   * Lead e-mails sent in one hour before the inbox is protected: past it, leads are still stored,
   * but mailed together as one digest by the scheduled mailer, and the owner is alarmed.
   */
  mailsPerHour: { max: 30, windowMs: 60 * 60 * 1000 },
} as const satisfies Record<string, RateLimit>;

/** How often the scheduled mailer runs, and so how often a digest may go out, in minutes. */
export const MAILER_EVERY_MINUTES = 5;
