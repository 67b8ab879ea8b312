// Bounded digests: held leads are split by count and by bytes, every digest well under the 10 MB
// SES allows a message, so a flood of the largest leads the form takes still reaches the inbox, each
// lead once; and a lead too big for any digest, or one SES refused, goes alone and holds no other
// back. Real dynalite and aws-ses-v2-local, through the real SDK clients.
import { describe, expect, it } from 'vitest';
import { DIGEST_BOUNDS, DigestPlan } from '../../lambda/leads/digest-plan.ts';
import { createResendJob } from '../../lambda/leads/resend-job.ts';
import { memoryLogger, sesClientFor, storedEmails, testConfig, useLeadBackends } from './support.ts';
import { digestsOfMaximalLeads, fill, held, maximalLead } from './maximal-digests.ts';

const backends = useLeadBackends();
describe('digests', () => {
  // Several runs' worth: a digest holds a score or so of these leads before its byte bound, and a run
  // sends five at most, so the bounds by bytes and by run both bite. A thousand: scale/digests.test.ts.
  it('300 maximal held leads go out in digests each within the bounds, every lead mailed once', async () => {
    const { digests } = await digestsOfMaximalLeads(backends, 300);
    expect(digests).toBeGreaterThan(DIGEST_BOUNDS.perRun);
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
