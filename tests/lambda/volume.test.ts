// Leads under attack: a flood from one address (an IPv4 address, an IPv6 /64) is cut off with 429s
// and nothing past the limit is stored; a flood from one IPv6 /48 or for one e-mail address, a
// network past its share of the hour's e-mails, or leads past the hourly e-mail cap are still
// stored and go out in the digest, so no limit can be aimed at another visitor; a retry of the
// same submission takes no slot; ids a client sends cannot aim at another visitor's lead. Real dynalite and
// aws-ses-v2-local servers, through the real AWS SDK clients.
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import type { HttpEvent } from '../../lambda/event.ts';
import { ensureLimitsTable } from '../../lambda/leads/local-store.ts';
import { createResendJob } from '../../lambda/leads/resend-job.ts';
import { limitCounter } from '../../lambda/limits/counter.ts';
import { networkMailsPerHour, VOLUME_LIMITS } from '../../lambda/limits/settings.ts';
import type { VolumeLimits } from '../../lambda/limits/volume.ts';
import { METRICS } from '../../lambda/metrics.ts';
import {
  formPost, jsonPost, memoryLogger, ORIGIN_SECRET as SECRET, sesClientFor, storedEmails, testConfig, useLeadBackends, validContact, viaCloudFront,
} from './support.ts';

const backends = useLeadBackends();

let tables = 0;
/** A fresh, empty counters table on the test's dynalite, with an hourly cap of `mailsPerHour`. */
async function freshLimits(mailsPerHour: number = VOLUME_LIMITS.mailsPerHour.max): Promise<VolumeLimits> {
  const client = backends.store.local.client();
  const table = `limits-${++tables}`;
  await ensureLimitsTable(client, table);
  return { counter: limitCounter(client, table), mailsPerHour };
}


const distinct = (i: number) => validContact({ submissionId: `f1000d00-0000-4000-8000-${String(i).padStart(12, '0')}`, email: `visitor${i}@example.org`, name: `Visitor ${i}` });

describe('a flood from one client address', () => {
  it('is cut off at the limit with 429 and Retry-After: nothing past it is stored or mailed', async () => {
    const now = new Date('2026-11-25T10:01:00Z');
    const log = memoryLogger();
    // SES's answers are waited for, however slow the machine: the SDK's own time limits (a second to
    // connect, six to answer) would otherwise turn a busy moment into a send that did not go.
    const ses = sesClientFor(backends.ses.endpoint, { connectionTimeoutMs: 120_000, requestTimeoutMs: 120_000 });
    const handler = createHandler({ ses, leads: backends.leads, limits: await freshLimits(), config: testConfig({ originSecret: SECRET }), now: () => now, log });

    // 30 distinct valid posts, 10 at a time, all from one viewer address; each forges another X-Forwarded-For.
    const statuses: number[] = [];
    const retryAfter: (string | undefined)[] = [];
    for (let batch = 0; batch < 3; batch += 1) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, j) => {
        const i = batch * 10 + j;
        return handler(viaCloudFront(jsonPost(distinct(i)), '203.0.113.7:51234', { 'x-forwarded-for': `198.51.100.${i}` }));
      }));
      for (const a of answers) { statuses.push(a.statusCode); retryAfter.push(a.headers['retry-after']); }
    }

    expect(statuses.filter((s) => s === 200)).toHaveLength(VOLUME_LIMITS.perAddress.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - VOLUME_LIMITS.perAddress.max);
    // The window slides: the five posts of 10:01 fill it until, two minutes into the next 10-minute
    // count (10:12), less than four fifths of them are still inside it: 11 minutes on.
    expect(new Set(retryAfter.filter((_, i) => statuses[i] === 429))).toEqual(new Set(['660']));
    expect(await backends.leads.all()).toHaveLength(VOLUME_LIMITS.perAddress.max);
    expect(await storedEmails(backends.ses)).toHaveLength(VOLUME_LIMITS.perAddress.max);
    // Each refusal is counted for the alarm, and says which limit.
    const refused = log.entries.filter((e) => e.status === 429);
    expect(refused).toHaveLength(25);
    expect(refused[0]).toMatchObject({ reason: 'rate-limited-perAddress', [METRICS.rateLimited]: 1 });

    // Another visitor, from another address, is not affected.
    expect((await handler(viaCloudFront(jsonPost(distinct(99)), '192.0.2.44:40000'))).statusCode).toBe(200);
  // A hang guard: about 3 s on a quiet machine.
  }, 120_000);

  it('answers a plain form post over the limit with a page that says to wait, and the JSON caller with the error', async () => {
    const now = new Date('2026-11-25T10:00:00Z');
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits: await freshLimits(), config: testConfig(), now: () => now, log: memoryLogger() });
    const from = (event: HttpEvent) => ({ ...event, requestContext: { ...event.requestContext, http: { ...event.requestContext?.http, sourceIp: '203.0.113.9' } } });
    for (let i = 0; i < VOLUME_LIMITS.perAddress.max; i += 1) expect((await handler(from(jsonPost(distinct(i))))).statusCode).toBe(200);

    const json = await handler(from(jsonPost(distinct(50))));
    expect(json.statusCode).toBe(429);
    expect(JSON.parse(json.body)).toEqual({ ok: false, error: 'Too many messages' });
    const page = await handler(from(formPost({ name: 'Morag', email: 'morag@example.org', message: 'Hello', isHuman: 'on' }, { referer: 'https://www.example.co.uk/contact' })));
    expect(page.statusCode).toBe(429);
    expect(page.headers['retry-after']).toBe('720');
    expect(page.body).toContain('Please go back and try again in 12 minutes');
    expect(page.body).toContain('<a href="/contact">Go back to the form</a>');
    expect(await backends.leads.all()).toHaveLength(VOLUME_LIMITS.perAddress.max);
  });

  it('counts an IPv6 visitor by their /64, and trusts the viewer address only from CloudFront', async () => {
    const limits = await freshLimits();
    const now = () => new Date('2026-11-25T12:00:00Z');
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits, config: testConfig({ originSecret: SECRET }), now, log: memoryLogger() });
    // Six addresses in one /64, as CloudFront writes them (the port after the last colon).
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await handler(viaCloudFront(jsonPost(distinct(i)), `2001:db8:abcd:12::${i + 1}:443`))).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

    // Without the origin secret configured (no CloudFront in front), the header is the client's own
    // words and is ignored: the socket's address counts.
    const direct = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits: await freshLimits(), config: testConfig(), now, log: memoryLogger() });
    const forged = (i: number) => ({ ...jsonPost(distinct(100 + i)), headers: { ...jsonPost({}).headers, 'cloudfront-viewer-address': `198.51.100.${i}:1` }, requestContext: { http: { method: 'POST', sourceIp: '203.0.113.200' } } });
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push((await direct({ ...forged(i), body: JSON.stringify(distinct(100 + i)) })).statusCode);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('a flood for one e-mail address', () => {
  it('never turns a post away: past the limit, whatever the addresses it comes from, the leads are stored and held for the digest', async () => {
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits: await freshLimits(), config: testConfig({ originSecret: SECRET }), now: () => new Date('2026-11-25T12:30:00Z'), log: memoryLogger() });
    const statuses = [];
    for (let i = 0; i < 8; i += 1) {
      const post = viaCloudFront(jsonPost(validContact({ submissionId: `e0000000-0000-4000-8000-00000000000${i}`, email: i % 2 ? 'Victim@Example.org' : 'victim@example.org', message: `Message ${i}` })), `198.51.100.${i}:1000`);
      statuses.push((await handler(post)).statusCode);
    }
    expect(statuses).toEqual(Array(8).fill(200));
    const stored = await backends.leads.all();
    expect(stored).toHaveLength(8);
    expect(stored.filter((l) => l.mail.state === 'sent')).toHaveLength(VOLUME_LIMITS.perEmail.max);
    expect(stored.filter((l) => l.mail.held)).toHaveLength(8 - VOLUME_LIMITS.perEmail.max);
    expect(await storedEmails(backends.ses)).toHaveLength(VOLUME_LIMITS.perEmail.max);
  });
});

describe('limits that cannot be aimed at someone else', () => {
  it("five posts naming a visitor's address, from five addresses, do not lock that visitor out: their own post is stored and mailed in the next digest", async () => {
    const arrived = new Date('2026-11-25T15:00:00Z');
    let clock = arrived;
    const limits = await freshLimits();
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits, config: testConfig({ originSecret: SECRET }), now: () => clock, log: memoryLogger() });
    for (let i = 0; i < VOLUME_LIMITS.perEmail.max; i += 1) {
      const attack = validContact({ submissionId: `a77ac000-0000-4000-8000-00000000000${i}`, email: 'victim@example.org', name: `Attacker ${i}` });
      expect((await handler(viaCloudFront(jsonPost(attack), `198.51.100.${i}:1000`))).statusCode).toBe(200);
    }

    const real = await handler(viaCloudFront(jsonPost(validContact({ submissionId: 'f1c71300-0000-4000-8000-000000000001', email: 'victim@example.org', name: 'Real Victim' })), '203.0.113.50:2000'));

    expect(real.statusCode).toBe(200);
    expect(real.headers['retry-after']).toBeUndefined();
    const [victim] = (await backends.leads.all()).filter((l) => l.name === 'Real Victim');
    expect(victim?.mail).toMatchObject({ state: 'pending', held: true });
    expect((await storedEmails(backends.ses)).map((e) => e.subject).filter((s) => s.includes('Real Victim'))).toEqual([]);

    // The hour's cap is far from reached, yet the mailer sends it in a digest, not a mail of its own.
    clock = new Date(arrived.getTime() + 5 * 60_000);
    const report = await createResendJob({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits, config: testConfig(), log: memoryLogger(), now: () => clock })();
    expect(report).toMatchObject({ sent: [], digested: [victim!.submissionId] });
    const digest = (await storedEmails(backends.ses)).at(-1)!;
    expect(digest.subject).toBe('Website leads: 1 new lead from the website, sent together');
    expect(digest.body.text).toContain('Name: Real Victim');
  });

  it('a browser retrying one submission uses one slot of each limit, however often it retries', async () => {
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits: await freshLimits(), config: testConfig({ originSecret: SECRET }), now: () => new Date('2026-11-25T16:01:00Z'), log: memoryLogger() });
    const from = (body: Record<string, unknown>) => viaCloudFront(jsonPost(body), '203.0.113.60:3000');
    const retried = validContact({ submissionId: 'e7e7e7e7-0000-4000-8000-000000000001', email: 'retry@example.org' });

    const retries = [];
    for (let i = 0; i < 8; i += 1) retries.push((await handler(from(retried))).statusCode);
    // Four more submissions fill the address's five slots; the one after is refused.
    const more = [];
    for (let i = 1; i <= VOLUME_LIMITS.perAddress.max; i += 1) more.push((await handler(from(distinct(700 + i)))).statusCode);

    expect(retries).toEqual(Array(8).fill(200));
    expect(more).toEqual([...Array(VOLUME_LIMITS.perAddress.max - 1).fill(200), 429]);
    expect((await backends.leads.all()).filter((l) => l.email === 'retry@example.org')).toHaveLength(1);
    expect((await storedEmails(backends.ses)).filter((e) => e.replyTo.includes('retry@example.org'))).toHaveLength(1);
  });

  it("counts an IPv6 visitor's /48 too, but never refuses it: a carrier's neighbours are held for the digest, not locked out", async () => {
    const log = memoryLogger();
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits: await freshLimits(), config: testConfig({ originSecret: SECRET }), now: () => new Date('2026-11-25T17:00:00Z'), log });
    // A script rotating through the /64s of one /48, then a neighbour on the same carrier's /48.
    const statuses = [];
    for (let i = 1; i <= 12; i += 1) statuses.push((await handler(viaCloudFront(jsonPost(distinct(800 + i)), `2001:db8:77:${i.toString(16)}::1:443`))).statusCode);
    const neighbour = await handler(viaCloudFront(jsonPost(validContact({ name: 'Neighbour', email: 'neighbour@example.org' })), '2001:db8:77:ff::1:443'));

    expect(statuses).toEqual(Array(12).fill(200));
    expect(neighbour.statusCode).toBe(200);
    const stored = await backends.leads.all();
    expect(stored).toHaveLength(13);
    // Mailed one each: the /48's share of the hour (a fifth of 30); the rest wait for the digest.
    expect(stored.filter((l) => l.mail.state === 'sent')).toHaveLength(networkMailsPerHour(VOLUME_LIMITS.mailsPerHour.max));
    expect(stored.filter((l) => l.mail.held)).toHaveLength(13 - networkMailsPerHour(VOLUME_LIMITS.mailsPerHour.max));
    expect(stored.find((l) => l.email === 'neighbour@example.org')?.mail).toMatchObject({ state: 'pending', held: true });
    expect(log.entries.filter((e) => e.reason === 'held-per-site')).toHaveLength(13 - VOLUME_LIMITS.perSite.max);
    // Past the /48's limit is how a flood rotating its /64s looks: flagged likely spam with the reason, so it goes after every real lead.
    expect(stored.filter((l) => l.likelySpam).map((l) => l.likelySpam)).toEqual(Array(13 - VOLUME_LIMITS.perSite.max).fill("past its network's limit"));
    expect(stored.filter((l) => l.mail.held && !l.likelySpam)).toHaveLength(VOLUME_LIMITS.perSite.max - networkMailsPerHour(VOLUME_LIMITS.mailsPerHour.max));
    expect(log.entries.filter((e) => e.status === 429)).toEqual([]);
    // Another /48 is another network, mailed on its own.
    expect((await handler(viaCloudFront(jsonPost(distinct(899)), '2001:db8:78:1::1:443'))).statusCode).toBe(200);
    expect((await backends.leads.all()).find((l) => l.email === 'visitor899@example.org')?.mail.state).toBe('sent');
  });
});

describe("one network's share of the hour's lead e-mails", () => {
  it('is a fifth: one IPv4 /24 within every other limit cannot push the hour\'s other leads into the digest', async () => {
    const arrived = new Date('2026-11-25T15:00:00Z');
    let clock = arrived;
    const log = memoryLogger();
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits: await freshLimits(), config: testConfig({ originSecret: SECRET }), now: () => clock, log });
    // One address posts its 5 in each 10-minute window, from another address of its /24 too: inside every per-address limit.
    const statuses = [];
    for (let window = 0; window < 3; window += 1) {
      clock = new Date(arrived.getTime() + window * 10 * 60_000);
      for (let i = 0; i < VOLUME_LIMITS.perAddress.max; i += 1) statuses.push((await handler(viaCloudFront(jsonPost(distinct(window * 10 + i)), `203.0.113.${window}:1000`))).statusCode);
    }
    expect(statuses).toEqual(Array(15).fill(200));
    const share = networkMailsPerHour(VOLUME_LIMITS.mailsPerHour.max);
    expect(share).toBe(6);
    expect(await storedEmails(backends.ses)).toHaveLength(share);
    expect(log.entries.filter((e) => e.reason === 'held-network-share' && e[METRICS.digested] === 1)).toHaveLength(15 - share);

    // Real leads from other networks that hour still go out one each, with their Reply-To.
    for (let i = 0; i < 5; i += 1) expect((await handler(viaCloudFront(jsonPost(validContact({ name: `Real ${i}`, email: `real${i}@example.org` })), `192.0.${2 + i}.10:1000`))).statusCode).toBe(200);
    const real = (await storedEmails(backends.ses)).filter((e) => e.replyTo.some((r) => r.startsWith('real')));
    expect(real).toHaveLength(5);
    expect((await backends.leads.all()).filter((l) => l.email.startsWith('real')).every((l) => l.mail.state === 'sent')).toBe(true);
  });
});

describe('sliding windows', () => {
  it("give a burst either side of a window's edge one window's worth, not two", async () => {
    let clock = new Date('2026-11-25T10:09:59Z');
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits: await freshLimits(), config: testConfig({ originSecret: SECRET }), now: () => clock, log: memoryLogger() });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      if (i === VOLUME_LIMITS.perAddress.max) clock = new Date('2026-11-25T10:10:01Z');
      statuses.push((await handler(viaCloudFront(jsonPost(distinct(300 + i)), '203.0.113.9:1000'))).statusCode);
    }
    expect(statuses).toEqual([...Array(VOLUME_LIMITS.perAddress.max).fill(200), ...Array(10 - VOLUME_LIMITS.perAddress.max).fill(429)]);
  });

  it("keep five /24s posting their share at every hour's edge from pushing the next hour's real leads into the digest", async () => {
    let clock = new Date('2026-11-25T10:59:59Z');
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits: await freshLimits(), config: testConfig({ originSecret: SECRET }), now: () => clock, log: memoryLogger() });
    const share = networkMailsPerHour(VOLUME_LIMITS.mailsPerHour.max);
    // Five /24s, each its share of the hour (five addresses of its own, within every per-address limit), just before the hour and just after it.
    const burst = async (first: number) => {
      for (let net = 0; net < 5; net += 1) {
        for (let i = 0; i < share; i += 1) await handler(viaCloudFront(jsonPost(distinct(first + net * 10 + i)), `198.51.${100 + net}.${i + (first % 100)}:1000`));
      }
    };
    await burst(400);
    clock = new Date('2026-11-25T11:00:01Z');
    await burst(500);
    expect((await storedEmails(backends.ses))).toHaveLength(VOLUME_LIMITS.mailsPerHour.max);
    // Half an hour on, a real visitor from elsewhere is mailed on their own, not held for the digest.
    clock = new Date('2026-11-25T11:30:00Z');
    expect((await handler(viaCloudFront(jsonPost(validContact({ name: 'Real Visitor', email: 'real@example.org' })), '192.0.2.10:1000'))).statusCode).toBe(200);
    expect((await backends.leads.all()).find((l) => l.email === 'real@example.org')?.mail).toMatchObject({ state: 'sent' });
  });
});

describe('past the hourly cap on lead e-mails', () => {
  it('stores every lead, mails the first few, and sends the rest as one digest on the mailer\'s next run', async () => {
    const arrived = new Date('2026-11-25T14:00:00Z');
    let clock = arrived;
    const limits = await freshLimits(3);
    const log = memoryLogger();
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits, config: testConfig({ originSecret: SECRET }), now: () => clock, log });

    const statuses = [];
    // Each from a network of its own, so no network's share of the hour comes into it.
    for (let i = 0; i < 8; i += 1) statuses.push((await handler(viaCloudFront(jsonPost(distinct(i)), `198.51.${100 + i}.1:1000`))).statusCode);

    expect(statuses).toEqual(Array(8).fill(200));
    const stored = await backends.leads.all();
    expect(stored).toHaveLength(8);
    expect(stored.filter((l) => l.mail.state === 'sent')).toHaveLength(3);
    expect(stored.filter((l) => l.mail.held)).toHaveLength(5);
    expect(await storedEmails(backends.ses)).toHaveLength(3);
    expect(log.entries.filter((e) => e.reason === 'held-for-digest' && e[METRICS.digested] === 1)).toHaveLength(5);

    // Five minutes on, the scheduled mailer: the hour's cap is still spent, so one digest.
    clock = new Date(arrived.getTime() + 5 * 60_000);
    const jobLog = memoryLogger();
    const report = await createResendJob({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits, config: testConfig(), log: jobLog, now: () => clock })();
    expect(report.digested).toHaveLength(5);
    expect(report.sent).toEqual([]);
    expect(jobLog.entries.at(-1)).toMatchObject({ event: 'resend', [METRICS.digested]: 5 });

    const emails = await storedEmails(backends.ses);
    expect(emails).toHaveLength(4);
    const digest = emails.at(-1)!;
    expect(digest.subject).toBe('Website leads: 5 new leads from the website, sent together');
    expect(digest.replyTo).toEqual([]);
    for (let i = 3; i < 8; i += 1) {
      expect(digest.body.text).toContain(`Email: visitor${i}@example.org`);
      expect(digest.body.html).toContain(`visitor${i}@example.org`);
    }
    const after = await backends.leads.all();
    expect(after.every((l) => l.mail.state === 'sent')).toBe(true);
    expect(after.filter((l) => l.mail.inDigest && l.mail.messageId === digest.messageId)).toHaveLength(5);
    // And the next run has nothing left to send.
    clock = new Date(arrived.getTime() + 10 * 60_000);
    expect(await createResendJob({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits, config: testConfig(), log: jobLog, now: () => clock })()).toMatchObject({ sent: [], digested: [] });
    expect(await storedEmails(backends.ses)).toHaveLength(4);
  });

  it('escapes every lead in the digest', async () => {
    const limits = await freshLimits(1);
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits, config: testConfig(), now: () => new Date('2026-11-25T09:00:00Z'), log: memoryLogger() });
    await handler(jsonPost(distinct(1)));
    await handler(jsonPost(validContact({ submissionId: 'abcdef00-0000-4000-8000-000000000001', name: '<img src=x onerror=alert(1)>', email: 'x@example.org' })));
    await createResendJob({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits, config: testConfig(), log: memoryLogger(), now: () => new Date('2026-11-25T09:05:00Z') })();
    const digest = (await storedEmails(backends.ses)).at(-1)!;
    expect(digest.subject).toContain('1 new lead from the website');
    expect(digest.body.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(digest.body.html).not.toContain('<img');
  });
});

describe('ids the client sends', () => {
  it('cannot pre-claim the id a plain post of the same content will get', async () => {
    const fields = { name: 'Victim Visitor', email: 'victim@example.org', message: 'Please call me back.', isHuman: 'on' };
    const now = new Date('2026-11-25T11:00:00Z');
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, config: testConfig(), now: () => now, log: memoryLogger() });
    // The attacker learns the id a plain post of this content gets (here: by posting it once elsewhere).
    const probe = await backends.store.fresh();
    await createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: probe, config: testConfig(), now: () => now, log: memoryLogger() })(formPost(fields));
    const [probed] = await probe.all();
    expect(probed!.submissionId).toMatch(/^plain-/);
    const plainId = probed!.submissionId.slice('plain-'.length);

    // …and posts JSON with it (as plain letters and digits it passes the id pattern) first.
    const attack = await handler(jsonPost(validContact({ submissionId: `plain-${plainId}`, name: 'Attacker', email: 'attacker@example.org' })));
    expect(attack.statusCode).toBe(200);
    const victim = await handler(formPost(fields));
    expect(victim.statusCode).toBe(303);

    const stored = await backends.leads.all();
    expect(stored.map((l) => l.name).sort()).toEqual(['Attacker', 'Victim Visitor']);
    expect(stored.find((l) => l.name === 'Victim Visitor')!.submissionId).toBe(probed!.submissionId);
    expect((await storedEmails(backends.ses)).filter((e) => e.replyTo.includes('victim@example.org'))).toHaveLength(2); // the probe's and the real one
  });

  it('stores the same id with different content as a lead of its own, never dropping it', async () => {
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, config: testConfig(), log: memoryLogger() });
    const id = 'dddddddd-0000-4000-8000-000000000001';
    expect((await handler(jsonPost(validContact({ submissionId: id, message: 'First words' })))).statusCode).toBe(200);
    expect((await handler(jsonPost(validContact({ submissionId: id, message: 'First words' })))).statusCode).toBe(200);
    expect((await handler(jsonPost(validContact({ submissionId: id, message: 'Other words' })))).statusCode).toBe(200);
    const stored = await backends.leads.all();
    expect(stored.map((l) => l.message).sort()).toEqual(['First words', 'Other words']);
    expect(await storedEmails(backends.ses)).toHaveLength(2);
  });
});
