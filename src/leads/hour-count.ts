// The hourly cap on lead e-mails for `site leads resend` on a table in AWS named without its limits
// table (--limits-table): this hour's lead e-mails counted from the leads themselves (those sent on
// their own since the hour began), and every send this run makes counted on top. The handler and
// the scheduled mailer count in the limits table; this comes to the same figure, short of any sent
// while the command runs.
import type { LeadRecord } from '../../lambda/leads/record.ts';
import type { LimitCounter } from '../../lambda/limits/counter.ts';

export function countFromLeads(leads: readonly LeadRecord[]): LimitCounter {
  let used: number | undefined;
  return {
    async take(_name, limit, _key, at) {
      const windowStart = Math.floor(at.getTime() / limit.windowMs) * limit.windowMs;
      used ??= leads.filter((l) => l.mail.state === 'sent' && !l.mail.inDigest && l.mail.lastAttemptAt && Date.parse(l.mail.lastAttemptAt) >= windowStart).length;
      if (used >= limit.max) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + limit.windowMs - at.getTime()) / 1000)) };
      used += 1;
      return { ok: true };
    },
  };
}
