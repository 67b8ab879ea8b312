// Digests of the largest leads the form takes: held leads stored at every field's maximum, then
// mailer runs until none is left, each digest checked against the bounds and each lead counted. A
// sample in `npm test` (tests/lambda/digest.test.ts), a thousand in `npm run test:scale`.
import { expect } from 'vitest';
import { DIGEST_BOUNDS } from '../../lambda/leads/digest-plan.ts';
import { newLead } from '../../lambda/leads/new-lead.ts';
import { createResendJob } from '../../lambda/leads/resend-job.ts';
import { validateContact } from '../../forms/contact.ts';
import { MAX_LENGTHS } from '../../forms/fields.ts';
import { memoryLogger, sesClientFor, storedEmails, testConfig, type LeadBackends } from './support.ts';

export const held = new Date('2026-07-01T10:00:00Z');
export const fill = (pattern: string, length: number) => pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length);

/** A lead at every field's maximum, of characters that grow most in the e-mail (escaped in HTML, three bytes in UTF-8). */
export function maximalLead(i: number) {
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

/** `count` maximal held leads go out in digests within the bounds, every lead mailed once; how many runs and digests that took. */
export async function digestsOfMaximalLeads(backends: LeadBackends, count: number): Promise<{ runs: number; digests: number }> {
  // Stored 50 at a time: the leads are independent, and one round trip after another made this
  // set-up a third of the test's time.
  for (let from = 0; from < count; from += 50) {
    await Promise.all(Array.from({ length: Math.min(50, count - from) }, async (_, k) => {
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
  expect(names.size).toBe(count);
  expect([...names.values()].every((n) => n === 1)).toBe(true);
  // A few digests a run, not dozens at once.
  expect(digests.length).toBeLessThanOrEqual(runs * DIGEST_BOUNDS.perRun);
  const leads = await backends.leads.all();
  expect(leads.filter((l) => l.mail.state === 'sent' && l.mail.inDigest)).toHaveLength(count);
  return { runs, digests: digests.length };
}
