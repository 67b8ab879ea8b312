// The one place the form backend's volume limits are set. Chosen so that a real visitor never
// meets them (a person sends one enquiry, perhaps a correction after it), while a script posting
// from one address or for one e-mail address is cut off after a handful.

export interface RateLimit {
  /** Posts allowed in one window. */
  max: number;
  /** The window's length, in milliseconds (fixed windows, aligned to the epoch). */
  windowMs: number;
}

export const LIMITS = {
  /** Valid posts from one client address (the viewer address CloudFront passes on). */
  perAddress: { max: 5, windowMs: 10 * 60 * 1000 },
  /** Valid posts naming one e-mail address, from anywhere. */
  perEmail: { max: 5, windowMs: 60 * 60 * 1000 },
  /**
   * Lead e-mails sent in one hour before the inbox is protected: past it, leads are still stored,
   * but mailed together as one digest by the scheduled mailer, and the owner is alarmed.
   */
  mailsPerHour: { max: 30, windowMs: 60 * 60 * 1000 },
} as const satisfies Record<string, RateLimit>;

/** How often the scheduled mailer runs, and so how often a digest may go out, in minutes. */
export const MAILER_EVERY_MINUTES = 5;
