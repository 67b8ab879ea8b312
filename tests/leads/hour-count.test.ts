// `site leads resend` on a table in AWS named without its limits table: the hour's lead e-mails
// counted from the leads, so the hourly cap holds there too.
import { describe, expect, it } from 'vitest';
import type { LeadRecord } from '../../lambda/leads/record.ts';
import { VOLUME_LIMITS } from '../../lambda/limits/settings.ts';
import { countFromLeads } from '../../src/leads/hour-count.ts';
import { leadFieldValues } from '../../forms/fields.ts';

const lead = (id: string, mail: LeadRecord['mail']): LeadRecord => ({
  submissionId: id, form: 'contact', receivedAt: '2026-09-01T09:00:00.000Z', ...leadFieldValues({ name: id, email: `${id}@example.org`, message: 'Hello' }),
  emailKey: `${id}@example.org`, source: 'https://www.example.co.uk/contact', mail, expiresAt: 1_900_000_000,
});

describe('the hour counted from the leads', () => {
  it('counts the lead e-mails sent on their own since the hour began, and every take this run on top', async () => {
    const leads = [
      lead('this-hour-1', { state: 'sent', attempts: 1, lastAttemptAt: '2026-09-01T10:05:00.000Z' }),
      lead('this-hour-2', { state: 'sent', attempts: 2, lastAttemptAt: '2026-09-01T10:40:00.000Z' }),
      lead('in-a-digest', { state: 'sent', attempts: 1, inDigest: true, lastAttemptAt: '2026-09-01T10:41:00.000Z' }),
      lead('last-hour', { state: 'sent', attempts: 1, lastAttemptAt: '2026-09-01T09:59:00.000Z' }),
      lead('unsent', { state: 'pending', attempts: 1, lastError: 'throttled', lastAttemptAt: '2026-09-01T10:30:00.000Z' }),
    ];
    const counter = countFromLeads(leads);
    const cap = { max: 4, windowMs: VOLUME_LIMITS.mailsPerHour.windowMs };
    const at = new Date('2026-09-01T10:45:00.000Z');

    expect(await counter.take('mailsPerHour', cap, 'all', at)).toEqual({ ok: true });
    expect(await counter.take('mailsPerHour', cap, 'all', at)).toEqual({ ok: true });
    expect(await counter.take('mailsPerHour', cap, 'all', at)).toEqual({ ok: false, retryAfterSeconds: 15 * 60 });
  });
});
