// One claim per send: the handler's first send, the scheduled mailer and `site leads resend --now`
// all take the same claim on a lead, so however they interleave, a lead is mailed once. SES is
// held (a proxy keeps each request back until the test lets it through to aws-ses-v2-local), so the
// handler's send is still in flight when the resend runs, however fast or slow the machine.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import { createResendJob } from '../../lambda/leads/resend-job.ts';
import { resendLeads } from '../../lambda/leads/resend.ts';
import { jsonPost, memoryLogger, sesClientFor, storedEmails, testConfig, useLeadBackends, validContact } from './support.ts';

const backends = useLeadBackends();

/** A loopback proxy that holds every request until `release()`, then passes it on to `target`; `inFlight` counts requests held. */
async function heldProxy(target: string) {
  const to = new URL(target);
  const state = { inFlight: 0 };
  let arrived = () => {};
  const firstArrival = new Promise<void>((resolve) => { arrived = resolve; });
  let release = () => {};
  const released = new Promise<void>((resolve) => { release = resolve; });
  const server = http.createServer((req, res) => {
    state.inFlight += 1;
    arrived();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void released.then(() => {
      const upstream = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => { state.inFlight -= 1; });
      });
      upstream.on('error', () => { res.writeHead(502); res.end(); });
      upstream.end(Buffer.concat(chunks));
    }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    firstArrival,
    release,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

let slow: Awaited<ReturnType<typeof heldProxy>>;
beforeEach(async () => { slow = await heldProxy(backends.ses.endpoint); });
afterEach(() => slow?.close());

describe('one claim per send', () => {
  it("a resend --now while the handler's own send is in flight mails the lead once", async () => {
    const handler = createHandler({ ses: sesClientFor(slow.endpoint), leads: backends.leads, config: testConfig(), log: memoryLogger() });
    const posted = handler(jsonPost(validContact({ submissionId: 'c1a1c1a1-0000-4000-8000-000000000001' })));
    // The lead is stored and its e-mail is with (slowed) SES: now the owner runs `site leads resend --unsent`.
    await slow.firstArrival;
    expect(slow.state.inFlight).toBe(1);
    const [pending] = await backends.leads.unsent();
    expect(pending).toBeDefined();
    const resend = await resendLeads({ ses: sesClientFor(slow.endpoint), store: backends.leads, mailTo: 'leads@example.co.uk', mailFrom: 'website@example.co.uk' }, { now: true });
    expect(resend).toMatchObject({ sent: [], waiting: 1 });

    slow.release();
    expect((await posted).statusCode).toBe(200);
    expect(await storedEmails(backends.ses)).toHaveLength(1);
    expect(await backends.leads.get(pending!.submissionId)).toMatchObject({ mail: { state: 'sent', attempts: 1 } });
  });

  it('the scheduled mailer and a resend --now racing for a lead the handler could not send mail it once', async () => {
    const down = createHandler({ ses: sesClientFor('http://127.0.0.1:9'), leads: backends.leads, config: testConfig(), now: () => new Date(Date.now() - 10 * 60_000), log: memoryLogger() });
    expect((await down(jsonPost(validContact({ submissionId: 'c1a1c1a1-0000-4000-8000-000000000002' })))).statusCode).toBe(200);
    const ses = sesClientFor(slow.endpoint);
    const racing = Promise.all([
      createResendJob({ ses, leads: backends.leads, config: testConfig(), log: memoryLogger() })(),
      resendLeads({ ses, store: backends.leads, mailTo: 'leads@example.co.uk', mailFrom: 'website@example.co.uk' }, { now: true }),
    ]);
    // One of them holds the claim and its send is with SES; the other has found it claimed, or sent.
    await slow.firstArrival;
    slow.release();
    const [job, owner] = await racing;
    expect(job.sent.length + owner.sent.length).toBe(1);
    expect(job.waiting + owner.waiting).toBe(1);
    expect(await storedEmails(backends.ses)).toHaveLength(1);
  });
});
