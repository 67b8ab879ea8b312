// Store first, then mail: every lead is in the table before SES is asked, so no mail outage loses
// one. Real dynalite and aws-ses-v2-local servers through the real AWS SDK clients.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import { localClient } from '../../lambda/leads/local-store.ts';
import { createResendJob, STUCK_METRIC } from '../../lambda/leads/resend-job.ts';
import { resendLeads } from '../../lambda/leads/resend.ts';
import { leadStore } from '../../lambda/leads/store.ts';
import {
  formPost, jsonPost, memoryLogger, sesClientFor, storedEmails, testConfig, useLeadBackends, validAssessment, validContact,
} from './support.ts';

const backends = useLeadBackends();

/** An endpoint nothing listens on: a port the OS handed out and took back. */
async function closedEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}


/** The key a lead posted with the browser's id `id` is stored under: in the client namespace, joined to its content. */
const clientKey = (id: string) => expect.stringMatching(new RegExp(`^client-${id}-[0-9a-f]{16}$`));

const mailer = () => ({ ses: sesClientFor(backends.ses.endpoint), store: backends.leads, mailTo: 'leads@example.co.uk', mailFrom: 'website@example.co.uk' });

describe('store first', () => {
  it('stores and mails a lead, recording the SES message id on its record', async () => {
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, config: testConfig({ retentionMonths: 24 }), now: () => new Date('2026-03-31T12:00:00Z'), log: memoryLogger() });
    const result = await handler(jsonPost(validAssessment({ submissionId: '7b0c4a52-7d2f-4d55-9a38-3f1a8f1c2e01' })));
    expect(result.statusCode).toBe(200);

    const [lead] = await backends.leads.all();
    const [email] = await storedEmails(backends.ses);
    expect(lead).toMatchObject({
      submissionId: clientKey('7b0c4a52-7d2f-4d55-9a38-3f1a8f1c2e01'),
      form: 'assessment',
      email: 'ewan@example.org.uk',
      emailKey: 'ewan@example.org.uk',
      receivedAt: '2026-03-31T12:00:00.000Z',
      // 24 months on (TTL, epoch seconds).
      expiresAt: Date.parse('2028-03-31T12:00:00Z') / 1000,
      mail: { state: 'sent', attempts: 1, messageId: email?.messageId },
    });
    expect(Object.keys(lead?.assessment ?? {})).toHaveLength(6);
  });

  it('answers success when SES is down, keeps the lead unsent, and a resend once SES is back delivers exactly one e-mail', async () => {
    const down = sesClientFor(await closedEndpoint());
    const handler = createHandler({ ses: down, leads: backends.leads, config: testConfig(), log: memoryLogger() });

    const result = await handler(jsonPost(validContact({ submissionId: 'c0ffee00-0000-4000-8000-000000000001' })));

    expect(result.statusCode).toBe(200);
    expect(await storedEmails(backends.ses)).toHaveLength(0);
    expect((await backends.leads.unsent()).map((l) => [l.submissionId, l.mail.lastError])).toEqual([[clientKey('c0ffee00-0000-4000-8000-000000000001'), 'connection']]);

    const first = await resendLeads(mailer(), { now: true });
    const again = await resendLeads(mailer(), { now: true });

    expect(first.sent).toEqual([clientKey('c0ffee00-0000-4000-8000-000000000001')]);
    expect(again.sent).toEqual([]);
    const emails = await storedEmails(backends.ses);
    expect(emails.map((e) => e.replyTo)).toEqual([['morag@tayside-example.co.uk']]);
    expect(emails[0]?.subject).toBe('Contact form: Morag Campbell (Tayside Widgets Ltd)');
    expect(await backends.leads.get(first.sent[0]!)).toMatchObject({ mail: { state: 'sent', attempts: 2, messageId: emails[0]?.messageId } });
    expect(await backends.leads.unsent()).toHaveLength(0);
  });

  it('stores and mails the same submissionId once, however often it is posted', async () => {
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, config: testConfig(), log: memoryLogger() });
    const post = () => handler(jsonPost(validContact({ submissionId: 'a1b2c3d4-0000-4000-8000-00000000abcd' })));

    const answers = [await post(), await post(), ...(await Promise.all([post(), post(), post()]))];

    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await backends.leads.all()).toHaveLength(1);
    expect(await storedEmails(backends.ses)).toHaveLength(1);
  });

  it('makes a double-sent plain form one lead (an id derived from the content), and a different message another', async () => {
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, config: testConfig(), log: memoryLogger() });
    const fields = { name: 'Morag', email: 'morag@tayside-example.co.uk', message: 'Hello', isHuman: 'on' };

    const answers = await Promise.all([handler(formPost(fields)), handler(formPost(fields))]);
    await handler(formPost({ ...fields, message: 'Hello again' }));

    expect(answers.map((a) => [a.statusCode, a.headers.location])).toEqual([[303, '/thank-you'], [303, '/thank-you']]);
    const stored = await backends.leads.all();
    expect(stored).toHaveLength(2);
    expect(stored.every((l) => l.submissionId.startsWith('plain-'))).toBe(true);
    expect(await storedEmails(backends.ses)).toHaveLength(2);
  });

  it('stores and mails 50 different leads posted at once: one record and one e-mail each', async () => {
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, config: testConfig(), log: memoryLogger() });
    const ids = Array.from({ length: 50 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

    const answers = await Promise.all(ids.map((id, i) => handler(jsonPost(validContact({ submissionId: id, name: `Visitor ${i}` })))));

    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const stored = await backends.leads.all();
    expect(stored.map((l) => l.submissionId.replace(/^client-(.*)-[0-9a-f]{16}$/, '$1')).sort()).toEqual(ids);
    expect(stored.every((l) => l.mail.state === 'sent')).toBe(true);
    const subjects = (await storedEmails(backends.ses)).map((e) => e.subject).sort();
    expect(subjects).toEqual(ids.map((_, i) => `Contact form: Visitor ${i} (Tayside Widgets Ltd)`).sort());
  });

  it('answers 503 with Retry-After when the store is unreachable, and e-mails nothing', async () => {
    const client = localClient(await closedEndpoint());
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: leadStore(client, 'site-leads'), config: testConfig(), log: memoryLogger() });

    const json = await handler(jsonPost(validContact()));
    const plain = await handler(formPost({ name: 'Morag', email: 'morag@tayside-example.co.uk', message: 'Hello', isHuman: 'on' }, { referer: 'https://www.example.co.uk/contact' }));

    expect(json.statusCode).toBe(503);
    expect(json.headers['retry-after']).toBe('10');
    expect(JSON.parse(json.body)).toEqual({ ok: false, error: 'Failed to send message' });
    expect(plain.statusCode).toBe(503);
    expect(plain.headers['retry-after']).toBe('10');
    expect(plain.body).toContain('<a href="/contact">Go back to the form</a>');
    expect(await storedEmails(backends.ses)).toHaveLength(0);
    client.destroy();
  });
});

describe('the scheduled retry mailer', () => {
  it('leaves a new lead to the handler, retries with backoff, and counts leads stuck for 30 minutes', async () => {
    const arrived = new Date('2026-05-01T09:00:00Z');
    const down = createHandler({ ses: sesClientFor(await closedEndpoint()), leads: backends.leads, config: testConfig(), now: () => arrived, log: memoryLogger() });
    await down(jsonPost(validContact({ submissionId: 'b0b0b0b0-0000-4000-8000-000000000001' })));
    let clock = arrived;
    const log = memoryLogger();
    const deadSes = sesClientFor(await closedEndpoint());
    const job = (sender = deadSes) => createResendJob({ ses: sender, leads: backends.leads, config: testConfig(), log, now: () => clock })();

    clock = new Date(arrived.getTime() + 60_000); // within the handler's grace period
    expect((await job()).waiting).toBe(1);
    clock = new Date(arrived.getTime() + 3 * 60_000); // due: fails again (attempt 2)
    expect((await job()).failed).toHaveLength(1);
    clock = new Date(arrived.getTime() + 4 * 60_000); // backoff after 2 attempts is 2 minutes
    expect((await job()).waiting).toBe(1);
    clock = new Date(arrived.getTime() + 31 * 60_000); // due, fails, and now stuck
    const stuck = await job();
    expect(stuck).toMatchObject({ stuck: 1 });
    expect(log.entries.at(-1)).toMatchObject({ event: 'resend', level: 'error', [STUCK_METRIC]: 1 });
    expect(JSON.stringify(log.entries)).not.toContain('morag@');

    clock = new Date(arrived.getTime() + 60 * 60_000);
    const delivered = await job(sesClientFor(backends.ses.endpoint));
    expect(delivered).toMatchObject({ sent: [clientKey('b0b0b0b0-0000-4000-8000-000000000001')], stuck: 0 });
    expect(await storedEmails(backends.ses)).toHaveLength(1);
    expect(log.entries.at(-1)).toMatchObject({ level: 'info', [STUCK_METRIC]: 0 });
  });
});
