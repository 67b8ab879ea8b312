// Bounded digests: held leads are split by count and by bytes, every digest well under the 10 MB
// SES allows a message, so a flood of the largest leads the form takes still reaches the inbox, each
// lead once; and a lead too big for any digest, or one SES refused, goes alone and holds no other
// back. Real dynalite and aws-ses-v2-local, through the real SDK clients.
import { describe, expect, it } from 'vitest';
import { DIGEST_BOUNDS, DigestPlan } from '../../lambda/leads/digest-plan.ts';
import { newLead } from '../../lambda/leads/new-lead.ts';
import { createResendJob } from '../../lambda/leads/resend-job.ts';
import { validateContact } from '../../forms/contact.ts';
import { MAX_LENGTHS } from '../../forms/fields.ts';
import { memoryLogger, sesClientFor, storedEmails, testConfig, useLeadBackends } from './support.ts';

const backends = useLeadBackends();
const held = new Date('2026-07-01T10:00:00Z');
const fill = (pattern: string, length: number) => pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length);

/** A lead at every field's maximum, of characters that grow most in the e-mail (escaped in HTML, three bytes in UTF-8). */
function maximalLead(i: number) {
  const tag = `L${String(i).padStart(4, '0')}`;
  const checked = validateContact({
    name: `${tag}${fill('"€<', MAX_LENGTHS.name - tag.length)}`,
    email: `${fill('a', 60)}@${fill('b', 60)}.${fill('c', 60)}.${fill('d', 60)}.uk`,
    company: fill('"€<&', MAX_LENGTHS.company),
    message: fill('"€<&\'', MAX_LENGTHS.message),
    isHuman: true,
  });
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return newLead({ form: 'contact', data: checked.data }, { submissionId: `max-${tag}`, receivedAt: held, source: 'https://www.example.co.uk/contact', retentionMonths: 24 });
}

describe('digests', () => {
  it('1,000 maximal held leads go out in digests each within the bounds, every lead mailed once', async () => {
    // Stored 50 at a time: the leads are independent, and one round trip after another made this
    // set-up a third of the test's time.
    for (let from = 0; from < 1000; from += 50) {
      await Promise.all(Array.from({ length: 50 }, async (_, k) => {
        const lead = maximalLead(from + k);
        await backends.leads.putNew({ ...lead, mail: { ...lead.mail, held: true } });
      }));
    }
    // SES's answers are waited for, however slow the machine: a digest answered after the SDK's six
    // seconds would be an unanswered send, sent again half an hour on.
    const ses = sesClientFor(backends.ses.endpoint, { connectionTimeoutMs: 120_000, requestTimeoutMs: 120_000 });
    let runs = 0;
    for (let minutes = 5; runs < 40; minutes += 5) {
      runs += 1;
      const report = await createResendJob({ ses, leads: backends.leads, config: testConfig(), log: memoryLogger(), now: () => new Date(held.getTime() + minutes * 60_000) })();
      expect(report.failed).toEqual([]);
      // As the schedule does, runs go on while a run was cut short: an index page or a lead the
      // table failed (a loaded machine's dynalite, say) waits for the next run, as it would in production.
      if (report.digested.length === 0 && !report.unread && report.errors.length === 0) break;
    }

    const digests = await storedEmails(backends.ses);
    const names = new Map<string, number>();
    for (const digest of digests) {
      const bytes = Buffer.byteLength(digest.subject) + Buffer.byteLength(digest.body.text ?? '') + Buffer.byteLength(digest.body.html ?? '');
      expect(bytes).toBeLessThanOrEqual(DIGEST_BOUNDS.maxBytes);
      const inIt = [...(digest.body.text ?? '').matchAll(/^Name: (L\d{4})/gm)].map((m) => m[1]!);
      expect(inIt.length).toBeGreaterThan(0);
      expect(inIt.length).toBeLessThanOrEqual(DIGEST_BOUNDS.maxLeads);
      for (const name of inIt) names.set(name, (names.get(name) ?? 0) + 1);
    }
    expect(names.size).toBe(1000);
    expect([...names.values()].every((count) => count === 1)).toBe(true);
    // A few digests a run, not dozens at once.
    expect(digests.length).toBeLessThanOrEqual(runs * DIGEST_BOUNDS.perRun);
    const leads = await backends.leads.all();
    expect(leads.filter((l) => l.mail.state === 'sent' && l.mail.inDigest)).toHaveLength(1000);
    // 1,000 leads stored and mailed through dynalite and the local SES: tens of seconds on a quiet machine.
  }, 600_000);

  it('a lead too big for any digest goes alone, and the rest go together', async () => {
    const big = { ...maximalLead(1), submissionId: 'oversized', message: fill('<', 400_000) };
    await backends.leads.putRaw({ ...big, mail: { state: 'pending', attempts: 0, held: true } });
    for (const i of [2, 3]) {
      const lead = maximalLead(i);
      await backends.leads.putNew({ ...lead, mail: { ...lead.mail, held: true } });
    }
    const report = await createResendJob({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, config: testConfig(), log: memoryLogger(), now: () => new Date(held.getTime() + 5 * 60_000) })();
    expect(report.digested).toHaveLength(3);
    const digests = await storedEmails(backends.ses);
    expect(digests.map((d) => d.subject).sort()).toEqual(['Website leads: 1 new lead from the website, sent together', 'Website leads: 2 new leads from the website, sent together']);
    expect(digests.find((d) => d.subject.includes('1 new lead'))?.body.text).toContain('Name: L0001');
  });

  it('lists the oldest lead first, each with a link that opens a reply to its own address (a digest has no Reply-To)', async () => {
    for (const [i, minutes] of [[11, 30], [12, 10], [13, 20]] as const) {
      const lead = { ...maximalLead(i), email: `lead${i}@example.org`, receivedAt: new Date(held.getTime() - minutes * 60_000).toISOString(), mail: { state: 'pending' as const, attempts: 0, held: true } };
      await backends.leads.putRaw(lead);
    }
    await createResendJob({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, config: testConfig(), log: memoryLogger(), now: () => new Date(held.getTime() + 5 * 60_000) })();
    const [digest] = await storedEmails(backends.ses);
    expect(digest?.replyTo ?? []).toEqual([]);
    const text = digest!.body.text!;
    expect([...text.matchAll(/^Name: (L\d{4})/gm)].map((m) => m[1])).toEqual(['L0011', 'L0013', 'L0012']);
    expect([...text.matchAll(/^Reply: (.+)$/gm)].map((m) => m[1])).toEqual(['11', '13', '12'].map((i) => `mailto:lead${i}@example.org?subject=Re%3A%20Contact%20form`));
    expect(digest!.body.html).toContain('<a href="mailto:lead11@example.org?subject=Re%3A%20Contact%20form">');
  });

  it('plans a lead SES refused last time, or one over the byte bound, in a digest of its own', () => {
    const plan = new DigestPlan<string>({ maxLeads: 3, maxBytes: 10_000, perRun: 3 });
    expect(plan.add('a', 1000)).toBe(true);
    expect(plan.add('refused', 1000, true)).toBe(true);
    expect(plan.add('huge', 50_000)).toBe(true);
    expect(plan.add('b', 1000)).toBe(true);
    expect(plan.add('c', 1000)).toBe(true);
    // Full: three digests a run, the first holding its three.
    expect(plan.hasRoom(1000)).toBe(false);
    expect(plan.add('d', 1000)).toBe(false);
    expect(plan.batches.map((b) => b.items)).toEqual([['a', 'b', 'c'], ['refused'], ['huge']]);
  });
});
