// A model of everyone who sends or settles a lead's e-mail, run in a random order against the real
// store and mail code: dynalite and aws-ses-v2-local through the real SDK clients. Each actor's
// clients pass every request through a gate (SDK middleware), and the interleaver lets one gated
// request go at a time, chosen by a seeded random number, once every actor has stopped at a gate or
// finished: so a schedule is one order of requests, and the same seed gives the same order.
//
// Actors: the form handler posting a lead, two scheduled mailer runs, `site leads resend --unsent`
// and `--id` (the CLI's own resendLeads), and SES's events (Send, Delivery, Reject; a bounce is a
// Delivery's mark, settled the same way). At most one fault a schedule: a DynamoDB write that lands
// and then times out (the SDK's retry meets it), SES taking an e-mail and answering too late, a run
// killed straight after SES took its e-mail, SES rejecting a send it took (its Reject may come
// before the sender's markSent), or a damaged record among the leads. Then SES works: its events
// are delivered and the mailer runs every few minutes until nothing is due, and the invariants are
// checked on what reached the inbox (the local SES's store, less any send SES rejected).
import { DeleteItemCommand, DynamoDBClient, type DynamoDBClient as Client } from '@aws-sdk/client-dynamodb';
import { SESClient, type SendEmailCommand } from '@aws-sdk/client-ses';
import { createHandler } from '../../lambda/create-handler.ts';
import { REPEAT_PREFIX } from '../../lambda/email.ts';
import { ensureLeadTable, startLocalStore, type LocalStore } from '../../lambda/leads/local-store.ts';
import { newLead, submissionKey } from '../../lambda/leads/new-lead.ts';
import { createResendJob } from '../../lambda/leads/resend-job.ts';
import { resendLeads, type ResendReport } from '../../lambda/leads/resend.ts';
import { deliveryStore, recordSesNotification } from '../../lambda/leads/ses-events.ts';
import { leadStore, type LeadStore } from '../../lambda/leads/store.ts';
import type { LeadRecord } from '../../lambda/leads/record.ts';
import { startLocalSes, type LocalSes } from '../../lambda/local-ses.ts';
import { silentLogger } from '../../lambda/log.ts';
import type { MailSender } from '../../lambda/ses-client.ts';
import { validateContact } from '../../forms/contact.ts';
import { clearStore, jsonPost, storedEmails, testConfig, validContact, type StoredEmail } from './support.ts';

export type Fault = 'none' | 'write-lands-then-times-out' | 'ses-answers-late' | 'killed-mid-send' | 'ses-rejects' | 'damaged-record';
export const FAULTS: readonly Fault[] = ['none', 'write-lands-then-times-out', 'ses-answers-late', 'killed-mid-send', 'ses-rejects', 'damaged-record'];

export const ACTORS = ['handler', 'mailer1', 'mailer2', 'resendUnsent', 'resendId', 'resendAgain', 'events'] as const;
export type Actor = (typeof ACTORS)[number];

/** A small seeded generator (mulberry32): the same seed, the same schedule. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Lets one gated request go at a time. `pick` chooses among the actors waiting (in the order they
 * arrived), once none is running: a random pick is a random schedule, a scripted one a named case.
 */
export class Interleaver {
  private running = 0;
  private readonly waiting: { actor: string; go: () => void }[] = [];
  private wake: (() => void) | undefined;
  /** The order in which gates were let go, by actor: what a failing schedule is read from. */
  readonly trace: string[] = [];

  private readonly pick: (waiting: readonly string[]) => number;

  constructor(pick: (waiting: readonly string[]) => number) {
    this.pick = pick;
  }

  private leave(): void {
    this.running -= 1;
    this.wake?.();
  }

  /** Stops the actor until the interleaver lets it go. */
  gate(actor: string): Promise<void> {
    return new Promise((go) => {
      this.waiting.push({ actor, go });
      this.leave();
    });
  }

  /** The actor stops for good (killed): it is neither running nor waiting. */
  kill(): Promise<never> {
    this.leave();
    return new Promise<never>(() => {});
  }

  /** Runs the actors to the end (a killed one excepted); answers each one's error, if it threw. */
  async drive(bodies: Record<string, () => Promise<unknown>>): Promise<Record<string, unknown>> {
    const errors: Record<string, unknown> = {};
    for (const [name, body] of Object.entries(bodies)) {
      this.running += 1;
      body().catch((error: unknown) => { errors[name] = error; }).finally(() => this.leave());
    }
    for (;;) {
      while (this.running > 0) await new Promise<void>((resolve) => { this.wake = resolve; });
      if (this.waiting.length === 0) return errors;
      const index = this.pick(this.waiting.map((w) => w.actor));
      const [next] = this.waiting.splice(Math.min(index, this.waiting.length - 1), 1);
      this.trace.push(next!.actor);
      this.running += 1;
      next!.go();
    }
  }
}

/** A timeout as the SDK raises it once the request has left: the answer never came. */
function lateAnswer(): Error {
  return Object.assign(new Error('Request timed out after the request was sent'), { name: 'TimeoutError', $metadata: {} });
}

/** A connection reset as Node raises it (the SDK stamps $metadata on), after the request was written. */
function connectionReset(): Error {
  return Object.assign(new Error('read ECONNRESET'), { name: 'Error', code: 'ECONNRESET', syscall: 'read', $metadata: { attempts: 1 } });
}

/** What one schedule's faults and gates do to a request, decided per actor. */
export interface Wiring {
  interleaver: Interleaver;
  /** This request, the n-th write of the actor's, lands and then times out. */
  timeoutWrite?: { actor: string; nth: number };
  /** The n-th SES send of the actor lands and its answer never comes. */
  lateSend?: { actor: string; nth: number };
  /** The actor is killed straight after SES took its n-th send. */
  killAfterSend?: { actor: string; nth: number };
  /** The n-th SES send of the actor is refused as throttled (it never reaches SES). */
  throttleSend?: { actor: string; nth: number };
  /** SES refuses a send for what it holds (MessageRejected), or the account's sending: the error, or undefined to send. */
  refuseSend?: (command: SendEmailCommand) => Error | undefined;
  /** The n-th write of the actor fails outright (DynamoDB refused it): it never lands. */
  failWrite?: { actor: string; nth: number };
  /** The actor is killed straight after its n-th write landed (a Lambda timeout between two requests). */
  killAfterWrite?: { actor: string; nth: number };
  /** SES takes the n-th send of the actor, then the connection resets before its answer. */
  resetSend?: { actor: string; nth: number };
  /** Every send SES took: its send tag and message id, for SES's events. */
  onSend(actor: string, sendId: string, messageId: string): void;
  /** Requests by target (x-amz-target for DynamoDB, the Action for SES), for counting. */
  requests: Map<string, number>;
}

const WRITES = /\.(PutItem|UpdateItem|DeleteItem)$/;

/**
 * One actor's clients, kept from schedule to schedule (a new SDK client and its connections for
 * every actor of every schedule cost more than the schedule's own requests); each schedule gives
 * it that schedule's wiring, and its counts of writes and sends start again.
 */
export interface Slot {
  wiring?: Wiring;
  writes: number;
  sends: number;
  dynamo: Client;
  ses: MailSender;
  /** A fault made the SDK retry: its retry quota is spent a little, so the slot is not kept. */
  spent: boolean;
  destroy(): void;
}

/** An SES error as the SDK raises it for an answer SES gave. */
export function sesError(name: string, message: string, status = 400): Error {
  return Object.assign(new Error(message), { name, Code: name, $metadata: { httpStatusCode: status } });
}

export function openSlot(backends: { local: LocalStore; ses: LocalSes }, actor: string): Slot {
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const dynamo = new DynamoDBClient({ endpoint: backends.local.endpoint, region: 'eu-west-2', credentials, maxAttempts: 2 });
  const sesClient = new SESClient({ endpoint: backends.ses.endpoint, region: 'eu-west-2', credentials, maxAttempts: 1 });
  const slot: Slot = {
    writes: 0,
    sends: 0,
    dynamo,
    spent: false,
    ses: {
      // SendEmail through the gate, and the schedule's SES faults after SES took it.
      async send(command: SendEmailCommand) {
        const wiring = slot.wiring!;
        wiring.requests.set('SES.SendEmail', (wiring.requests.get('SES.SendEmail') ?? 0) + 1);
        await wiring.interleaver.gate(actor);
        if (wiring.throttleSend?.actor === actor && wiring.throttleSend.nth === slot.sends + 1) { slot.sends += 1; throw sesError('Throttling', 'Maximum sending rate exceeded.'); }
        const refusal = wiring.refuseSend?.(command);
        if (refusal) { slot.sends += 1; throw refusal; }
        const answer = await sesClient.send(command);
        slot.sends += 1;
        const sendId = command.input.Tags?.find((tag) => tag.Name === 'send')?.Value ?? '';
        wiring.onSend(actor, sendId, answer.MessageId ?? '');
        if (wiring.killAfterSend?.actor === actor && wiring.killAfterSend.nth === slot.sends) return wiring.interleaver.kill();
        if (wiring.lateSend?.actor === actor && wiring.lateSend.nth === slot.sends) throw lateAnswer();
        if (wiring.resetSend?.actor === actor && wiring.resetSend.nth === slot.sends) throw connectionReset();
        return answer;
      },
    },
    destroy: () => { dynamo.destroy(); sesClient.destroy(); },
  };
  // Every DynamoDB request through the gate; a write the schedule's fault strikes lands, then times out (the SDK retries it).
  dynamo.middlewareStack.add((next) => async (args) => {
    const wiring = slot.wiring!;
    const target = String((args.request as { headers?: Record<string, string> }).headers?.['x-amz-target'] ?? '');
    wiring.requests.set(target, (wiring.requests.get(target) ?? 0) + 1);
    await wiring.interleaver.gate(actor);
    if (WRITES.test(target) && wiring.failWrite?.actor === actor && wiring.failWrite.nth === slot.writes + 1) {
      slot.writes += 1;
      throw Object.assign(new Error('The table refused the write'), { name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } });
    }
    const answer = await next(args);
    if (WRITES.test(target)) {
      slot.writes += 1;
      if (wiring.timeoutWrite?.actor === actor && wiring.timeoutWrite.nth === slot.writes) { slot.spent = true; throw lateAnswer(); }
      if (wiring.killAfterWrite?.actor === actor && wiring.killAfterWrite.nth === slot.writes) return wiring.interleaver.kill();
    }
    return answer;
  }, { step: 'finalizeRequest', name: 'modelGate' });
  return slot;
}

export interface ModelBackends {
  local: LocalStore;
  ses: LocalSes;
  /** The table every schedule shares (each schedule's leads have ids and names of their own). */
  table: string;
  slot(actor: string, wiring: Wiring): Slot;
  /** Lets go of the slots a schedule spent. */
  release(): void;
  close(): Promise<void>;
}

export async function startModelBackends(): Promise<ModelBackends> {
  const local = await startLocalStore();
  const ses = await startLocalSes();
  const table = 'model-leads';
  const setup = local.client();
  try { await ensureLeadTable(setup, table); } finally { setup.destroy(); }
  const slots = new Map<string, Slot>();
  return {
    local,
    ses,
    table,
    slot(actor, wiring) {
      let slot = slots.get(actor);
      if (!slot) { slot = openSlot({ local, ses }, actor); slots.set(actor, slot); }
      slot.wiring = wiring;
      slot.writes = 0;
      slot.sends = 0;
      return slot;
    },
    release() {
      for (const [actor, slot] of slots) if (slot.spent) { slot.destroy(); slots.delete(actor); }
    },
    close: async () => {
      for (const slot of slots.values()) slot.destroy();
      await ses.close();
      await local.close();
    },
  };
}

const T0 = Date.parse('2026-09-01T09:00:00Z');
/** The model's clock: `n` minutes after the post. */
export const minutes = (n: number) => new Date(T0 + n * 60_000);

/** A schedule's wiring with no fault: sends are recorded in `sends` (send id, message id), for SES's events. */
export function plainWiring(interleaver: Interleaver): Wiring & { sends: { actor: string; sendId: string; messageId: string }[] } {
  const sends: { actor: string; sendId: string; messageId: string }[] = [];
  return { interleaver, requests: new Map(), sends, onSend: (actor, sendId, messageId) => { sends.push({ actor, sendId, messageId }); } };
}
const CONFIG = testConfig();

/**
 * One schedule's set-up: which fault, who it strikes, when the second round runs. All drawn from the
 * seed. Two rounds, each of actors whose clocks agree (a Lambda lives seconds, not half an hour):
 * the handler's post with the owner's `resend --unsent` a minute later; then, `later` minutes after
 * the post, both mailer runs, `resend --id` and `resend --unsent` again. SES's events run in both.
 */
export interface Schedule {
  seed: number;
  fault: Fault;
  /** Minutes after the post at which the second round runs. */
  later: number;
  /** The handler has too little of its Lambda time left to send (it leaves the send to the mailer). */
  handlerShortOfTime: boolean;
  /** Whose request the fault strikes, and which of them. */
  target: { actor: Actor; nth: number };
  /** Which send SES rejects (the n-th it took), for `ses-rejects`. */
  rejectNth: number;
}

export function drawSchedule(seed: number, fault?: Fault): Schedule {
  const next = random(seed ^ 0x5eed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const senders: Actor[] = ['handler', 'mailer1', 'mailer2', 'resendUnsent', 'resendId', 'resendAgain'];
  return {
    seed,
    fault: fault ?? pick(FAULTS),
    later: pick([3, 6, 33, 35]),
    handlerShortOfTime: next() < 0.1,
    target: { actor: pick(senders), nth: 1 + Math.floor(next() * 2) },
    rejectNth: 1 + Math.floor(next() * 3),
  };
}

/** What one schedule came to, lead by lead. */
export interface LeadOutcome {
  name: string;
  submissionId: string;
  /** E-mails of it that reached the inbox (SES took them and did not reject them). */
  copies: number;
  /** Of those, the ones that do not say they may repeat one already received. */
  unmarked: number;
  /** Its record at the end. */
  state: string | undefined;
  /** The last mailer run named it set aside, or left it to the owner with the stuck alarm firing. */
  alarmed: boolean;
}

export interface ScheduleResult {
  schedule: Schedule;
  leads: LeadOutcome[];
  /** The damaged record, when there was one: whether the mailer set it aside and said so. */
  damagedSetAside?: boolean;
  /** Errors the actors threw (none expected: the handler answers, the runs catch per lead). */
  errors: Record<string, string>;
  trace: string[];
  requests: number;
}

/** The inbox copies of a lead, and how many say nothing of a repeat. */
export function copiesOf(name: string, emails: readonly StoredEmail[], rejected: ReadonlySet<string>): { copies: number; unmarked: number } {
  let copies = 0;
  let unmarked = 0;
  for (const email of emails) {
    if (rejected.has(email.messageId)) continue;
    const text = email.body.text ?? '';
    if (email.subject.includes(`: ${name}`)) {
      copies += 1;
      if (!email.subject.startsWith(REPEAT_PREFIX)) unmarked += 1;
    } else if (text.includes(`Name: ${name}\n`)) {
      // A digest: its section title says whether this lead may repeat.
      copies += 1;
      const title = new RegExp(`^\\d+\\. (.*)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm').exec(text)?.[1] ?? '';
      if (!title.startsWith(REPEAT_PREFIX)) unmarked += 1;
    }
  }
  return { copies, unmarked };
}

/**
 * Runs one schedule: a fresh table, a post through the handler and two leads held for the digest,
 * the actors in the seed's order with its fault, then SES working until nothing is due.
 * `pick` replaces the random order (a named case's script).
 */
export async function runSchedule(backends: ModelBackends, schedule: Schedule, pick?: (waiting: readonly string[]) => number): Promise<ScheduleResult> {
  const order = random(schedule.seed);
  const interleaver = new Interleaver(pick ?? ((waiting) => Math.floor(order() * waiting.length)));
  const notices: string[] = [];
  const rejected = new Set<string>();
  let sendsTaken = 0;
  const wiring: Wiring = {
    interleaver,
    requests: new Map(),
    onSend(_actor, sendId, messageId) {
      sendsTaken += 1;
      const reject = schedule.fault === 'ses-rejects' && sendsTaken === schedule.rejectNth;
      if (reject) rejected.add(messageId);
      const mail = { timestamp: minutes(0).toISOString(), messageId, tags: { send: [sendId] } };
      const events = reject
        ? [{ eventType: 'Send', mail, send: {} }, { eventType: 'Reject', mail, reject: { reason: 'Bad content' } }]
        : [{ eventType: 'Send', mail, send: {} }, { eventType: 'Delivery', mail, delivery: { timestamp: minutes(1).toISOString(), recipients: ['leads@example.co.uk'] } }];
      // SNS keeps no order: either may come first, and after any other request.
      if (order() < 0.5) events.reverse();
      for (const event of events) notices.splice(Math.floor(order() * (notices.length + 1)), 0, JSON.stringify(event));
    },
  };
  const { fault, target } = schedule;
  if (fault === 'write-lands-then-times-out') wiring.timeoutWrite = target;
  if (fault === 'ses-answers-late') wiring.lateSend = target;
  if (fault === 'killed-mid-send') wiring.killAfterSend = { actor: target.actor, nth: 1 };

  const { table } = backends;
  const setup = backends.local.client();
  await clearStore(backends.ses);
  const setupStore = leadStore(setup, table);

  const tag = `S${schedule.seed}`;
  const names = { posted: `Posted ${tag}`, heldA: `Held A ${tag}`, heldB: `Held B ${tag}` };
  const payload = validContact({ submissionId: `0de10000-0000-4000-8000-${String(schedule.seed % 1e12).padStart(12, '0')}`, name: names.posted });
  const checked = validateContact(payload);
  if (!checked.ok) throw new Error('invalid fixture');
  const postedId = submissionKey(payload, { form: 'contact', data: checked.data }, minutes(0));
  const held: LeadRecord[] = [];
  for (const name of [names.heldA, names.heldB]) {
    const lead = validateContact(validContact({ name }));
    if (!lead.ok) throw new Error('invalid fixture');
    const record = newLead({ form: 'contact', data: lead.data }, { submissionId: `held-${name.replace(/\W/g, '')}`, receivedAt: minutes(-1), source: 'https://www.example.co.uk/contact', retentionMonths: 24 });
    await setupStore.putNew({ ...record, mail: { ...record.mail, held: true } });
    held.push(record);
  }
  let damagedId: string | undefined;
  if (fault === 'damaged-record') {
    damagedId = `damaged-${tag}`;
    await setupStore.putRaw({ ...held[0]!, submissionId: damagedId, receivedAt: 'yesterday', name: `Damaged ${tag}`, mail: { state: 'pending', attempts: 0 } });
  }

  const storeOf = (actor: string): LeadStore => leadStore(backends.slot(actor, wiring).dynamo, table);
  const sesOf = (actor: string) => backends.slot(actor, wiring).ses;
  const mailerOf = (actor: string, at: number) => ({ ses: sesOf(actor), store: storeOf(actor), mailTo: CONFIG.mailTo, mailFrom: CONFIG.mailFrom, now: () => minutes(at) });
  const events = deliveryStore(backends.slot('events', wiring).dynamo, table);
  const playEvent = (notice: string, at: number) => recordSesNotification(notice, { store: events, log: silentLogger, now: () => minutes(at) });

  const errors: Record<string, string> = {};
  const note = (found: Record<string, unknown>) => { for (const [actor, error] of Object.entries(found)) errors[actor] = error instanceof Error ? `${error.name}: ${error.message}` : String(error); };
  const later = schedule.later;
  /** SES's events, as they arrive between the others' requests. */
  const eventsActor = (at: number) => async () => {
    for (let turn = 0; turn < 8; turn += 1) {
      await interleaver.gate('events');
      const notice = notices.shift();
      if (notice) await playEvent(notice, at);
    }
  };
  try {
    note(await interleaver.drive({
      handler: async () => {
        const handler = createHandler({ ses: sesOf('handler'), leads: storeOf('handler'), config: CONFIG, now: () => minutes(0), log: silentLogger });
        const answer = await handler(jsonPost(payload), { getRemainingTimeInMillis: () => (schedule.handlerShortOfTime ? 4000 : 14_000) });
        if (answer.statusCode !== 200) throw new Error(`the handler answered ${answer.statusCode}`);
      },
      resendUnsent: () => resendLeads(mailerOf('resendUnsent', 1), { now: true, log: silentLogger }),
      events: eventsActor(1),
    }));
    note(await interleaver.drive({
      mailer1: () => createResendJob({ ses: sesOf('mailer1'), leads: storeOf('mailer1'), config: CONFIG, log: silentLogger, now: () => minutes(later) })(),
      mailer2: () => createResendJob({ ses: sesOf('mailer2'), leads: storeOf('mailer2'), config: CONFIG, log: silentLogger, now: () => minutes(later) })(),
      resendId: () => resendLeads(mailerOf('resendId', later), { ids: [postedId], now: true, log: silentLogger }),
      resendAgain: () => resendLeads(mailerOf('resendAgain', later), { now: true, log: silentLogger }),
      events: eventsActor(later),
    }));

    // SES works from here: its events arrive, and the mailer runs every few minutes until nothing is due.
    delete wiring.timeoutWrite; delete wiring.lateSend; delete wiring.killAfterSend;
    const settling = mailerOf('mailer', 0);
    let last: ResendReport | undefined;
    // Runs far enough apart to pass a backoff or the quiet period after a send that may have gone.
    for (const at of [5, 10, 40, 75, 110, 170, 300].map((m) => later + m)) {
      while (notices.length) { const notice = notices.shift()!; note(await interleaver.drive({ events: () => playEvent(notice, at - 1) })); }
      note(await interleaver.drive({ mailer: async () => { last = await createResendJob({ ses: settling.ses, leads: settling.store, config: CONFIG, log: silentLogger, now: () => minutes(at) })(); } }));
      // Nothing left but what waits for the owner (set aside, or two sends that may have gone).
      if (last && notices.length === 0 && last.waiting === last.setAside.length + last.uncertain.filter((u) => !u.from).length) break;
    }

    const emails = await storedEmails(backends.ses);
    const leads: LeadOutcome[] = [];
    for (const [name, id] of [[names.posted, postedId], [names.heldA, held[0]!.submissionId], [names.heldB, held[1]!.submissionId]] as const) {
      const record = await setupStore.get(id);
      const alarmed = Boolean(last && (last.setAside.some((s) => s.submissionId === id) || (last.uncertain.some((u) => u.submissionId === id && !u.from) && last.stuck > 0)));
      leads.push({ name, submissionId: id, ...copiesOf(name, emails, rejected), state: record?.mail.state, alarmed });
    }
    return {
      schedule,
      leads,
      ...(damagedId ? { damagedSetAside: Boolean(last?.setAside.some((s) => s.submissionId === damagedId)) && copiesOf(`Damaged ${tag}`, emails, rejected).copies === 0 } : {}),
      errors,
      trace: interleaver.trace,
      requests: [...wiring.requests.values()].reduce((a, b) => a + b, 0),
    };
  } finally {
    // What is still pending leaves the shared table, so the next schedule's mailers do not read it.
    for (const id of [postedId, ...held.map((h) => h.submissionId), ...(damagedId ? [damagedId] : [])]) {
      if ((await setupStore.get(id))?.mail?.state !== 'sent') await setup.send(new DeleteItemCommand({ TableName: table, Key: { submissionId: { S: id } } }));
    }
    setup.destroy();
    backends.release();
  }
}

/** The invariants, as sentences naming what broke (none when the schedule kept them). */
export function brokenInvariants(result: ScheduleResult): string[] {
  const broken: string[] = [];
  const faulted = result.schedule.fault !== 'none' && result.schedule.fault !== 'damaged-record';
  for (const lead of result.leads) {
    if (lead.copies === 0 && !lead.alarmed) broken.push(`${lead.name} never reached the inbox, and nothing alarms (state ${lead.state})`);
    if (lead.copies === 0 && lead.alarmed) broken.push(`${lead.name} was left to the owner under a single fault`);
    if (lead.unmarked > 1) broken.push(`${lead.name} reached the inbox ${lead.unmarked} times without the "may already have arrived" marker`);
    if (lead.copies > 2) broken.push(`${lead.name} reached the inbox ${lead.copies} times under one fault`);
    if (!faulted && lead.copies > 1) broken.push(`${lead.name} reached the inbox ${lead.copies} times with no fault that could cause it`);
    if (lead.state === 'pending' && !lead.alarmed && lead.copies === 0) broken.push(`${lead.name} stays unsent without an alarm`);
  }
  if (result.damagedSetAside === false) broken.push('the damaged record was not set aside and named (or was mailed)');
  for (const [actor, error] of Object.entries(result.errors)) broken.push(`${actor} threw ${error}`);
  return broken;
}
