// A flood never buries a real lead: with 2,000 likely-spam leads held (a script rotating the /64s
// of one /48, all past its limit), a real lead held for the digest before them goes out in the
// mailer's next run, first of its first digest, and the likely spam after it, flagged; the run reads
// the index of unsent leads a page at a time and stops once its digests are full; and the index's
// writes spread over its shards. The 100,000-lead measurement is scale/flood.test.ts. Real dynalite
// and aws-ses-v2-local, through the real SDK clients.
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { DIGEST_BOUNDS } from '../../lambda/leads/digest-plan.ts';
import { UNSENT_INDEX, UNSENT_SHARDS } from '../../lambda/leads/record.ts';
import { createResendJob } from '../../lambda/leads/resend-job.ts';
import { leadStore, UNSENT_PAGE } from '../../lambda/leads/store.ts';
import { LIKELY_SPAM_MARK } from '../../lambda/email.ts';
import { leadsToCsv, parseLeadsCsv } from '../../src/leads/csv.ts';
import { countQueryItems, heldLead, storeFlood } from './flood.ts';
import { memoryLogger, sesClientFor, storedEmails, testConfig, useLeadBackends } from './support.ts';

const backends = useLeadBackends();
const T0 = new Date('2026-11-25T09:00:00Z');
const FLOOD = 2_000;

describe('a flood of likely spam', () => {
  it('does not hold back a real lead held before it: the next run mails it first, the likely spam after it, flagged, reading a page at a time', async () => {
    const client = backends.store.local.client();
    const { table } = backends.leads;
    await backends.leads.putNew(heldLead('real-lead', 'Real Visitor', new Date(T0.getTime() - 60_000)));
    await storeFlood(client, table, FLOOD, T0);

    const counted = backends.store.local.client();
    const reads = countQueryItems(counted);
    const report = await createResendJob({ ses: sesClientFor(backends.ses.endpoint), leads: leadStore(counted, table), config: testConfig(), log: memoryLogger(), now: () => new Date(T0.getTime() + 40 * 60_000) })();

    expect(report.digested[0]).toBe('real-lead');
    expect(report.digested).toHaveLength(DIGEST_BOUNDS.perRun * DIGEST_BOUNDS.maxLeads);
    expect(report.unread).toBe(true);
    // What it read from the index: the digests' leads and a page beyond, never the 2,000.
    expect(reads.items).toBeLessThanOrEqual(report.digested.length + 2 * UNSENT_PAGE);

    const digests = await storedEmails(backends.ses);
    const first = digests.map((d) => d.body.text ?? '').find((text) => text.includes('Name: Real Visitor'))!;
    expect(first).toMatch(/^1\. Contact[^\n]*: Real Visitor$/m);
    expect(first).toMatch(new RegExp(`^2\\. ${LIKELY_SPAM_MARK} \\(past its network's limit\\) Contact[^\\n]*: Flood 0$`, 'm'));
    // The flood goes oldest first after it.
    expect(report.digested.slice(1, 4)).toEqual(['flood-0', 'flood-1', 'flood-2']);
  }, 120_000);

  it('a page the index fails (throttled) ends the reading, not the run: the digests planned from what was read still go', async () => {
    const client = backends.store.local.client();
    await storeFlood(client, backends.leads.table, 600, T0);
    const throttled = backends.store.local.client();
    let queries = 0;
    throttled.middlewareStack.add((next) => async (args) => {
      if ((args.input as { KeyConditionExpression?: string }).KeyConditionExpression && ++queries > 12) {
        throw Object.assign(new Error('Throughput exceeds the current capacity of your table or index.'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } });
      }
      return next(args);
    }, { step: 'initialize', name: 'throttleQueries' });
    const log = memoryLogger();
    const report = await createResendJob({ ses: sesClientFor(backends.ses.endpoint), leads: leadStore(throttled, backends.leads.table), config: testConfig(), log, now: () => new Date(T0.getTime() + 40 * 60_000) })();
    expect(report.unread).toBe(true);
    expect(report.digested.length).toBeGreaterThan(0);
    expect(report.digested.slice(0, 2)).toEqual(['flood-0', 'flood-1']);
    expect(log.entries.filter((e) => e.event === 'resend_read_error').map((e) => e.name)).toEqual(['ThrottlingException']);
  });

  it('spreads the index of unsent leads over its shards, each read by its own key', async () => {
    const client = backends.store.local.client();
    await storeFlood(client, backends.leads.table, 400, T0);
    const perShard: number[] = [];
    for (let n = 0; n < UNSENT_SHARDS; n += 1) {
      const answer = await client.send(new QueryCommand({ TableName: backends.leads.table, IndexName: UNSENT_INDEX, KeyConditionExpression: 'unsent = :shard', ExpressionAttributeValues: { ':shard': { S: `pending#${n}` } }, Select: 'COUNT' }));
      perShard.push(answer.Count ?? 0);
    }
    expect(perShard.reduce((a, b) => a + b, 0)).toBe(400);
    // Each shard has about its share (50): none twice it, none empty.
    for (const count of perShard) expect(count).toBeGreaterThan(400 / UNSENT_SHARDS / 2);
    for (const count of perShard) expect(count).toBeLessThan((400 / UNSENT_SHARDS) * 2);
    expect((await backends.leads.unsent()).map((l) => l.submissionId).slice(0, 3)).toEqual(['flood-0', 'flood-1', 'flood-2']);
  });

  it('keeps the likely-spam reason in the CSV export, and reads it back', () => {
    const spam = heldLead('spam-1', 'Autofilled', T0, 'hidden field filled');
    const real = heldLead('real-1', 'Real', T0);
    const csv = leadsToCsv([spam, real]);
    expect(csv.split('\r\n')[0]).toMatch(/"likelySpam"$/);
    expect(parseLeadsCsv(csv).map((l) => l.likelySpam)).toEqual(['hidden field filled', undefined]);
  });
});
