// SES's bounce, complaint and delivery reports written on the leads they concern: SNS events as
// Lambda receives them, carrying SES notifications as SES writes them, against a real dynalite
// table through the real DynamoDB SDK client; and the bundled `sesEvents` entry run on its own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildLambda } from '../../lambda/bundle-lambda.ts';
import type { LeadRecord } from '../../lambda/leads/record.ts';
import { createSesEventsHandler, deliveryStore, LeadNotFoundYet, type SesEventOutcome, type SnsEvent } from '../../lambda/leads/ses-events.ts';
import type { LeadStore } from '../../lambda/leads/store.ts';
import { METRIC_NAMESPACE, METRICS } from '../../lambda/metrics.ts';
import { leadFieldValues } from '../../forms/fields.ts';
import { memoryLogger, startTestStore, type TestStore } from './support.ts';

const SENT_ID = '0102018e9a7b5c3d-4f1e2a3b-6c7d-4e8f-9a0b-1c2d3e4f5a6b-000000';
const OTHER_ID = '0102018e9a7b5c3d-aaaaaaaa-6c7d-4e8f-9a0b-1c2d3e4f5a6b-000000';

function lead(submissionId: string, messageId: string | undefined): LeadRecord {
  return {
    submissionId,
    form: 'contact',
    receivedAt: '2026-03-31T12:00:00.000Z',
    // Every text field of forms/fields.ts, those not given here ''.
    ...leadFieldValues({ name: 'Morag Campbell', email: 'morag@tayside-example.co.uk', company: 'Tayside Widgets Ltd', message: 'We have five spreadsheets that disagree.' }),
    emailKey: 'morag@tayside-example.co.uk',
    source: 'https://www.example.co.uk',
    mail: messageId
      ? { state: 'sent', attempts: 1, messageId, lastAttemptAt: '2026-03-31T12:00:01.000Z' }
      : { state: 'pending', attempts: 1, lastError: 'throttled', lastAttemptAt: '2026-03-31T12:00:01.000Z' },
    expiresAt: Date.parse('2028-03-31T12:00:00Z') / 1000,
  };
}

/** The `mail` object SES puts in every notification. */
const mail = (messageId: string) => ({
  timestamp: '2026-03-31T12:00:01.000Z',
  source: 'Website <website@example.co.uk>',
  sourceArn: 'arn:aws:ses:eu-west-2:123456789012:identity/example.co.uk',
  sendingAccountId: '123456789012',
  messageId,
  destination: ['leads@example.co.uk'],
  headersTruncated: false,
  commonHeaders: { from: ['Website <website@example.co.uk>'], to: ['leads@example.co.uk'], subject: 'Contact form: Morag Campbell (Tayside Widgets Ltd)' },
  tags: { 'ses:configuration-set': ['SiteLeadMail'], 'ses:source-ip': ['3.8.0.1'], 'ses:from-domain': ['example.co.uk'] },
});

/** Configuration-set event publishing: `eventType`. */
const bounce = (messageId: string) => JSON.stringify({
  eventType: 'Bounce',
  bounce: {
    feedbackId: '0102018e9a7b6d00-11111111-2222-3333-4444-555555555555-000000',
    bounceType: 'Permanent',
    bounceSubType: 'General',
    bouncedRecipients: [{ emailAddress: 'leads@example.co.uk', action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 <leads@example.co.uk>: Recipient address rejected' }],
    timestamp: '2026-03-31T12:00:03.512Z',
    reportingMTA: 'dns; b224-13.smtp-out.eu-west-2.amazonses.com',
  },
  mail: mail(messageId),
});
const delivery = (messageId: string, timestamp = '2026-03-31T12:00:02.250Z') => JSON.stringify({
  eventType: 'Delivery',
  delivery: {
    timestamp,
    processingTimeMillis: 1250,
    recipients: ['leads@example.co.uk'],
    smtpResponse: '250 2.0.0 OK  1711886402 a1-20020a05600c000000b004140000000si1234567wmq.123 - gsmtp',
    reportingMTA: 'b224-13.smtp-out.eu-west-2.amazonses.com',
    remoteMtaIp: '142.250.27.26',
  },
  mail: mail(messageId),
});
/** Identity feedback notifications: `notificationType`. */
const complaint = (messageId: string) => JSON.stringify({
  notificationType: 'Complaint',
  complaint: {
    feedbackId: '0102018e9a7b7e00-66666666-7777-8888-9999-000000000000-000000',
    complaintSubType: null,
    complainedRecipients: [{ emailAddress: 'leads@example.co.uk' }],
    timestamp: '2026-03-31T13:15:00.000Z',
    userAgent: 'Yahoo!-Mail-Feedback/2.0',
    complaintFeedbackType: 'abuse',
    arrivalDate: '2026-03-31T13:14:58.000Z',
  },
  mail: mail(messageId),
});

/** Lambda's event for SNS messages, one record each. */
const sns = (...messages: string[]): SnsEvent & Record<string, unknown> => ({
  Records: messages.map((Message, i) => ({
    EventSource: 'aws:sns',
    EventVersion: '1.0',
    EventSubscriptionArn: 'arn:aws:sns:eu-west-2:123456789012:Site-MailEventsTopic:5d3c1a2b-0000-4000-8000-000000000001',
    Sns: {
      Type: 'Notification',
      MessageId: `9b6f0c1e-0000-4000-8000-00000000000${i}`,
      TopicArn: 'arn:aws:sns:eu-west-2:123456789012:Site-MailEventsTopic',
      Subject: null,
      Message,
      Timestamp: '2026-03-31T12:00:04.000Z',
      SignatureVersion: '1',
      Signature: 'EXAMPLE',
      SigningCertUrl: 'https://sns.eu-west-2.amazonaws.com/SimpleNotificationService-0000000000000000000000.pem',
      UnsubscribeUrl: 'https://sns.eu-west-2.amazonaws.com/?Action=Unsubscribe',
      MessageAttributes: {},
    },
  })),
});

let store: TestStore;
let client: DynamoDBClient;
let leads: LeadStore;
beforeAll(async () => {
  store = await startTestStore();
  client = store.local.client();
});
afterAll(async () => { client?.destroy(); await store?.close(); });
beforeEach(async () => {
  leads = await store.fresh();
  await leads.putRaw(lead('lead-bounced', SENT_ID));
  await leads.putRaw(lead('lead-other', OTHER_ID));
  await leads.putRaw(lead('lead-unsent', undefined));
});

function run(...messages: string[]) {
  const log = memoryLogger();
  const handler = createSesEventsHandler({ store: deliveryStore(client, leads.table), log, now: () => new Date('2026-03-31T12:00:04Z') });
  return { log, outcomes: handler(sns(...messages)) };
}
/** The lead's mail state, less the bookkeeping of its writes (the version and the last write's id). */
async function mailOf(id: string): Promise<Record<string, unknown> | undefined> {
  const found = (await leads.get(id))?.mail;
  if (!found) return undefined;
  const { version: _version, writeId: _writeId, ...mail } = found;
  return mail;
}

describe('sesEvents', () => {
  it('a bounce marks the lead bounced, with the time and the bounce type, and logs the bounce metric for the alarm', async () => {
    const { log, outcomes } = run(bounce(SENT_ID));
    expect(await outcomes).toEqual([{ kind: 'marked', delivery: 'bounced', messageId: SENT_ID, leads: ['lead-bounced'] }]);
    expect(await mailOf('lead-bounced')).toEqual({
      state: 'sent', attempts: 1, messageId: SENT_ID, lastAttemptAt: '2026-03-31T12:00:01.000Z',
      delivery: 'bounced', deliveryAt: '2026-03-31T12:00:03.512Z', deliveryReason: 'Permanent/General',
    });
    // The other leads are untouched.
    expect(await mailOf('lead-other')).toEqual(lead('lead-other', OTHER_ID).mail);
    expect(await mailOf('lead-unsent')).toEqual(lead('lead-unsent', undefined).mail);

    const metric = log.entries.find((e) => e[METRICS.bounces] !== undefined);
    expect(metric).toMatchObject({ level: 'error', [METRICS.bounces]: 1, _aws: { CloudWatchMetrics: [{ Namespace: METRIC_NAMESPACE, Metrics: [{ Name: METRICS.bounces, Unit: 'Count' }] }] } });
    // Nothing of the visitor's, and not the diagnostic text, reaches the log.
    expect(JSON.stringify(log.entries)).not.toMatch(/morag|Recipient address rejected/i);
  });

  it('a complaint (identity feedback notification) marks the lead complained and logs the complaint metric', async () => {
    const { log, outcomes } = run(complaint(SENT_ID));
    expect(await outcomes).toEqual([{ kind: 'marked', delivery: 'complained', messageId: SENT_ID, leads: ['lead-bounced'] }]);
    expect(await mailOf('lead-bounced')).toMatchObject({ delivery: 'complained', deliveryAt: '2026-03-31T13:15:00.000Z', deliveryReason: 'abuse' });
    expect(log.entries.filter((e) => e[METRICS.complaints] === 1)).toHaveLength(1);
    expect(log.entries.some((e) => e[METRICS.bounces] !== undefined)).toBe(false);
  });

  it('a delivery marks the lead delivered, logs no alarm metric, and never hides a bounce that arrived first', async () => {
    const first = run(delivery(SENT_ID));
    expect(await first.outcomes).toEqual([{ kind: 'marked', delivery: 'delivered', messageId: SENT_ID, leads: ['lead-bounced'] }]);
    expect(await mailOf('lead-bounced')).toMatchObject({ delivery: 'delivered', deliveryAt: '2026-03-31T12:00:02.250Z' });
    expect(await mailOf('lead-bounced')).not.toHaveProperty('deliveryReason');
    expect(first.log.entries.some((e) => '_aws' in e)).toBe(false);

    // A later bounce replaces the delivery; a delivery report arriving after it (SNS keeps no order) changes nothing.
    await run(bounce(SENT_ID)).outcomes;
    const late = run(delivery(SENT_ID, '2026-03-31T12:00:02.900Z'));
    expect(await late.outcomes).toEqual([{ kind: 'marked', delivery: 'delivered', messageId: SENT_ID, leads: [] }]);
    expect(await mailOf('lead-bounced')).toMatchObject({ delivery: 'bounced', deliveryReason: 'Permanent/General', deliveryAt: '2026-03-31T12:00:03.512Z' });
  });

  it('a digest e-mail (one message id on several leads) marks every one of them', async () => {
    await leads.putRaw(lead('lead-digest-2', SENT_ID));
    const { outcomes } = run(bounce(SENT_ID));
    expect(await outcomes).toEqual([{ kind: 'marked', delivery: 'bounced', messageId: SENT_ID, leads: ['lead-bounced', 'lead-digest-2'] }]);
    expect(await mailOf('lead-digest-2')).toMatchObject({ delivery: 'bounced' });
  });

  it('an unknown message id changes nothing and is logged, but a bounce still raises its metric', async () => {
    const before = await leads.all();
    const unknown = '0102018e9a7b5c3d-00000000-0000-0000-0000-000000000000-000000';
    const { log, outcomes } = run(bounce(unknown));
    expect(await outcomes).toEqual([{ kind: 'unmatched', delivery: 'bounced', messageId: unknown }]);
    expect(await leads.all()).toEqual(before);
    expect(log.entries).toContainEqual(expect.objectContaining({ level: 'warn', event: 'ses_event_unmatched', messageId: unknown }));
    expect(log.entries.filter((e) => e[METRICS.bounces] === 1)).toHaveLength(1);
  });

  it('a malformed message is logged and dropped without throwing (a retry would not mend it); other event types are ignored', async () => {
    const before = await leads.all();
    const { log, outcomes } = run(
      'this is not JSON',
      '[1, 2]',
      JSON.stringify({ eventType: 'Bounce', bounce: { bounceType: 'Permanent' }, mail: { timestamp: '2026-03-31T12:00:01.000Z' } }),
      JSON.stringify({ eventType: 'Bounce', mail: mail(SENT_ID) }),
      JSON.stringify({ mail: mail(SENT_ID) }),
      JSON.stringify({ eventType: 'Send', send: {}, mail: mail(SENT_ID) }),
    );
    expect((await outcomes).map((o: SesEventOutcome) => o.kind)).toEqual(['malformed', 'malformed', 'malformed', 'malformed', 'malformed', 'ignored']);
    expect(await outcomes).toContainEqual({ kind: 'malformed', reason: 'the Bounce notification has no mail.messageId' });
    expect(await leads.all()).toEqual(before);
    expect(log.entries.filter((e) => e.event === 'ses_event_malformed')).toHaveLength(5);
    expect(log.entries.some((e) => '_aws' in e)).toBe(false);
  });

  it('marking a lead that is gone (erased between the scan and the update) writes nothing', async () => {
    const marks = deliveryStore(client, leads.table);
    expect(await marks.mark('lead-erased', SENT_ID, { delivery: 'bounced', at: '2026-03-31T12:00:03.512Z', reason: 'Permanent/General' })).toBe(false);
    expect(await leads.get('lead-erased')).toBeUndefined();
    // Nor a lead whose message id is not the one reported.
    expect(await marks.mark('lead-other', SENT_ID, { delivery: 'bounced', at: '2026-03-31T12:00:03.512Z' })).toBe(false);
    expect(await mailOf('lead-other')).not.toHaveProperty('delivery');
  });
});

describe('an event whose lead the index does not show yet', () => {
  it('is thrown back to Lambda to run again (then dead-lettered, alarmed), never dropped: the run after the index caught up marks the lead', async () => {
    const sendId = 'send-not-indexed-yet';
    const reject = JSON.stringify({ eventType: 'Reject', mail: { ...mail(OTHER_ID), tags: { send: [sendId] } }, reject: { reason: 'Bad content' } });
    // The send's lead is marked sent with this send, but the index of send ids does not show it yet.
    const first = run(reject);
    await expect(first.outcomes).rejects.toThrow(LeadNotFoundYet);
    expect(first.log.entries).toContainEqual(expect.objectContaining({ level: 'warn', event: 'ses_event_lead_not_found', sendId }));
    // The index catches up; Lambda's retry of the same event finds the lead and marks the send rejected.
    await leads.putRaw({ ...lead('lead-late-index', OTHER_ID), mail: { state: 'sent', attempts: 1, messageId: OTHER_ID, sendId } });
    expect(await run(reject).outcomes).toEqual([{ kind: 'rejected', messageId: OTHER_ID, leads: ['lead-late-index'] }]);
    expect(await mailOf('lead-late-index')).toMatchObject({ state: 'pending', lastError: 'refused', rejectedSend: sendId });
  });
});

describe('the bundle', () => {
  it('exports sesEvents, which reads its table from the environment and marks the lead', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ses-events-bundle-'));
    const vars: Record<string, string> = {
      MAIL_TO: 'leads@example.co.uk', MAIL_FROM: 'website@example.co.uk', ALLOWED_ORIGINS: 'https://www.example.co.uk', AWS_REGION: 'eu-west-2',
      LEADS_TABLE: leads.table, LIMITS_TABLE: 'site-limits', DYNAMODB_ENDPOINT: store.local.endpoint,
    };
    for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
    vi.stubEnv('AWS_ACCESS_KEY_ID', undefined);
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const built = await buildLambda({ outDir: dir });
      const bundle = (await import(`${pathToFileURL(built.bundlePath).href}?ses-events`)) as { sesEvents: (event: SnsEvent) => Promise<SesEventOutcome[]> };
      expect(await bundle.sesEvents(sns(complaint(SENT_ID)))).toEqual([{ kind: 'marked', delivery: 'complained', messageId: SENT_ID, leads: ['lead-bounced'] }]);
      expect(await mailOf('lead-bounced')).toMatchObject({ delivery: 'complained' });
      // The metric line reaches stdout, where CloudWatch reads embedded metrics.
      expect(write.mock.calls.map((c) => String(c[0])).join('')).toContain(`"${METRICS.complaints}":1`);
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
