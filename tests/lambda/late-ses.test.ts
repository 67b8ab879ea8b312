// One e-mail per lead when SES is slow, at most two under any one fault. SES here takes each e-mail
// at once and answers late (a proxy in front of aws-ses-v2-local holds its answer back past the
// client's timeout), so every send's outcome is unknown to the sender though the e-mail went; the
// mails are counted in the local SES, against dynalite, through the real SDK clients: the handler
// alone, with the scheduled mailer, and with `site leads resend`; and SES's own events settling a send.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import { REPEAT_PREFIX } from '../../lambda/email.ts';
import { createResendJob } from '../../lambda/leads/resend-job.ts';
import { deliveryStore, recordSesNotification } from '../../lambda/leads/ses-events.ts';
import { UNANSWERED_QUIET_MS } from '../../lambda/leads/resend.ts';
import { FIRST_SEND_CLAIM_MS, newLead } from '../../lambda/leads/new-lead.ts';
import { validateContact } from '../../forms/contact.ts';
import { leadsResend } from '../../src/leads/command.ts';
import { startLateSes, type LateSes } from './late-ses.ts';
import { jsonPost, memoryLogger, sesClientFor, storedEmails, testConfig, useLeadBackends, validContact } from './support.ts';

const backends = useLeadBackends();
/** The client's timeout, scaled down from production's 6 s; SES answers well after it. */
const TIMEOUT_MS = 300;
const LATE_MS = 900;

let late: LateSes;
beforeEach(async () => { late = await startLateSes(backends.ses.endpoint, LATE_MS); });
afterEach(() => late.close());

const arrived = new Date('2026-06-01T09:00:00Z');
const at = (minutes: number) => new Date(arrived.getTime() + minutes * 60_000);
const slowSes = (timeoutMs = TIMEOUT_MS) => sesClientFor(late.endpoint, { requestTimeoutMs: timeoutMs });
const mailsOf = async (name: string) => (await storedEmails(backends.ses)).filter((e) => e.subject.includes(name));

/** Posts one lead through the handler, against the late SES (the client giving up after `timeoutMs`), at `arrived`; answers its stored id. */
async function postLead(name: string, timeoutMs = TIMEOUT_MS): Promise<string> {
  const handler = createHandler({ ses: slowSes(timeoutMs), leads: backends.leads, config: testConfig(), now: () => arrived, log: memoryLogger() });
  const answeredBefore = late.answered();
  const result = await handler(jsonPost(validContact({ submissionId: `1a7e0000-0000-4000-8000-${String(name.length).padStart(12, '0')}`, name })));
  expect(result.statusCode).toBe(200);
  // One attempt, given up after the timeout: the visitor is not kept waiting for SES's late answer
  // (the proxy hands it to no one: the client had closed its connection). Counted, not timed, so a
  // busy machine cannot fail it.
  if (late.delay() > timeoutMs) expect(late.answered()).toBe(answeredBefore);
  const [lead] = await backends.leads.all();
  return lead!.submissionId;
}

describe('a slow SES that takes the e-mail and answers late', () => {
  it('the handler alone: one SendEmail, one mail, the lead recorded as unanswered (maybe sent), not failed', async () => {
    const id = await postLead('Handler Alone');

    expect(late.calls()).toBe(1);
    expect(await mailsOf('Handler Alone')).toHaveLength(1);
    expect((await backends.leads.get(id))?.mail).toMatchObject({ state: 'pending', attempts: 1, lastError: 'unanswered', maybeSent: 1 });
  });

  it('an answer that comes late but within the timeout is one mail, sent', async () => {
    // 100 ms late against a client that waits 10 s: within it however busy the machine (a 300 ms
    // timeout was overrun by the local SES itself while the whole suite ran).
    late.setDelay(100);
    const id = await postLead('Within Timeout', 10_000);
    expect(await mailsOf('Within Timeout')).toHaveLength(1);
    expect((await backends.leads.get(id))?.mail).toMatchObject({ state: 'sent', attempts: 1 });
  });

  it('the handler and the scheduled mailer: no repeat within the quiet period, one repeat saying so after it, then no more (two mails)', async () => {
    const id = await postLead('With Mailer');
    const log = memoryLogger();
    const run = (minutes: number) => createResendJob({ ses: slowSes(), leads: backends.leads, config: testConfig(), log, now: () => at(minutes) })();

    for (const minutes of [3, 10, 29]) expect(await run(minutes)).toMatchObject({ sent: [], unanswered: [], uncertain: [{ submissionId: id }] });
    expect(await mailsOf('With Mailer')).toHaveLength(1);

    expect(UNANSWERED_QUIET_MS).toBe(30 * 60_000);
    expect(await run(31)).toMatchObject({ unanswered: [id] });
    const mails = await mailsOf('With Mailer');
    expect(mails.map((m) => m.subject)).toEqual(['Contact form: With Mailer (Tayside Widgets Ltd)', `${REPEAT_PREFIX}Contact form: With Mailer (Tayside Widgets Ltd)`]);

    // Two sends of unknown outcome: the mailer stops, and the stuck-leads alarm tells the owner.
    for (const minutes of [62, 125, 600]) expect(await run(minutes)).toMatchObject({ sent: [], unanswered: [], uncertain: [{ submissionId: id }], stuck: 1 });
    expect(await mailsOf('With Mailer')).toHaveLength(2);
    expect(late.calls()).toBe(2);
    expect((await backends.leads.get(id))?.mail).toMatchObject({ state: 'pending', attempts: 2, maybeSent: 2 });
  });

  it('the handler and `site leads resend`: waits out the quiet period, then one repeat saying so (two mails)', async () => {
    const id = await postLead('With Resend');
    const resend = async (minutes: number, ...args: string[]) => {
      const out: string[] = [];
      const flags = { endpoint: backends.store.local.endpoint, table: backends.leads.table, sesEndpoint: late.endpoint, unsent: args.includes('--unsent'), ...(args.includes('--id') ? { id: [id] } : {}) };
      const code = await leadsResend('/nonexistent', flags, { out: (s) => out.push(s), err: (s) => out.push(s) }, {}, () => at(minutes));
      return { code, out: out.join('\n') };
    };
    // The CLI's own client has production's 6 s timeout: at this proxy's delay SES answers in time, so make it later.
    late.setDelay(7000);

    const byId = await resend(1, '--id');
    expect(byId).toMatchObject({ code: 0 });
    expect(byId.out).toContain(`waiting ${id}: an earlier send got no answer from SES and may have arrived; it can be sent again from ${at(30).toISOString()}`);
    expect((await resend(5, '--unsent')).out).toContain(`waiting ${id}`);
    expect(await mailsOf('With Resend')).toHaveLength(1);

    const after = await resend(31, '--unsent');
    expect(after.code).toBe(1);
    expect(after.out).toContain(`sent ${id}, but SES did not answer in time`);
    expect((await mailsOf('With Resend')).map((m) => m.subject)).toEqual(['Contact form: With Resend (Tayside Widgets Ltd)', `${REPEAT_PREFIX}Contact form: With Resend (Tayside Widgets Ltd)`]);

    expect((await resend(90, '--unsent')).out).toContain(`held ${id}: two sends got no answer from SES and either may have arrived; check the inbox, then send it with --id ${id}`);
    expect(await mailsOf('With Resend')).toHaveLength(2);
  });
});

describe("SES's own events settle a send whose answer never came", () => {
  const event = (eventType: string, messageId: string, sendTag: string) => JSON.stringify({
    eventType,
    mail: { timestamp: at(0).toISOString(), messageId, tags: { send: [sendTag], 'ses:configuration-set': ['leads'] } },
    [eventType === 'Send' ? 'send' : 'reject']: eventType === 'Send' ? {} : { reason: 'Bad content' },
  });

  it('a Send event tagged with the send marks the lead sent: the mailer never repeats it (one mail)', async () => {
    const id = await postLead('Confirmed By Ses');
    const [mail] = await mailsOf('Confirmed By Ses');
    const [tag] = late.sendTags();
    expect(tag).toBe((await backends.leads.get(id))?.mail.sendId);

    const outcome = await recordSesNotification(event('Send', mail!.messageId, tag!), { store: deliveryStore(backends.store.local.client(), backends.leads.table), log: memoryLogger() });

    expect(outcome).toEqual({ kind: 'confirmed', messageId: mail!.messageId, leads: [id] });
    expect((await backends.leads.get(id))?.mail).toMatchObject({ state: 'sent', messageId: mail!.messageId });
    const report = await createResendJob({ ses: slowSes(), leads: backends.leads, config: testConfig(), log: memoryLogger(), now: () => at(45) })();
    expect(report).toMatchObject({ sent: [], unanswered: [], waiting: 0 });
    expect(await mailsOf('Confirmed By Ses')).toHaveLength(1);
  });

  it('a Reject event tagged with the send marks the lead failed: the mailer sends it on its usual backoff, not after the quiet period', async () => {
    const id = await postLead('Rejected By Ses');
    const [mail] = await mailsOf('Rejected By Ses');

    const outcome = await recordSesNotification(event('Reject', mail!.messageId, late.sendTags()[0]!), { store: deliveryStore(backends.store.local.client(), backends.leads.table), log: memoryLogger(), now: () => at(1) });

    expect(outcome).toEqual({ kind: 'rejected', messageId: mail!.messageId, leads: [id] });
    late.setDelay(0);
    const report = await createResendJob({ ses: slowSes(), leads: backends.leads, config: testConfig(), log: memoryLogger(), now: () => at(3) })();
    expect(report.sent).toEqual([id]);
    expect((await backends.leads.get(id))?.mail).toMatchObject({ state: 'sent' });
  });
});

describe('a send that left no outcome at all', () => {
  it("a lead whose sender's claim ran out with no outcome written (the handler stopped mid-send) is maybe sent: one repeat after the quiet period, saying so", async () => {
    const checked = validateContact(validContact({ name: 'Handler Stopped' }));
    if (!checked.ok) throw new Error('invalid fixture');
    const record = newLead({ form: 'contact', data: checked.data }, { submissionId: 'stopped-0000-4000-8000-000000000001', receivedAt: arrived, source: 'https://www.example.co.uk/contact', retentionMonths: 24 });
    await backends.leads.putNew(record);
    // The handler's claim on its own send, and nothing after it.
    const claim = await backends.leads.claim({ ...record, mail: { ...record.mail, version: 0 } }, { now: arrived, until: new Date(arrived.getTime() + FIRST_SEND_CLAIM_MS), sendId: 'stopped-send', sending: true });
    expect(claim.ok).toBe(true);
    late.setDelay(0);
    const run = (minutes: number) => createResendJob({ ses: slowSes(), leads: backends.leads, config: testConfig(), log: memoryLogger(), now: () => at(minutes) })();

    expect(await run(1)).toMatchObject({ sent: [], uncertain: [] }); // the handler's claim still holds it
    // Its claim ran out at +2 minutes with no outcome written: half an hour from then, one repeat.
    expect(await run(3)).toMatchObject({ sent: [], uncertain: [{ submissionId: record.submissionId, from: at(32).toISOString() }] });
    expect(await run(31)).toMatchObject({ sent: [], uncertain: [{ submissionId: record.submissionId }] });
    expect(await run(33)).toMatchObject({ sent: [record.submissionId] });
    expect((await mailsOf('Handler Stopped')).map((m) => m.subject)).toEqual([`${REPEAT_PREFIX}Contact form: Handler Stopped (Tayside Widgets Ltd)`]);
  });

  it('a Delivery event tagged with an unanswered send marks the lead sent and delivered', async () => {
    const id = await postLead('Delivered Late');
    const [mail] = await mailsOf('Delivered Late');
    const delivery = JSON.stringify({
      eventType: 'Delivery',
      mail: { timestamp: at(0).toISOString(), messageId: mail!.messageId, tags: { send: [late.sendTags()[0]!] } },
      delivery: { timestamp: at(1).toISOString(), recipients: ['leads@example.co.uk'] },
    });
    const outcome = await recordSesNotification(delivery, { store: deliveryStore(backends.store.local.client(), backends.leads.table), log: memoryLogger() });
    expect(outcome).toMatchObject({ kind: 'marked', delivery: 'delivered', leads: [id], confirmed: [id] });
    expect((await backends.leads.get(id))?.mail).toMatchObject({ state: 'sent', messageId: mail!.messageId, delivery: 'delivered' });
  });
});
