// What the form backend asks of the limit counters: may this sender post again, may this lead be
// mailed on its own, and may one more lead e-mail go out this hour, for its network and in all. A counter that cannot be
// reached never costs a lead: the post is let through (the store that follows is the check that
// matters) and the failure is logged.
import type { Logger } from '../log.ts';
import type { ClientNetworks } from './client-address.ts';
import type { LimitCounter } from './counter.ts';
import { networkMailsPerHour, VOLUME_LIMITS } from './settings.ts';

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

/**
 * What the limits make of a post: refused (429) past the limit on its own address, held for the
 * digest past the one on its IPv6 /48 or on its e-mail address (`heldBy` names which).
 */
export type Verdict =
  | { refuse: { limit: 'perAddress'; retryAfterSeconds: number } }
  | { refuse?: undefined; heldBy?: 'perSite' | 'perEmail' };

export async function checkSender(limits: VolumeLimits, sender: Sender, now: Date, log: Logger): Promise<Verdict> {
  try {
    const byAddress = await limits.counter.take('perAddress', VOLUME_LIMITS.perAddress, sender.address, now, sender.submissionId);
    if (!byAddress.ok) return { refuse: { limit: 'perAddress', retryAfterSeconds: byAddress.retryAfterSeconds } };
    // A /48 is shared by every customer of a carrier's pool: past its limit the lead is still taken, and mailed in the digest.
    const bySite = sender.site ? await limits.counter.take('perSite', VOLUME_LIMITS.perSite, sender.site, now, sender.submissionId) : { ok: true };
    // Anyone can type anyone's address: past this limit the lead is still taken, and mailed in the digest.
    const byEmail = await limits.counter.take('perEmail', VOLUME_LIMITS.perEmail, sender.emailKey, now, sender.submissionId);
    return bySite.ok ? (byEmail.ok ? {} : { heldBy: 'perEmail' }) : { heldBy: 'perSite' };
  } catch (error) {
    log({ level: 'error', event: 'limits_error', name: error instanceof Error ? error.name : typeof error });
    return {};
  }
}

/**
 * Takes one of the hour's lead e-mails of the lead's network, an IPv4 /24 or an IPv6 /48 (its share
 * of mailsPerHour, NETWORK_SHARE_OF_HOUR): false once that share is used up (the lead waits for
 * the digest), so that no one network can push every other lead of the hour into the digest.
 */
export async function networkMayMail(limits: VolumeLimits, network: string, now: Date, log: Logger): Promise<boolean> {
  return takeOrLetThrough(limits, 'networkMailsPerHour', networkMailsPerHour(limits.mailsPerHour), network, now, log);
}

/** Takes one of this hour's lead e-mails: false once the hour's cap is reached (the lead waits for the digest). */
export function mayMailNow(limits: VolumeLimits, now: Date, log: Logger): Promise<boolean> {
  return takeOrLetThrough(limits, 'mailsPerHour', limits.mailsPerHour, 'all', now, log);
}

async function takeOrLetThrough(limits: VolumeLimits, name: string, max: number, key: string, now: Date, log: Logger): Promise<boolean> {
  try {
    const slot = await limits.counter.take(name, { max, windowMs: VOLUME_LIMITS.mailsPerHour.windowMs }, key, now);
    return slot.ok;
  } catch (error) {
    log({ level: 'error', event: 'limits_error', name: error instanceof Error ? error.name : typeof error });
    return true;
  }
}
