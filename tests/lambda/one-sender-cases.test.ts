// The ways a lead was doubled without the "may already have arrived" marker, or lost, each played
// as it happens: the actors' requests in a scripted order (the interleaver of lead-model.ts), with
// the fault named, against dynalite and aws-ses-v2-local through the real SDK clients. Each case
// counts what reached the inbox.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import { ensureLeadTable } from '../../lambda/leads/local-store.ts';
import { newLead } from '../../lambda/leads/new-lead.ts';
import type { LeadRecord } from '../../lambda/leads/record.ts';
import { createResendJob } from '../../lambda/leads/resend-job.ts';
import { resendLeads } from '../../lambda/leads/resend.ts';
import { deliveryStore, recordSesNotification } from '../../lambda/leads/ses-events.ts';
import { leadStore, type LeadStore } from '../../lambda/leads/store.ts';
import { limitCounter } from '../../lambda/limits/counter.ts';
import { silentLogger } from '../../lambda/log.ts';
import { validateContact } from '../../forms/contact.ts';
import { copiesOf, Interleaver, minutes, openSlot, plainWiring, sesError, startModelBackends, type ModelBackends, type Slot, type Wiring } from './lead-model.ts';
import { clearStore, jsonPost, memoryLogger, storedEmails, testConfig, validContact } from './support.ts';

const CONFIG = testConfig();
let backends: ModelBackends;
beforeAll(async () => { backends = await startModelBackends(); });
afterAll(() => backends?.close());

let cases = 0;
const opened: Slot[] = [];
afterEach(() => { for (const slot of opened.splice(0)) slot.destroy(); });

/** A fresh table and an empty inbox; `slot(actor)` gives an actor's gated clients on `wiring`. */
async function setUp(wiring: Wiring) {
  cases += 1;
  const table = `case-${cases}`;
  const setup = backends.local.client();
  opened.push({ destroy: () => setup.destroy() } as Slot);
  await ensureLeadTable(setup, table);
  await clearStore(backends.ses);
  const slot = (actor: string) => { const made = openSlot(backends, actor); made.wiring = wiring; opened.push(made); return made; };
  const storeOf = (actor: string): LeadStore => leadStore(slot(actor).dynamo, table);
  return {
    table,
    store: leadStore(setup, table),
    storeOf,
    mailer: (actor: string, at: number) => { const made = slot(actor); return { ses: made.ses, store: leadStore(made.dynamo, table), mailTo: CONFIG.mailTo, mailFrom: CONFIG.mailFrom, now: () => minutes(at) }; },
    job: (actor: string, at: number) => { const made = slot(actor); return createResendJob({ ses: made.ses, leads: leadStore(made.dynamo, table), config: CONFIG, log: memoryLogger(), now: () => minutes(at) }); },
    handler: (actor: string, at = 0) => { const made = slot(actor); return createHandler({ ses: made.ses, leads: leadStore(made.dynamo, table), config: CONFIG, now: () => minutes(at), log: silentLogger }); },
    events: (at: number) => ({ store: deliveryStore(slot('events').dynamo, table), log: silentLogger, now: () => minutes(at) }),
  };
}

/** Lets each actor go in turn as `script` names them; an actor not waiting yet is skipped for the next one that is. */
function scripted(script: string[]): (waiting: readonly string[]) => number {
  return (waiting) => {
    while (script.length && !waiting.includes(script[0]!)) script.shift();
    const index = script.length ? waiting.indexOf(script.shift()!) : 0;
    return index < 0 ? 0 : index;
  };
}

/** Lets `first` make `count` requests, then runs everyone else to the end before `first` goes on. */
function pause(first: string, count: number): (waiting: readonly string[]) => number {
  let given = 0;
  return (waiting) => {
    if (given < count && waiting.includes(first)) { given += 1; return waiting.indexOf(first); }
    const other = waiting.findIndex((actor) => actor !== first);
    return other >= 0 ? other : 0;
  };
}

const inbox = async (name: string, rejected: ReadonlySet<string> = new Set()) => copiesOf(name, await storedEmails(backends.ses), rejected);

/** A contact lead as the handler stores it, held for the digest or waiting after a failed send. */
function storedLead(name: string, at: number, mail: Partial<LeadRecord['mail']>): LeadRecord {
  const checked = validateContact(validContact({ name }));
  if (!checked.ok) throw new Error('invalid fixture');
  const lead = newLead({ form: 'contact', data: checked.data }, { submissionId: `lead-${name.replace(/\W/g, '')}`, receivedAt: minutes(at), source: 'https://www.example.co.uk/contact', retentionMonths: 24 });
  return { ...lead, mail: { state: 'pending', attempts: 0, ...mail } };
}

const posted = (name: string) => jsonPost(validContact({ name, submissionId: `ca5e0000-0000-4000-8000-${String(cases).padStart(12, '0')}` }));
const PLENTY = { getRemainingTimeInMillis: () => 14_000 };

describe('one sender at a time', () => {
  it('1. two senders at once: a scheduled run holding an old copy does not send a lead `resend --unsent` has just sent (no repeat within the quiet period, none without the marker)', async () => {
    const interleaver = new Interleaver(pause('mailer', 1));
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    // The handler could not reach SES ten minutes ago: the lead waits for the mailer.
    await t.store.putRaw(storedLead('Two Senders', -10, { attempts: 1, lastError: 'connection', lastAttemptAt: minutes(-10).toISOString() }));
    // The scheduled run reads the unsent leads; then the owner's resend sends it, and SES answers too late.
    wiring.lateSend = { actor: 'resend', nth: 1 };
    await interleaver.drive({
      mailer: () => t.job('mailer', 0)(),
      resend: () => resendLeads(t.mailer('resend', 0), { now: true, log: silentLogger }),
    });
    expect(await inbox('Two Senders')).toEqual({ copies: 1, unmarked: 1 });
    // Half an hour on, SES still silent: one more, saying it may repeat.
    await interleaver.drive({ mailer: () => t.job('later', 31)() });
    expect(await inbox('Two Senders')).toEqual({ copies: 2, unmarked: 1 });
  });

  it("2. a Reject that lands before markSent: the lead is not recorded as sent, and the mailer sends it again", async () => {
    const interleaver = new Interleaver(pause('handler', 3));
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    const rejected = new Set<string>();
    // The handler's put, its claim and its SES send (SES takes it); then SES's Reject, before the handler writes the answer.
    await interleaver.drive({
      handler: () => t.handler('handler')(posted('Rejected Early'), PLENTY),
      events: async () => {
        await interleaver.gate('events');
        const send = wiring.sends[0]!;
        rejected.add(send.messageId);
        await recordSesNotification(JSON.stringify({ eventType: 'Reject', mail: { messageId: send.messageId, tags: { send: [send.sendId] } }, reject: { reason: 'Bad content' } }), t.events(1));
      },
    });
    expect(await inbox('Rejected Early', rejected)).toEqual({ copies: 0, unmarked: 0 });
    await interleaver.drive({ mailer: () => t.job('mailer', 5)() });
    expect(await inbox('Rejected Early', rejected)).toEqual({ copies: 1, unmarked: 1 });
  });

  it('3. an expired claim: a lost handler send, then a repeat that fails (throttled), then another: every send after the first says it may repeat', async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    // The handler dies straight after SES took its e-mail.
    wiring.killAfterSend = { actor: 'handler', nth: 1 };
    await interleaver.drive({ handler: () => t.handler('handler')(posted('Lost Handler'), PLENTY) });
    wiring.throttleSend = { actor: 'repeat', nth: 1 };
    await interleaver.drive({ repeat: () => t.job('repeat', 35)() });
    for (const at of [40, 45, 50]) await interleaver.drive({ mailer: () => t.job(`mailer-${at}`, at)() });
    expect(await inbox('Lost Handler')).toEqual({ copies: 2, unmarked: 1 });
  });

  it('4. a write that landed but timed out: the handler knows its own record, sends at once, and no "Repeat" follows', async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    wiring.timeoutWrite = { actor: 'handler', nth: 1 };
    await interleaver.drive({ handler: () => t.handler('handler')(posted('Landed Write'), PLENTY) });
    expect(await inbox('Landed Write')).toEqual({ copies: 1, unmarked: 1 });
    for (const at of [5, 35, 70]) await interleaver.drive({ mailer: () => t.job(`mailer-${at}`, at)() });
    expect(await inbox('Landed Write')).toEqual({ copies: 1, unmarked: 1 });
  });

  it('5. too little Lambda time left: the handler leaves the send to the mailer rather than be stopped after SES took it (one e-mail, no repeat)', async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    // Four seconds left: a send and the write of its outcome do not fit, and Lambda stops the handler after SES took the e-mail.
    wiring.killAfterSend = { actor: 'handler', nth: 1 };
    await interleaver.drive({ handler: () => t.handler('handler')(posted('Short Of Time'), { getRemainingTimeInMillis: () => 4000 }) });
    for (const at of [3, 35, 70]) await interleaver.drive({ mailer: () => t.job(`mailer-${at}`, at)() });
    expect(await inbox('Short Of Time')).toEqual({ copies: 1, unmarked: 1 });
  });

  it("6a. one failed write in a mailer run does not stop it: the other digests go, and no lead goes out later as a false repeat", async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    for (const name of ['Digest One', 'Digest Two', 'Digest Three']) await t.store.putRaw(storedLead(name, -10, { held: true }));
    // The run's fourth write (after its three claims: the first digest's) is refused outright.
    wiring.failWrite = { actor: 'mailer', nth: 4 };
    await interleaver.drive({ mailer: () => resendLeads(t.mailer('mailer', 0), { log: silentLogger, digestBounds: { maxLeads: 1, maxBytes: 1_000_000, perRun: 5 } }) });
    for (const at of [6, 40, 80]) await interleaver.drive({ mailer: () => t.job(`mailer-${at}`, at)() });
    for (const name of ['Digest One', 'Digest Two', 'Digest Three']) expect(await inbox(name), name).toEqual({ copies: 1, unmarked: 1 });
  });

  it('6b. a damaged record is set aside and named, and the leads behind it still go', async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    const good = storedLead('Behind Damage', -40, { attempts: 1, lastError: 'connection', lastAttemptAt: minutes(-40).toISOString() });
    await t.store.putRaw(good);
    await t.store.putRaw({ ...good, submissionId: 'damaged-record', receivedAt: '1970-01-01Tnot-a-time', name: 'Damaged', mail: { state: 'pending', attempts: 0 } });
    const log = memoryLogger();
    const made = openSlot(backends, 'mailer');
    made.wiring = wiring;
    opened.push(made);
    await interleaver.drive({ mailer: () => createResendJob({ ses: made.ses, leads: leadStore(made.dynamo, t.table), config: CONFIG, log, now: () => minutes(0) })() });
    expect(await inbox('Behind Damage')).toEqual({ copies: 1, unmarked: 1 });
    const line = log.entries.find((entry) => entry.event === 'resend');
    expect(JSON.stringify(line)).toContain('damaged-record');
    expect(line).toMatchObject({ LeadsSetAside: 1 });
  });

  it('7a. a digest SES refuses for one lead in it is split in halves: the others arrive in the same run', async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    const names = Array.from({ length: 10 }, (_, i) => `Digest Lead ${i}`);
    for (const name of [...names, 'Poison Lead']) await t.store.putRaw(storedLead(name, -10, { held: true }));
    wiring.refuseSend = (command) => (JSON.stringify(command.input).includes('Poison Lead') ? sesError('MessageRejected', 'Message content rejected.') : undefined);
    await interleaver.drive({ mailer: () => t.job('mailer', 0)() });
    for (const name of names) expect(await inbox(name), name).toEqual({ copies: 1, unmarked: 1 });
  });

  it('7b. a lead SES refuses for its content is not sent again and again: after two refusals it is set aside for the owner, and says so', async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    await t.store.putRaw(storedLead('Poison Alone', -10, { attempts: 1, lastError: 'connection', lastAttemptAt: minutes(-10).toISOString() }));
    let refusals = 0;
    wiring.refuseSend = () => { refusals += 1; return sesError('MessageRejected', 'Message content rejected.'); };
    const log = memoryLogger();
    const made = openSlot(backends, 'mailer');
    made.wiring = wiring;
    opened.push(made);
    for (const at of [0, 10, 30, 70, 140, 280]) await interleaver.drive({ mailer: () => createResendJob({ ses: made.ses, leads: leadStore(made.dynamo, t.table), config: CONFIG, log, now: () => minutes(at) })() });
    expect(refusals).toBe(2);
    expect(log.entries.filter((entry) => entry.event === 'resend').at(-1)).toMatchObject({ LeadsSetAside: 1 });
  });

  it("7c. an account-wide refusal (sending paused) is the account's, not the e-mail's: the lead is not set apart as refused", async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    wiring.refuseSend = () => sesError('AccountSendingPausedException', 'Sending is paused for this account.');
    await interleaver.drive({ handler: () => t.handler('handler')(posted('Paused Account'), PLENTY) });
    const [lead] = await t.store.all();
    expect(lead?.mail).toMatchObject({ state: 'pending', lastError: 'account' });
    expect(lead?.mail.refusals ?? 0).toBe(0);
  });
});

describe('every write applied once, "not sent" only when SES cannot have it, a new lead unclaimed', () => {
  it('8a. a refusal whose markFailed lands and is sent again by the SDK counts once: the lead goes out once SES takes it, not set aside', async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    await t.store.putRaw(storedLead('Refused Once', -10, { attempts: 1, lastError: 'connection', lastAttemptAt: minutes(-10).toISOString() }));
    let refusals = 0;
    wiring.refuseSend = () => (refusals++ === 0 ? sesError('MessageRejected', 'Message content rejected.') : undefined);
    // The run's claim, then its markFailed: that lands, its answer is lost, and the SDK sends it again.
    wiring.timeoutWrite = { actor: 'mailer', nth: 2 };
    await interleaver.drive({ mailer: () => t.job('mailer', 0)() });
    expect((await t.store.all())[0]?.mail).toMatchObject({ state: 'pending', refusals: 1, attempts: 2 });
    for (const at of [5, 10, 30]) await interleaver.drive({ mailer: () => t.job(`mailer-${at}`, at)() });
    expect(await inbox('Refused Once')).toEqual({ copies: 1, unmarked: 1 });
  });

  it('8b. an unanswered send whose markUnanswered the SDK sends again is one uncertain send: the mailer sends it once more, marked, not left to the owner', async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    await t.store.putRaw(storedLead('Unanswered Once', -10, { attempts: 1, lastError: 'connection', lastAttemptAt: minutes(-10).toISOString() }));
    wiring.lateSend = { actor: 'mailer', nth: 1 };
    wiring.timeoutWrite = { actor: 'mailer', nth: 2 };
    await interleaver.drive({ mailer: () => t.job('mailer', 0)() });
    expect((await t.store.all())[0]?.mail).toMatchObject({ state: 'pending', maybeSent: 1 });
    // SES's events never come: after the quiet period, one more, saying it may repeat.
    for (const at of [5, 35, 70]) await interleaver.drive({ mailer: () => t.job(`mailer-${at}`, at)() });
    expect(await inbox('Unanswered Once')).toEqual({ copies: 2, unmarked: 1 });
  });

  it('8c. a volume counter take that lands and is sent again by the SDK takes one slot', async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    await setUp(wiring);
    const made = openSlot(backends, 'handler');
    made.wiring = wiring;
    opened.push(made);
    const counter = limitCounter(made.dynamo, backends.local.limitsTable);
    const limit = { max: 2, windowMs: 60 * 60 * 1000 };
    const key = `retried-${cases}`;
    wiring.timeoutWrite = { actor: 'handler', nth: 1 };
    const taken: boolean[] = [];
    await interleaver.drive({ handler: async () => { for (let i = 0; i < 3; i += 1) taken.push((await counter.take('mailsPerHour', limit, key, minutes(0))).ok); } });
    expect(taken).toEqual([true, true, false]);
  });

  it('9. SES took the e-mail, then the connection reset: unanswered, so the mailer does not send it again unmarked before SES\'s events arrive', async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    wiring.resetSend = { actor: 'handler', nth: 1 };
    await interleaver.drive({ handler: () => t.handler('handler')(posted('Reset After Send'), PLENTY) });
    // The mailer runs before SES's Send event is settled.
    await interleaver.drive({ mailer: () => t.job('mailer', 5)() });
    expect(await inbox('Reset After Send')).toEqual({ copies: 1, unmarked: 1 });
    // Then SES's events arrive, and later runs find it sent.
    const send = wiring.sends[0]!;
    const mail = { messageId: send.messageId, tags: { send: [send.sendId] } };
    await interleaver.drive({ events: () => recordSesNotification(JSON.stringify({ eventType: 'Send', mail, send: {} }), t.events(6)) });
    for (const at of [10, 40, 75]) await interleaver.drive({ mailer: () => t.job(`mailer-${at}`, at)() });
    expect(await inbox('Reset After Send')).toEqual({ copies: 1, unmarked: 1 });
    expect((await t.store.all())[0]?.mail.state).toBe('sent');
  });

  it('10. a handler stopped between the store and the send leaves a lead no send can have reached: the next run sends it at once, not as a repeat half an hour on', async () => {
    const interleaver = new Interleaver(() => 0);
    const wiring = plainWiring(interleaver);
    const t = await setUp(wiring);
    // Lambda stops the handler straight after its put landed.
    wiring.killAfterWrite = { actor: 'handler', nth: 1 };
    await interleaver.drive({ handler: () => t.handler('handler')(posted('Stopped Before Send'), PLENTY) });
    expect(await inbox('Stopped Before Send')).toEqual({ copies: 0, unmarked: 0 });
    await interleaver.drive({ mailer: () => t.job('mailer', 5)() });
    expect(await inbox('Stopped Before Send')).toEqual({ copies: 1, unmarked: 1 });
    for (const at of [40, 75]) await interleaver.drive({ mailer: () => t.job(`mailer-${at}`, at)() });
    expect(await inbox('Stopped Before Send')).toEqual({ copies: 1, unmarked: 1 });
  });
});
