// What the form backend asks of the limit counters: may this sender post again, and may one more
// lead e-mail go out this hour. A counter that cannot be reached never costs a lead: the post is
// let through (the store that follows is the check that matters) and the failure is logged.
import type { Logger } from '../log.ts';
import type { LimitCounter } from './counter.ts';
import { LIMITS } from './settings.ts';

export interface VolumeLimits {
  counter: LimitCounter;
  /** Lead e-mails an hour before the rest are held for the digest (LIMITS.mailsPerHour by default). */
  mailsPerHour: number;
}

/** The first of the sender's limits a post would pass, with the seconds until it frees; undefined when within both. */
export async function senderOverLimit(
  limits: VolumeLimits,
  sender: { address: string; emailKey: string },
  now: Date,
  log: Logger,
): Promise<{ limit: 'perAddress' | 'perEmail'; retryAfterSeconds: number } | undefined> {
  try {
    const byAddress = await limits.counter.take('perAddress', LIMITS.perAddress, sender.address, now);
    if (!byAddress.ok) return { limit: 'perAddress', retryAfterSeconds: byAddress.retryAfterSeconds };
    const byEmail = await limits.counter.take('perEmail', LIMITS.perEmail, sender.emailKey, now);
    if (!byEmail.ok) return { limit: 'perEmail', retryAfterSeconds: byEmail.retryAfterSeconds };
    return undefined;
  } catch (error) {
    log({ level: 'error', event: 'limits_error', name: error instanceof Error ? error.name : typeof error });
    return undefined;
  }
}

/** Takes one of this hour's lead e-mails: false once the hour's cap is reached (the lead waits for the digest). */
export async function mayMailNow(limits: VolumeLimits, now: Date, log: Logger): Promise<boolean> {
  try {
    const slot = await limits.counter.take('mailsPerHour', { max: limits.mailsPerHour, windowMs: LIMITS.mailsPerHour.windowMs }, 'all', now);
    return slot.ok;
  } catch (error) {
    log({ level: 'error', event: 'limits_error', name: error instanceof Error ? error.name : typeof error });
    return true;
  }
}
