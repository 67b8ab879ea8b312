// The figures the alarms on what visitors meet are made of (lambda/answer-metrics.ts): every form
// post that came through CloudFront, those refused with a 4xx, and honeypot hits, each on the
// request's log line in CloudWatch's embedded metric format. Through the real handler, against
// dynalite and aws-ses-v2-local with the real AWS SDK clients.
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../lambda/cloudfront-request-headers.ts';
import type { HttpEvent } from '../../lambda/event.ts';
import { ensureLimitsTable } from '../../lambda/leads/local-store.ts';
import { limitCounter } from '../../lambda/limits/counter.ts';
import { VOLUME_LIMITS } from '../../lambda/limits/settings.ts';
import type { LogEntry } from '../../lambda/log.ts';
import { METRIC_NAMESPACE, METRICS } from '../../lambda/metrics.ts';
import { jsonPost, memoryLogger, OTHER_ORIGIN, sesClientFor, storedEmails, testConfig, useLeadBackends, validContact } from './support.ts';
import { HONEYPOT_FIELD } from '../../forms/fields.ts';

const backends = useLeadBackends();
const SECRET = 'the-secret-cloudfront-sends-0123456789';

/** A post as the function URL receives it from CloudFront: the origin secret it was given, and the viewer's address. */
function viaCloudFront(event: HttpEvent, secret = SECRET, viewer = '203.0.113.7:51234'): HttpEvent {
  return { ...event, headers: { ...event.headers, [ORIGIN_VERIFY_HEADER]: secret, [VIEWER_ADDRESS_HEADER]: viewer } };
}

/** The handler as deployed (behind CloudFront, with its origin secret), logging to memory. */
function deployed(config: Parameters<typeof testConfig>[0] = {}) {
  const log = memoryLogger();
  const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, config: testConfig({ originSecret: SECRET, ...config }), log });
  return { handler, log };
}

/**
 * The metrics CloudWatch reads from one log line: the names its `_aws` block declares, each of
 * which must also be a top-level field of the line holding the value, in the leads' namespace.
 */
function metricsOn(entry: LogEntry | undefined): Record<string, unknown> {
  const block = (entry as { _aws?: { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit: string }> }> } } | undefined)?._aws;
  if (!block) return {};
  expect(block.CloudWatchMetrics).toHaveLength(1);
  const [directive] = block.CloudWatchMetrics;
  expect(directive!.Namespace).toBe(METRIC_NAMESPACE);
  expect(directive!.Dimensions).toEqual([[]]);
  return Object.fromEntries(directive!.Metrics.map((m) => {
    expect(m.Unit).toBe('Count');
    return [m.Name, entry![m.Name]];
  }));
}

const requestLine = (entries: LogEntry[]) => entries.filter((e) => e.event === 'request').at(-1);

describe('the refused-posts figure', () => {
  it('counts a visitor turned away with 403 because their origin is not allowed (a wrong ALLOWED_ORIGINS), and nothing is stored or sent', async () => {
    // The site is served from www.example.co.uk, but the handler was given only the bare domain.
    const { handler, log } = deployed({ allowedOrigins: ['https://example.co.uk'] });
    const answer = await handler(viaCloudFront(jsonPost(validContact())));
    expect(answer.statusCode).toBe(403);
    expect(metricsOn(requestLine(log.entries))).toEqual({ [METRICS.formPosts]: 1, [METRICS.formPostsRefused]: 1 });
    expect(requestLine(log.entries)).toMatchObject({ status: 403, reason: 'origin' });
    expect(await backends.leads.all()).toHaveLength(0);
    expect(await storedEmails(backends.ses)).toHaveLength(0);
  });

  it('counts a post from another site refused with 403', async () => {
    const { handler, log } = deployed();
    expect((await handler(viaCloudFront(jsonPost(validContact(), { origin: OTHER_ORIGIN })))).statusCode).toBe(403);
    expect(metricsOn(requestLine(log.entries))).toEqual({ [METRICS.formPosts]: 1, [METRICS.formPostsRefused]: 1 });
  });

  it('counts every visitor refused when CloudFront sends a secret the handler does not hold (a wrong origin secret)', async () => {
    const { handler, log } = deployed();
    const answers = await Promise.all([0, 1, 2].map((i) => handler(viaCloudFront(jsonPost(validContact()), 'an-old-secret-from-a-stale-deploy', `198.51.100.${i}:443`))));
    expect(answers.map((a) => a.statusCode)).toEqual([403, 403, 403]);
    const lines = log.entries.filter((e) => e.event === 'request');
    expect(lines.map((e) => e.reason)).toEqual(['origin-secret', 'origin-secret', 'origin-secret']);
    expect(lines.map(metricsOn)).toEqual(Array.from({ length: 3 }, () => ({ [METRICS.formPosts]: 1, [METRICS.formPostsRefused]: 1 })));
  });

  it('does not count a post straight to the function URL (no CloudFront header at all): refused, but no visitor', async () => {
    const { handler, log } = deployed();
    expect((await handler(jsonPost(validContact()))).statusCode).toBe(403);
    expect(requestLine(log.entries)).toMatchObject({ status: 403, reason: 'origin-secret' });
    expect('_aws' in requestLine(log.entries)!).toBe(false);
  });

  it('counts an accepted post as a post and nothing more, and the lead is stored and mailed', async () => {
    const { handler, log } = deployed();
    expect((await handler(viaCloudFront(jsonPost(validContact())))).statusCode).toBe(200);
    expect(metricsOn(requestLine(log.entries))).toEqual({ [METRICS.formPosts]: 1 });
    expect(await backends.leads.all()).toHaveLength(1);
    expect(await storedEmails(backends.ses)).toHaveLength(1);
  });

  it('counts an invalid post (400) as refused, but not a post turned away for volume (429, counted as rate-limited) nor a GET (405)', async () => {
    const client = backends.store.local.client();
    await ensureLimitsTable(client, 'limits-metrics');
    const log = memoryLogger();
    const handler = createHandler({
      ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, limits: { counter: limitCounter(client, 'limits-metrics'), mailsPerHour: 30 },
      config: testConfig({ originSecret: SECRET }), now: () => new Date('2026-11-25T10:01:00Z'), log,
    });

    expect((await handler(viaCloudFront(jsonPost(validContact({ email: 'not-an-address' }))))).statusCode).toBe(400);
    expect(metricsOn(requestLine(log.entries))).toEqual({ [METRICS.formPosts]: 1, [METRICS.formPostsRefused]: 1 });

    for (let i = 0; i < VOLUME_LIMITS.perAddress.max; i += 1) {
      const post = validContact({ submissionId: `a1000d00-0000-4000-8000-${String(i).padStart(12, '0')}`, email: `visitor${i}@example.org` });
      expect((await handler(viaCloudFront(jsonPost(post)))).statusCode).toBe(200);
    }
    const over = validContact({ submissionId: 'a1000d00-0000-4000-8000-000000000099', email: 'visitor99@example.org' });
    expect((await handler(viaCloudFront(jsonPost(over)))).statusCode).toBe(429);
    expect(metricsOn(requestLine(log.entries))).toEqual({ [METRICS.rateLimited]: 1, [METRICS.formPosts]: 1 });

    expect((await handler(viaCloudFront(jsonPost(undefined, { method: 'GET' })))).statusCode).toBe(405);
    expect('_aws' in requestLine(log.entries)!).toBe(false);
  });
});

describe('the honeypot figure', () => {
  it('counts a filled honeypot, answered like a success, its lead stored flagged and not mailed on its own', async () => {
    const { handler, log } = deployed();
    const answer = await handler(viaCloudFront(jsonPost(validContact({ [HONEYPOT_FIELD]: 'https://spam.example' }))));
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ ok: true });
    expect(requestLine(log.entries)).toMatchObject({ status: 200, spam: true });
    expect(metricsOn(requestLine(log.entries))).toEqual({ [METRICS.formPosts]: 1, [METRICS.honeypotHits]: 1 });
    expect(await backends.leads.all()).toEqual([expect.objectContaining({ likelySpam: 'hidden field filled' })]);
    expect(await storedEmails(backends.ses)).toHaveLength(0);
  });

  it('counts a honeypot hit under `site serve` too, where no CloudFront is in front (no origin secret)', async () => {
    const log = memoryLogger();
    const handler = createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, config: testConfig(), log });
    expect((await handler(jsonPost(validContact({ [HONEYPOT_FIELD]: 'x' })))).statusCode).toBe(200);
    expect(metricsOn(requestLine(log.entries))).toEqual({ [METRICS.formPosts]: 1, [METRICS.honeypotHits]: 1 });
  });
});
