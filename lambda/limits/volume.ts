// What the form backend asks of the limit counters: may this sender post again, may this lead be
// mailed on its own, and may one more lead e-mail go out this hour. A counter that cannot be
// reached never costs a lead: the post is let through (the store that follows is the check that
// matters) and the failure is logged.
import type { Logger } from '../log.ts';
import type { ClientNetworks } from './client-address.ts';
import type { LimitCounter } from './counter.ts';
import { VOLUME_LIMITS } from './settings.ts';

export interface VolumeLimits {
  counter: LimitCounter;
  /** Lead e-mails an hour before the rest are held for the digest (VOLUME_LIMITS.mailsPerHour by default). */
  mailsPerHour: number;
}

export interface Sender extends ClientNetworks {
  emailKey: string;
  /** The submission's id: a retry of it takes no slot of its own. */
  submissionId: string;
}

/** What the limits make of a post: refused (429) past a limit on where it came from, held for the digest past the one on its e-mail address. */
export type Verdict =
  | { refuse: { limit: 'perAddress' | 'perSite'; retryAfterSeconds: number } }
  | { refuse?: undefined; holdForDigest: boolean };

export async function checkSender(limits: VolumeLimits, sender: Sender, now: Date, log: Logger): Promise<Verdict> {
  try {
    const byAddress = await limits.counter.take('perAddress', VOLUME_LIMITS.perAddress, sender.address, now, sender.submissionId);
    if (!byAddress.ok) return { refuse: { limit: 'perAddress', retryAfterSeconds: byAddress.retryAfterSeconds } };
    if (sender.site) {
      const bySite = await limits.counter.take('perSite', VOLUME_LIMITS.perSite, sender.site, now, sender.submissionId);
      if (!bySite.ok) return { refuse: { limit: 'perSite', retryAfterSeconds: bySite.retryAfterSeconds } };
    }
    // Anyone can type anyone's address: past this limit the lead is still taken, and mailed in the digest.
    const byEmail = await limits.counter.take('perEmail', VOLUME_LIMITS.perEmail, sender.emailKey, now, sender.submissionId);
    return { holdForDigest: !byEmail.ok };
  } catch (error) {
    log({ level: 'error', event: 'limits_error', name: error instanceof Error ? error.name : typeof error });
    return { holdForDigest: false };
  }
}

/** Takes one of this hour's lead e-mails: false once the hour's cap is reached (the lead waits for the digest). */
export async function mayMailNow(limits: VolumeLimits, now: Date, log: Logger): Promise<boolean> {
  try {
    const slot = await limits.counter.take('mailsPerHour', { max: limits.mailsPerHour, windowMs: VOLUME_LIMITS.mailsPerHour.windowMs }, 'all', now);
    return slot.ok;
  } catch (error) {
    log({ level: 'error', event: 'limits_error', name: error instanceof Error ? error.name : typeof error });
    return true;
  }
}
