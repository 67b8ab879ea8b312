// A model of everyone who sends or settles a lead's e-mail, run in a random order against the real
// store and mail code: dynalite and aws-ses-v2-local through the real SDK clients. Each actor's
// clients pass every request through a gate (SDK middleware), and the interleaver lets one gated
// request go at a time, chosen by a seeded random number, once every actor has stopped at a gate or
// finished: so a schedule is one order of requests, and the same seed gives the same order.
//
// Actors: the form handler posting a lead, two scheduled mailer runs, `site leads resend --unsent`
// and `--id` (the CLI's own resendLeads), and SES's events (Send, Delivery, Reject; a bounce is a
// Delivery's mark, settled the same way). None, one or two faults a schedule (FAULT_KINDS). The
// handler and the scheduled runs count against the volume limits (a limits table, an hour's cap of
// MODEL_MAILS_PER_HOUR), and each schedule draws where the hour stands at the post: room left, its
// network's share used, or the cap reached, so posts are held and go out in digests. Then SES works: its events
// are delivered and the mailer runs every few minutes until nothing is due, and the invariants are
// checked on what reached the inbox (the local SES's store, less any send SES rejected). A lead that
// never arrived counts as alarmed only when an alarm of the stack itself (infra/, synthesised:
// stack-alarms.ts) is in ALARM over the figures the mailer's runs logged and the dead letters' depth.
import { BatchWriteItemCommand, DeleteItemCommand, DynamoDBClient, ScanCommand, type DynamoDBClient as Client } from '@aws-sdk/client-dynamodb';
import { SESClient, type SendEmailCommand } from '@aws-sdk/client-ses';
import { createHandler } from '../../lambda/create-handler.ts';
import { REPEAT_PREFIX } from '../../lambda/email.ts';
import { ensureLeadTable, ensureLimitsTable, startLocalStore, type LocalStore } from '../../lambda/leads/local-store.ts';
import { clientAddress } from '../../lambda/limits/client-address.ts';
import { limitCounter } from '../../lambda/limits/counter.ts';
import { networkMailsPerHour, VOLUME_LIMITS } from '../../lambda/limits/settings.ts';
import { LIMIT_KEY } from '../../lambda/limits/table.ts';
import { mayMailNow, networkMayMail, type VolumeLimits } from '../../lambda/limits/volume.ts';
import { newLead, submissionKey } from '../../lambda/leads/new-lead.ts';
import { createResendJob } from '../../lambda/leads/resend-job.ts';
import { resendLeads, type ResendReport } from '../../lambda/leads/resend.ts';
import { deliveryStore, recordSesNotification } from '../../lambda/leads/ses-events.ts';
import { leadStore, type LeadStore } from '../../lambda/leads/store.ts';
import type { LeadRecord } from '../../lambda/leads/record.ts';
import { startLocalSes, type LocalSes } from '../../lambda/local-ses.ts';
import { silentLogger, type LogEntry } from '../../lambda/log.ts';
import type { MailSender } from '../../lambda/ses-client.ts';
import { validateContact } from '../../forms/contact.ts';
import { METRIC_NAMESPACE, METRICS } from '../../lambda/metrics.ts';
import { alarmOn, metricsLogger, QUEUE_DEPTH, stackAlarms, type AlarmRule, type Datapoint } from './stack-alarms.ts';
import { clearStore, jsonPost, storedEmails, testConfig, validContact, type StoredEmail } from './support.ts';

/** What a fault strikes: an actor's n-th write, its n-th take of a volume counter, its n-th SES send (or that send's events), its index Queries, or its clock. */
export type FaultCategory = 'write' | 'count' | 'send' | 'query' | 'clock' | 'record';

/** Every fault the model draws, by what it strikes. */
export const FAULT_KINDS = {
  // DynamoDB: a write that lands and loses its answer (the SDK's retry meets it); one throttled (never
  // landed, the SDK tries again); one that lands and whose retry's answer is lost too, so the SDK
  // gives up; a Lambda stopped (its timeout) straight after a write landed.
  'write-lands-then-times-out': 'write',
  'write-throttled': 'write',
  'sdk-gives-up-after-landing': 'write',
  'killed-after-write': 'write',
  // The same three DynamoDB faults on a take of a volume counter (its conditional ADD).
  'count-lands-then-times-out': 'count',
  'count-throttled': 'count',
  'count-sdk-gives-up-after-landing': 'count',
  // SES: takes the e-mail and answers too late, or the connection resets, or it answers 5xx; throttles
  // or refuses it (never taken); takes it and then rejects it (its Reject event); the sender stopped
  // straight after SES took it.
  'ses-answers-late': 'send',
  'ses-reset-after-accept': 'send',
  'ses-5xx': 'send',
  'ses-throttles': 'send',
  'ses-refuses': 'send',
  'ses-reject-event': 'send',
  'killed-mid-send': 'send',
  // SES's events of that send: delivered twice, never, only after the settling runs began, or in reverse order.
  'events-duplicated': 'send',
  'events-dropped': 'send',
  'events-late': 'send',
  'events-reordered': 'send',
  // The indexes lag their table: the actor's Queries (and everyone's after) read the items as they stood at the round's start.
  'index-lags': 'query',
  // The actor's clock is off by up to 5 minutes.
  'clock-skew': 'clock',
  // A damaged record among the pending leads.
  'damaged-record': 'record',
} as const satisfies Record<string, FaultCategory>;
export type FaultKind = keyof typeof FAULT_KINDS;
export const FAULTS = Object.keys(FAULT_KINDS) as FaultKind[];

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
  /** The model's drawn faults: the one (if any) that strikes this request of the actor, now fired. */
  strike?: (category: FaultCategory, actor: string, nth: number) => FaultKind | undefined;
  /** A Query on an index by this actor reads this table instead (the lagging copy), when set. */
  laggingIndex?: (actor: string) => string | undefined;
  /** Every write and send the actor makes on a lead (its key, or the names its e-mail carries). */
  onTouch?: (actor: string, lead: string, kind: 'write' | 'send') => void;
  /** Every send SES took: its send tag and message id, for SES's events; `fault` when one struck it. */
  onSend(actor: string, sendId: string, messageId: string, fault?: FaultKind): void;
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
  /** The volume limits' counters, through the same gate (interleaved with the rest), struck by the 'count' faults, numbered apart from the lead's own writes (which the named cases aim at). */
  limits: Client;
  /** Takes of a volume counter (UpdateItem on the limits table) made this schedule. */
  counts: number;
  ses: MailSender;
  /** A fault made the SDK retry: its retry quota is spent a little, so the slot is not kept. */
  spent: boolean;
  /** The SDK's next attempt of this write times out too (sdk-gives-up-after-landing). */
  givingUp?: boolean;
  /** The same for a take of a volume counter (count-sdk-gives-up-after-landing). */
  countGivingUp?: boolean;
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
  const limits = new DynamoDBClient({ endpoint: backends.local.endpoint, region: 'eu-west-2', credentials, maxAttempts: 2 });
  limits.middlewareStack.add((next) => async (args) => {
    const wiring = slot.wiring!;
    const target = String((args.request as { headers: Record<string, string> }).headers?.['x-amz-target'] ?? '');
    wiring.requests.set(target, (wiring.requests.get(target) ?? 0) + 1);
    await wiring.interleaver.gate(actor);
    if (!WRITES.test(target)) return next(args);
    const fault = slot.countGivingUp ? 'count-sdk-gives-up-after-landing' : wiring.strike?.('count', actor, slot.counts + 1);
    slot.counts += 1;
    if (fault) slot.spent = true;
    // Throttled: it never landed, and the SDK tries again.
    if (fault === 'count-throttled') throw Object.assign(new Error('Throughput exceeds the current capacity of your table or index.'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } });
    let answer: Awaited<ReturnType<typeof next>> | undefined;
    let refused: unknown;
    try { answer = await next(args); } catch (error) { refused = error; }
    // A take refused for want of room (or for its own id) loses its answer as well; the SDK tries again.
    if (fault === 'count-lands-then-times-out') throw lateAnswer();
    // It landed, and the SDK's retry met it, but that answer is lost too: the SDK gives up.
    if (fault === 'count-sdk-gives-up-after-landing') { slot.countGivingUp = !slot.countGivingUp; throw lateAnswer(); }
    if (refused !== undefined) throw refused;
    return answer!;
  }, { step: 'finalizeRequest', name: 'modelGate' });
  const slot: Slot = {
    writes: 0,
    counts: 0,
    sends: 0,
    dynamo,
    limits,
    spent: false,
    ses: {
      // SendEmail through the gate, and the schedule's SES faults after SES took it.
      async send(command: SendEmailCommand) {
        const wiring = slot.wiring!;
        wiring.requests.set('SES.SendEmail', (wiring.requests.get('SES.SendEmail') ?? 0) + 1);
        await wiring.interleaver.gate(actor);
        const text = command.input.Message?.Body?.Text?.Data ?? '';
        const subject = command.input.Message?.Subject?.Data ?? '';
        if (wiring.onTouch) for (const name of new Set([...`${subject}\n${text}`.matchAll(/(?:^Name: |: )([A-Z][\w ]* S\d+)\b/gm)].map((m) => m[1]!))) wiring.onTouch(actor, name, 'send');
        const fault = wiring.strike?.('send', actor, slot.sends + 1);
        if ((wiring.throttleSend?.actor === actor && wiring.throttleSend.nth === slot.sends + 1) || fault === 'ses-throttles') { slot.sends += 1; throw sesError('Throttling', 'Maximum sending rate exceeded.'); }
        if (fault === 'ses-refuses') { slot.sends += 1; throw sesError('MessageRejected', 'Message content rejected.'); }
        const refusal = wiring.refuseSend?.(command);
        if (refusal) { slot.sends += 1; throw refusal; }
        const answer = await sesClient.send(command);
        slot.sends += 1;
        const sendId = command.input.Tags?.find((tag) => tag.Name === 'send')?.Value ?? '';
        wiring.onSend(actor, sendId, answer.MessageId ?? '', fault);
        if ((wiring.killAfterSend?.actor === actor && wiring.killAfterSend.nth === slot.sends) || fault === 'killed-mid-send') return wiring.interleaver.kill();
        if ((wiring.lateSend?.actor === actor && wiring.lateSend.nth === slot.sends) || fault === 'ses-answers-late') throw lateAnswer();
        if ((wiring.resetSend?.actor === actor && wiring.resetSend.nth === slot.sends) || fault === 'ses-reset-after-accept') throw connectionReset();
        if (fault === 'ses-5xx') throw sesError('ServiceUnavailable', 'Service unavailable.', 503);
        return answer;
      },
    },
    destroy: () => { dynamo.destroy(); limits.destroy(); sesClient.destroy(); },
  };
  // Every DynamoDB request through the gate; a write the schedule's fault strikes lands, then times out (the SDK retries it).
  dynamo.middlewareStack.add((next) => async (args) => {
    const wiring = slot.wiring!;
    const request = args.request as { headers: Record<string, string>; body?: unknown };
    const target = String(request.headers?.['x-amz-target'] ?? '');
    wiring.requests.set(target, (wiring.requests.get(target) ?? 0) + 1);
    await wiring.interleaver.gate(actor);
    const write = WRITES.test(target);
    // The SDK's JSON body is bytes by now (a Uint8Array).
    const body = request.body === undefined ? '' : typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body as Uint8Array);
    if (!write) wiring.strike?.('clock', actor, 0);
    if (write && wiring.onTouch && body) {
      const asked = JSON.parse(body) as { Key?: { submissionId?: { S?: string } }; Item?: { submissionId?: { S?: string } } };
      const lead = asked.Key?.submissionId?.S ?? asked.Item?.submissionId?.S;
      if (lead) wiring.onTouch(actor, lead, 'write');
    }
    if (target.endsWith('.Query') && body) {
      // The index lags its table: this Query reads the lagging copy (the same items as they stood a while ago).
      const asked = JSON.parse(body) as { TableName: string; IndexName?: string };
      const lagging = asked.IndexName ? wiring.laggingIndex?.(actor) : undefined;
      if (lagging) {
        request.body = JSON.stringify({ ...asked, TableName: lagging });
        request.headers['content-length'] = String(Buffer.byteLength(request.body as string));
      }
    }
    if (write && wiring.failWrite?.actor === actor && wiring.failWrite.nth === slot.writes + 1) {
      slot.writes += 1;
      throw Object.assign(new Error('The table refused the write'), { name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } });
    }
    const fault = write ? (slot.givingUp ? 'sdk-gives-up-after-landing' : wiring.strike?.('write', actor, slot.writes + 1)) : undefined;
    if (fault === 'write-throttled') {
      // DynamoDB throttled it: it never landed, and the SDK tries again.
      slot.writes += 1;
      slot.spent = true;
      throw Object.assign(new Error('Throughput exceeds the current capacity of your table or index.'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } });
    }
    let answer: Awaited<ReturnType<typeof next>> | undefined;
    let refused: unknown;
    try { answer = await next(args); } catch (error) { refused = error; }
    // A refused write (its condition failed) is what these faults strike as well: its answer lost, or its Lambda stopped.
    if (refused !== undefined && !(write && (fault === 'sdk-gives-up-after-landing' || fault === 'killed-after-write'))) throw refused;
    if (write) {
      slot.writes += 1;
      if ((wiring.timeoutWrite?.actor === actor && wiring.timeoutWrite.nth === slot.writes) || fault === 'write-lands-then-times-out') { slot.spent = true; throw lateAnswer(); }
      // It landed, and so did the SDK's retry (or its condition met the landed write): both answers are lost, and the SDK gives up.
      if (fault === 'sdk-gives-up-after-landing') { slot.spent = true; slot.givingUp = !slot.givingUp; throw lateAnswer(); }
      if ((wiring.killAfterWrite?.actor === actor && wiring.killAfterWrite.nth === slot.writes) || fault === 'killed-after-write') return wiring.interleaver.kill();
    }
    return answer!;
  }, { step: 'finalizeRequest', name: 'modelGate' });
  return slot;
}

export interface ModelBackends {
  local: LocalStore;
  ses: LocalSes;
  /** The table every schedule shares (each schedule's leads have ids and names of their own). */
  table: string;
  /** Its lagging copy, which a lagging index reads (index-lags). */
  laggingTable: string;
  /** The volume limits' counters, emptied after each schedule. */
  limitsTable: string;
  /** The stack's alarms (infra/), by which a lead left unsent counts as alarmed. */
  alarms: readonly AlarmRule[];
  /** A client outside every schedule's gates, for its set-up, outcome and clean-up. */
  setup: Client;
  slot(actor: string, wiring: Wiring): Slot;
  /** Lets go of the slots a schedule spent. */
  release(): void;
  close(): Promise<void>;
}

/**
 * Starts the servers and tables every schedule shares. `alarms`, when given, are the stack's alarms
 * synthesised already (a process running a share of a sweep gets them from the one that started it:
 * the synthesis costs seconds).
 */
export async function startModelBackends(options: { alarms?: readonly AlarmRule[] } = {}): Promise<ModelBackends> {
  const local = await startLocalStore();
  const ses = await startLocalSes();
  const table = 'model-leads';
  const setup = local.client();
  const laggingTable = 'model-leads-lagging';
  const limitsTable = 'model-limits';
  try { await ensureLeadTable(setup, table); await ensureLeadTable(setup, laggingTable); await ensureLimitsTable(setup, limitsTable); } catch (error) { setup.destroy(); throw error; }
  const slots = new Map<string, Slot>();
  const alarms = options.alarms ?? stackAlarms();
  return {
    local,
    ses,
    table,
    laggingTable,
    limitsTable,
    alarms,
    setup,
    slot(actor, wiring) {
      let slot = slots.get(actor);
      if (!slot) { slot = openSlot({ local, ses }, actor); slots.set(actor, slot); }
      slot.wiring = wiring;
      slot.writes = 0;
      slot.counts = 0;
      slot.sends = 0;
      return slot;
    },
    release() {
      for (const [actor, slot] of slots) if (slot.spent) { slot.destroy(); slots.delete(actor); }
    },
    close: async () => {
      for (const slot of slots.values()) slot.destroy();
      setup.destroy();
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

/** One drawn fault: its kind, and the request it strikes (the actor's n-th of its category, or anyone's next once that actor is done). */
export interface DrawnFault {
  kind: FaultKind;
  actor: Actor;
  nth: number;
  /** For clock-skew: the minutes the actor's clock is off. */
  skew?: number;
}

/**
 * One schedule's set-up, all drawn from the seed: its faults (none, one, or two), and when the second
 * round runs. Two rounds: the handler's post with the owner's `resend --unsent` a minute later; then,
 * `later` minutes after the post, both mailer runs, `resend --id` and `resend --unsent` again. SES's
 * events run in both. Then SES works and the mailer runs until nothing is due.
 */
export interface Schedule {
  seed: number;
  faults: DrawnFault[];
  /** Minutes after the post at which the second round runs. */
  later: number;
  /** The handler has too little of its Lambda time left to send (it leaves the send to the mailer). */
  handlerShortOfTime: boolean;
  /** The owner's `resend --unsent` runs a minute after the post (else with the second round). */
  ownerEarly: boolean;
  /** This actor's requests go first whenever it waits (else the seed's order decides). */
  first?: Actor;
  /**
   * The volume limits the handler and the scheduled runs count against (an hour's cap of
   * MODEL_MAILS_PER_HOUR), and where the hour stands at the post: room left, the post's network's
   * share used up, or the hour's cap reached. Absent: no limits (the named cases, whose faults are
   * aimed at the handler's n-th write of the lead's record).
   */
  volume?: VolumeState;
}

export const VOLUME_STATES = ['room', 'network-share-used', 'hour-cap-reached'] as const;
export type VolumeState = (typeof VOLUME_STATES)[number];
/** The model's hourly cap: small, so that it is reached within a schedule's posts and sends. */
export const MODEL_MAILS_PER_HOUR = 5;

/** The actors a fault of this kind can strike: only senders send; only the handler and the scheduled runs count; anyone writes, queries and has a clock. */
export function actorsFor(kind: FaultKind): readonly Actor[] {
  if (FAULT_KINDS[kind] === 'record') return ['mailer1'];
  if (FAULT_KINDS[kind] === 'count') return ['handler', 'mailer1', 'mailer2'];
  return FAULT_KINDS[kind] === 'send' ? ACTORS.filter((actor) => actor !== 'events') : ACTORS;
}

export function drawFault(next: () => number, kind: FaultKind, actor?: Actor): DrawnFault {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const skew = (1 + Math.floor(next() * 5)) * (next() < 0.5 ? -1 : 1);
  return { kind, actor: actor ?? pick(actorsFor(kind)), nth: 1 + Math.floor(next() * 2), ...(kind === 'clock-skew' ? { skew } : {}) };
}

/** A seed's schedule; `fault` and `actor` fix its (first) fault, as the covering sample does. */
export function drawSchedule(seed: number, fault?: FaultKind | 'none', actor?: Actor, nth?: number): Schedule {
  const next = random(seed ^ 0x5eed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const roll = next();
  const count = fault === 'none' ? 0 : fault ? (roll < 0.2 ? 2 : 1) : roll < 0.1 ? 0 : roll < 0.3 ? 2 : 1;
  const faults: DrawnFault[] = [];
  for (let i = 0; i < count; i += 1) faults.push(drawFault(next, i === 0 && fault && fault !== 'none' ? fault : pick(FAULTS), i === 0 ? actor : undefined));
  if (nth !== undefined && faults[0]) faults[0].nth = nth;
  return { seed, faults, later: pick([3, 6, 33, 35]), handlerShortOfTime: next() < 0.1, ownerEarly: next() < 0.3, volume: pick(VOLUME_STATES) };
}

/**
 * The covering sample `npm test` runs: every fault kind aimed at every actor it can strike (its first
 * request of that kind), two such aims to a schedule (paired in a seeded shuffle, so each schedule
 * also has two faults), and a few schedules with none.
 */
export function coveringSample(): Schedule[] {
  const aims = FAULTS.flatMap((kind) => actorsFor(kind).map((actor) => ({ kind, actor })));
  const shuffle = random(0xc07e);
  for (let i = aims.length - 1; i > 0; i -= 1) { const j = Math.floor(shuffle() * (i + 1)); [aims[i], aims[j]] = [aims[j]!, aims[i]!]; }
  const schedules: Schedule[] = [];
  let seed = 1;
  for (let i = 0; i < aims.length; i += 2) {
    const schedule = drawSchedule(seed++, 'none');
    schedule.faults = aims.slice(i, i + 2).map(({ kind, actor }) => ({ ...drawFault(random(seed * 31 + i), kind, actor), nth: 1 }));
    // A scheduled run takes a counter only for a lead it mails on its own, which the owner's resends
    // usually claim first: here the handler leaves its send to the runs, with room in the hour, and
    // the run the fault is aimed at goes first whenever it waits.
    const run = schedule.faults.find((f) => FAULT_KINDS[f.kind] === 'count' && f.actor !== 'handler')?.actor;
    if (run) Object.assign(schedule, { handlerShortOfTime: true, ownerEarly: false, volume: 'room', later: 33, first: run });
    schedules.push(schedule);
  }
  for (let i = 0; i < 3; i += 1) schedules.push(drawSchedule(seed++, 'none'));
  // The named cases as schedules: the handler's own send refused or unanswered, and the write of
  // that outcome (its third: put, claim, outcome) landing and sent again by the SDK; SES taking the
  // e-mail before the connection reset; the handler stopped straight after its put; its put's answers
  // lost twice over.
  const named: DrawnFault[][] = [
    [{ kind: 'ses-refuses', actor: 'handler', nth: 1 }, { kind: 'write-lands-then-times-out', actor: 'handler', nth: 3 }],
    [{ kind: 'ses-answers-late', actor: 'handler', nth: 1 }, { kind: 'write-lands-then-times-out', actor: 'handler', nth: 3 }],
    [{ kind: 'ses-reset-after-accept', actor: 'handler', nth: 1 }],
    [{ kind: 'killed-after-write', actor: 'handler', nth: 1 }],
    // The put landing and its answers lost, the SDK giving up, for the post and for the visitor's
    // second try (a write is counted once per attempt: the second try's put is the handler's third).
    [{ kind: 'sdk-gives-up-after-landing', actor: 'handler', nth: 1 }, { kind: 'sdk-gives-up-after-landing', actor: 'handler', nth: 3 }],
  ];
  for (const faults of named) {
    const { volume: _volume, ...schedule } = drawSchedule(seed++, 'none');
    schedules.push({ ...schedule, faults, handlerShortOfTime: false });
  }
  return schedules;
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
  /** Send attempts its record counts (mail.attempts), and SendEmail requests that carried it. */
  recordedAttempts: number;
  sendAttempts: number;
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
  /** Each drawn fault, and whether it struck (and whom). */
  fired: { kind: FaultKind; actor: Actor; fired: boolean; by?: string }[];
  /** Some lead had a second SendEmail attempt (any outcome). */
  secondAttempt: boolean;
  /** The most actors that wrote or sent on one lead within one round. */
  racing: number;
  /** SES events Lambda would have dead-lettered (their lead not found after its retries): the dead-letter alarm fires. */
  deadLettered: number;
  /** The volume limits' reasons the handler held posts for the digest (its network's share used, the hour's cap reached). */
  heldBy?: string[];
  /** Each volume counter at the end: the slots it counts, and the distinct takes (ids) that took them. */
  counters: { key: string; count: number; takes: number }[];
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

/** One SES notification on its way: Lambda's asynchronous invocation runs it up to three times. */
interface Notice { body: string; tries: number }

/**
 * Runs one schedule: a post through the handler and two leads held for the digest, the actors in the
 * seed's order with its faults, then SES working until nothing is due. `pick` replaces the random
 * order (a named case's script).
 */
export async function runSchedule(backends: ModelBackends, schedule: Schedule, pick?: (waiting: readonly string[]) => number): Promise<ScheduleResult> {
  const order = random(schedule.seed);
  const first = schedule.first;
  const interleaver = new Interleaver(pick ?? ((waiting) => (first && waiting.includes(first) ? waiting.indexOf(first) : Math.floor(order() * waiting.length))));
  let notices: Notice[] = [];
  const lateNotices: Notice[] = [];
  const rejected = new Set<string>();
  let deadLettered = 0;
  /** The figures the mailer's runs logged (embedded metric format), as CloudWatch gets them. */
  const datapoints: Datapoint[] = [];
  const metricsLog = metricsLogger(datapoints);
  let round = 0;
  let clockAt = 0;
  const armed = schedule.faults.map((fault) => ({ ...fault, fired: false, anyone: false, by: undefined as string | undefined }));
  const done = new Set<string>();
  const strike = (category: FaultCategory, actor: string, nth: number): FaultKind | undefined => {
    const fault = armed.find((f) => !f.fired && FAULT_KINDS[f.kind] === category && ((f.actor === actor && nth >= f.nth) || (f.anyone && !(category === 'send' && actor === 'events'))));
    if (!fault) return undefined;
    fault.fired = true;
    fault.by = actor;
    return fault.kind;
  };
  const skewOf = (actor: string) => armed.find((f) => f.kind === 'clock-skew' && f.actor === actor)?.skew ?? 0;
  let lagging = false;
  const touched = new Map<string, Set<string>>();
  const attempts = new Map<string, number>();
  const wiring: Wiring = {
    interleaver,
    requests: new Map(),
    strike(category, actor, nth) {
      // The clock fault strikes its actor's first request of any kind.
      const clock = armed.find((f) => !f.fired && f.kind === 'clock-skew' && f.actor === actor);
      if (clock) { clock.fired = true; clock.by = actor; }
      return strike(category, actor, nth);
    },
    laggingIndex(actor) {
      if (!lagging && strike('query', actor, 1)) lagging = true;
      return lagging ? backends.laggingTable : undefined;
    },
    onTouch(actor, lead, kind) {
      const key = `${round} ${lead}`;
      touched.set(key, (touched.get(key) ?? new Set()).add(actor));
      if (kind === 'send') attempts.set(lead, (attempts.get(lead) ?? 0) + 1);
    },
    onSend(_actor, sendId, messageId, fault) {
      const reject = fault === 'ses-reject-event';
      if (reject) rejected.add(messageId);
      const mail = { timestamp: minutes(clockAt).toISOString(), messageId, tags: { send: [sendId] } };
      let events: Record<string, unknown>[] = reject
        ? [{ eventType: 'Send', mail, send: {} }, { eventType: 'Reject', mail, reject: { reason: 'Bad content' } }]
        : [{ eventType: 'Send', mail, send: {} }, { eventType: 'Delivery', mail, delivery: { timestamp: minutes(clockAt + 1).toISOString(), recipients: ['leads@example.co.uk'] } }];
      if (fault === 'events-dropped') return;
      if (fault === 'events-duplicated') events = [...events, ...events];
      if (fault === 'events-reordered') { events.reverse(); for (const event of events) notices.push({ body: JSON.stringify(event), tries: 0 }); return; }
      if (fault === 'events-late') { for (const event of events) lateNotices.push({ body: JSON.stringify(event), tries: 0 }); return; }
      // SNS keeps no order: either may come first, and after any other request.
      if (order() < 0.5) events.reverse();
      for (const event of events) notices.splice(Math.floor(order() * (notices.length + 1)), 0, { body: JSON.stringify(event), tries: 0 });
    },
  };

  const { table, setup } = backends;
  await clearStore(backends.ses);
  const setupStore = leadStore(setup, table);

  const tag = `S${schedule.seed}`;
  const names = { posted: `Posted ${tag}`, heldA: `Held A ${tag}`, heldB: `Held B ${tag}` };
  const payload = validContact({ submissionId: `0de10000-0000-4000-8000-${String(schedule.seed % 1e12).padStart(12, '0')}`, name: names.posted });
  const checked = validateContact(payload);
  if (!checked.ok) throw new Error('invalid fixture');
  const postedId = submissionKey(payload, { form: 'contact', data: checked.data }, minutes(0));
  /** Later visitors' posts, one for each fault still waiting for something to strike. */
  const nextPosts = [1, 2].map((n) => {
    const name = `Next ${'AB'[n - 1]} ${tag}`;
    const body = validContact({ submissionId: `0de${n}0000-0000-4000-8000-${String(schedule.seed % 1e12).padStart(12, '0')}`, name, email: `next-${n}-${schedule.seed}@example.org` });
    const valid = validateContact(body);
    if (!valid.ok) throw new Error('invalid fixture');
    return { name, payload: body, id: submissionKey(body, { form: 'contact', data: valid.data }, minutes(0)) };
  });
  const posted: typeof nextPosts = [];
  const held: LeadRecord[] = [];
  for (const name of [names.heldA, names.heldB]) {
    const lead = validateContact(validContact({ name }));
    if (!lead.ok) throw new Error('invalid fixture');
    const record = newLead({ form: 'contact', data: lead.data }, { submissionId: `held-${name.replace(/\W/g, '')}`, receivedAt: minutes(-1), source: 'https://www.example.co.uk/contact', retentionMonths: 24, held: true });
    await setupStore.putNew(record);
    held.push(record);
  }
  let damagedId: string | undefined;
  if (armed.some((f) => f.kind === 'damaged-record')) {
    damagedId = `damaged-${tag}`;
    await setupStore.putRaw({ ...held[0]!, submissionId: damagedId, receivedAt: 'yesterday', name: `Damaged ${tag}`, mail: { state: 'pending', attempts: 0 } });
  }
  const ids = [postedId, ...nextPosts.map((n) => n.id), ...held.map((h) => h.submissionId), ...(damagedId ? [damagedId] : [])];
  const lagStore = leadStore(setup, backends.laggingTable);
  /** The lagging copy catches up with the table (at each round's start): the index as it stood then. */
  const catchUp = async () => {
    if (!armed.some((f) => f.kind === 'index-lags')) return;
    for (const id of ids) {
      const item = await setupStore.get(id);
      if (item) await lagStore.putRaw(item);
      else await setup.send(new DeleteItemCommand({ TableName: backends.laggingTable, Key: { submissionId: { S: id } } }));
    }
  };

  const storeOf = (actor: string): LeadStore => leadStore(backends.slot(actor, wiring).dynamo, table);
  /** An actor's volume limits (its counters through its own gate), when the schedule has them. */
  const limitsOf = (actor: string): VolumeLimits | undefined => (schedule.volume ? { counter: limitCounter(backends.slot(actor, wiring).limits, backends.limitsTable), mailsPerHour: MODEL_MAILS_PER_HOUR } : undefined);
  // Where the hour stands at the post: the slots others took a minute before, through the limits' own calls.
  if (schedule.volume && schedule.volume !== 'room') {
    const before: VolumeLimits = { counter: limitCounter(setup, backends.limitsTable), mailsPerHour: MODEL_MAILS_PER_HOUR };
    const network = clientAddress(jsonPost(payload), false).network;
    if (schedule.volume === 'network-share-used') for (let n = 0; n < networkMailsPerHour(MODEL_MAILS_PER_HOUR); n += 1) await networkMayMail(before, network, minutes(-1), silentLogger);
    else for (let n = 0; n < MODEL_MAILS_PER_HOUR; n += 1) await mayMailNow(before, minutes(-1), silentLogger);
  }
  /** Why the handler held a post for the digest (a limit's reason), if it did. */
  const heldBy = new Set<string>();
  const handlerLog = (entry: LogEntry) => { if (typeof entry.reason === 'string' && entry.reason.startsWith('held-')) heldBy.add(entry.reason); };
  const sesOf = (actor: string) => backends.slot(actor, wiring).ses;
  const at = (actor: string, base: number) => () => minutes(base + skewOf(actor));
  const mailerOf = (actor: string, base: number) => ({ ses: sesOf(actor), store: storeOf(actor), mailTo: CONFIG.mailTo, mailFrom: CONFIG.mailFrom, now: at(actor, base) });
  const events = deliveryStore(backends.slot('events', wiring).dynamo, table);
  /** The event whose run is under way, and where its retry goes: a run stopped at Lambda's timeout never ends. */
  let inFlight: { notice: Notice; retries: Notice[] } | undefined;
  /** One SES event as Lambda runs it: a failure (an error, or the run stopped at its timeout) is run again (twice), then dead-lettered. */
  const playEvent = async (notice: Notice, base: number, retries: Notice[]) => {
    inFlight = { notice, retries };
    try {
      await recordSesNotification(notice.body, { store: events, log: silentLogger, now: at('events', base) });
    } catch {
      if (notice.tries < 2) retries.push({ ...notice, tries: notice.tries + 1 });
      else deadLettered += 1;
    }
    inFlight = undefined;
  };
  /** Events the rounds' events actor is to run again, queued once its round is over. */
  const roundRetries: Notice[] = [];

  const errors: Record<string, string> = {};
  /** What a drive left: the actors' errors, and an event whose run was stopped (killed), which Lambda runs again as a failure. */
  const note = (found: Record<string, unknown>) => {
    for (const [actor, error] of Object.entries(found)) errors[actor] = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (inFlight) {
      const { notice, retries } = inFlight;
      inFlight = undefined;
      if (notice.tries < 2) retries.push({ ...notice, tries: notice.tries + 1 });
      else deadLettered += 1;
    }
    notices.push(...roundRetries.splice(0));
  };
  const later = schedule.later;
  /** An actor's body; once it is done, a fault still aimed at it strikes anyone's next request of its kind. */
  const actor = (name: string, body: () => Promise<unknown>) => async () => {
    try { await body(); } finally {
      done.add(name);
      for (const fault of armed) if (fault.actor === name && !fault.fired) fault.anyone = true;
    }
  };
  /** SES's events, as they arrive between the others' requests. */
  const eventsActor = (base: number) => actor('events', async () => {
    for (let turn = 0; turn < 8; turn += 1) {
      await interleaver.gate('events');
      const notice = notices.shift();
      if (notice) await playEvent(notice, base, roundRetries);
    }
  });
  try {
    const post = (name: string, body: typeof payload, base: number) => actor('handler', async () => {
      const handler = createHandler({ ses: sesOf('handler'), leads: storeOf('handler'), limits: limitsOf('handler'), config: CONFIG, now: at('handler', base), log: handlerLog });
      const context = { getRemainingTimeInMillis: () => (schedule.handlerShortOfTime ? 4000 : 14_000) };
      let answer = await handler(jsonPost(body), context);
      // The store failed as far as the handler could tell (the SDK gave up on its put): the visitor
      // is asked to send again, and does, once for each fault that struck the handler's writes (two
      // may strike a put each, the post's and the visitor's second).
      for (let sent = 1; answer.statusCode === 503 && sent <= armed.filter((f) => f.by === 'handler' && FAULT_KINDS[f.kind] === 'write').length; sent += 1) answer = await handler(jsonPost(body), context);
      if (answer.statusCode !== 200) throw new Error(`${name}: the handler answered ${answer.statusCode}`);
    });
    const owner = (base: number) => actor('resendUnsent', () => resendLeads(mailerOf('resendUnsent', base), { now: true, log: silentLogger }));
    round = 1; clockAt = 0;
    await catchUp();
    note(await interleaver.drive({
      handler: post(names.posted, payload, 0),
      ...(schedule.ownerEarly ? { resendUnsent: owner(1) } : {}),
      events: eventsActor(1),
    }));
    round = 2; clockAt = later;
    await catchUp();
    note(await interleaver.drive({
      mailer1: actor('mailer1', () => createResendJob({ ses: sesOf('mailer1'), leads: storeOf('mailer1'), limits: limitsOf('mailer1'), config: CONFIG, log: metricsLog, now: at('mailer1', later) })()),
      mailer2: actor('mailer2', () => createResendJob({ ses: sesOf('mailer2'), leads: storeOf('mailer2'), limits: limitsOf('mailer2'), config: CONFIG, log: metricsLog, now: at('mailer2', later) })()),
      resendId: actor('resendId', () => resendLeads(mailerOf('resendId', later), { ids: [postedId], now: true, log: silentLogger })),
      resendAgain: actor('resendAgain', () => resendLeads(mailerOf('resendAgain', later), { now: true, log: silentLogger })),
      ...(schedule.ownerEarly ? {} : { resendUnsent: owner(later) }),
      events: eventsActor(later),
    }));
    // A fault that found nothing to strike yet (its actor had nothing left to do) strikes the next
    // visitor's post: another lead, a little later, with the owner's resend racing its handler.
    for (const fault of armed) fault.anyone = true;
    for (const [index, next] of nextPosts.entries()) {
      if (!armed.some((f) => !f.fired && f.kind !== 'damaged-record')) break;
      round += 1; clockAt = later + 1 + index;
      posted.push(next);
      await catchUp();
      note(await interleaver.drive({ handler: post(next.name, next.payload, clockAt), resendUnsent: owner(clockAt), events: eventsActor(clockAt) }));
    }

    // SES works from here, but a fault that has not struck yet still may: its events arrive (the late
    // ones after the first run), and the mailer runs every few minutes until nothing is due.
    const settling = mailerOf('mailer', 0);
    let last: ResendReport | undefined;
    // Runs far enough apart to pass a backoff or the quiet period after a send that may have gone.
    const runs = [5, 10, 40, 75, 110, 170, 300].map((m) => later + m);
    for (const [index, when] of runs.entries()) {
      round += 1; clockAt = when;
      await catchUp();
      const retries: Notice[] = [];
      for (const notice of notices.splice(0)) note(await interleaver.drive({ events: () => playEvent(notice, when - 1, retries) }));
      notices = retries;
      // Minutes pass between the events and the run: a lagging index has caught up with them.
      await catchUp();
      note(await interleaver.drive({ mailer: async () => { last = await createResendJob({ ses: settling.ses, leads: settling.store, limits: limitsOf('mailer'), config: CONFIG, log: metricsLog, now: () => minutes(when) })(); } }));
      if (index === 0) notices.push(...lateNotices.splice(0));
      // Nothing failed in this run, and nothing left but what waits for the owner (set aside, or two sends that may have gone).
      if ((index > 0 || lateNotices.length === 0) && last && notices.length === 0 && last.failed.length === 0 && last.unanswered.length === 0 && last.errors.length === 0
        && last.waiting === last.setAside.length + last.uncertain.filter((u) => !u.from).length) break;
    }
    // What Lambda still holds is run out: its retries, then the dead letters.
    for (let tries = 0; tries < 3 && notices.length; tries += 1) {
      const retries: Notice[] = [];
      for (const notice of notices.splice(0)) note(await interleaver.drive({ events: () => playEvent(notice, clockAt + 1, retries) }));
      notices = retries;
    }

    const emails = await storedEmails(backends.ses);
    // The stack's alarms, evaluated as CloudWatch does at the last run: the queue of dead letters holds what Lambda gave up on.
    const endAt = minutes(clockAt).getTime();
    datapoints.push({ ...QUEUE_DEPTH, at: endAt, value: deadLettered });
    const firing = (namespace: string, metric: string) => alarmOn(backends.alarms, namespace, metric, datapoints, endAt);
    const [setAsideAlarm, unsentAlarm, deadLettersAlarm] = [firing(METRIC_NAMESPACE, METRICS.setAside), firing(METRIC_NAMESPACE, METRICS.stuck), firing(QUEUE_DEPTH.namespace, QUEUE_DEPTH.name)];
    const leads: LeadOutcome[] = [];
    for (const [name, id] of [[names.posted, postedId], [names.heldA, held[0]!.submissionId], [names.heldB, held[1]!.submissionId], ...posted.map((n) => [n.name, n.id] as const)] as const) {
      const record = await setupStore.get(id);
      // Alarmed as the stack's own alarms judge it, from what was logged: the set-aside alarm naming
      // it, the unsent alarm while it is left to the owner, or the dead letters' alarm.
      const alarmed = deadLettersAlarm
        || Boolean(last && ((setAsideAlarm && last.setAside.some((s) => s.submissionId === id)) || (unsentAlarm && last.uncertain.some((u) => u.submissionId === id && !u.from))));
      leads.push({ name, submissionId: id, ...copiesOf(name, emails, rejected), state: record?.mail.state, alarmed, recordedAttempts: record?.mail.attempts ?? 0, sendAttempts: attempts.get(name) ?? 0 });
    }
    const racing = Math.max(0, ...[...touched.values()].map((actors) => actors.size));
    const { Items: counted = [] } = await setup.send(new ScanCommand({ TableName: backends.limitsTable, ConsistentRead: true }));
    const counters = counted.map((item) => ({ key: item[LIMIT_KEY]?.S ?? '', count: Number(item.count?.N ?? 0), takes: item.tokens?.SS?.length ?? 0 }));
    const damagedSetAside = damagedId ? Boolean(last?.setAside.some((s) => s.submissionId === damagedId)) && copiesOf(`Damaged ${tag}`, emails, rejected).copies === 0 : undefined;
    for (const fault of armed) if (fault.kind === 'damaged-record' && damagedSetAside) { fault.fired = true; fault.by = 'mailer'; }
    return {
      schedule,
      leads,
      ...(damagedSetAside === undefined ? {} : { damagedSetAside }),
      errors,
      trace: interleaver.trace,
      requests: [...wiring.requests.values()].reduce((a, b) => a + b, 0),
      fired: armed.map((f) => ({ kind: f.kind, actor: f.actor, fired: f.fired, ...(f.by ? { by: f.by } : {}) })),
      secondAttempt: [...attempts.values()].some((n) => n >= 2),
      racing,
      deadLettered,
      ...(heldBy.size ? { heldBy: [...heldBy].sort() } : {}),
      counters,
    };
  } finally {
    // Its leads leave the shared tables: the next schedule's mailers read none of them, and a long
    // sweep's tables (in memory) stay the size of one schedule.
    const gone = ids.map((id) => ({ DeleteRequest: { Key: { submissionId: { S: id } } } }));
    let deletes: Record<string, typeof gone> = { [table]: gone, ...(armed.some((f) => f.kind === 'index-lags') ? { [backends.laggingTable]: gone } : {}) };
    while (Object.keys(deletes).length) deletes = ((await setup.send(new BatchWriteItemCommand({ RequestItems: deletes }))).UnprocessedItems ?? {}) as typeof deletes;
    // The counters go too: the next schedule's hour starts where its own draw puts it.
    if (schedule.volume) {
      const { Items = [] } = await setup.send(new ScanCommand({ TableName: backends.limitsTable, ProjectionExpression: '#key', ExpressionAttributeNames: { '#key': LIMIT_KEY } }));
      for (let i = 0; i < Items.length; i += 25) await setup.send(new BatchWriteItemCommand({ RequestItems: { [backends.limitsTable]: Items.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })) } }));
    }
    backends.release();
  }
}

/** The invariants, as sentences naming what broke (none when the schedule kept them). */
export function brokenInvariants(result: ScheduleResult): string[] {
  const broken: string[] = [];
  const kinds = result.schedule.faults.filter((f) => f.kind !== 'damaged-record' && f.kind !== 'clock-skew');
  const single = kinds.length <= 1;
  for (const lead of result.leads) {
    if (lead.copies === 0 && !lead.alarmed) broken.push(`${lead.name} never reached the inbox, and nothing alarms (state ${lead.state})`);
    if (lead.copies === 0 && lead.alarmed && single) broken.push(`${lead.name} was left to the owner under a single fault`);
    if (lead.unmarked > 1) broken.push(`${lead.name} reached the inbox ${lead.unmarked} times without the "may already have arrived" marker`);
    if (lead.copies > 1 + kinds.length) broken.push(`${lead.name} reached the inbox ${lead.copies} times under ${kinds.length} fault(s)`);
    if (kinds.length === 0 && lead.copies > 1) broken.push(`${lead.name} reached the inbox ${lead.copies} times with no fault that could cause it`);
    if (lead.state === 'pending' && !lead.alarmed && lead.copies === 0) broken.push(`${lead.name} stays unsent without an alarm`);
    // A write the SDK sent again is applied once: the record counts no attempt that was not made.
    if (lead.recordedAttempts > lead.sendAttempts) broken.push(`${lead.name}'s record counts ${lead.recordedAttempts} send attempts, but ${lead.sendAttempts} were made`);
  }
  // A take the SDK sent again counts once: each counter counts as many slots as distinct takes took.
  for (const counter of result.counters) if (counter.count !== counter.takes) broken.push(`the volume counter ${counter.key} counts ${counter.count} slots for ${counter.takes} takes`);
  if (result.damagedSetAside === false) broken.push('the damaged record was not set aside and named (or was mailed)');
  for (const [actor, error] of Object.entries(result.errors)) broken.push(`${actor} threw ${error}`);
  return broken;
}

/** What a set of schedules exercised: per fault kind, drawn and fired; second attempts; races of three or more. */
export interface Exercised {
  schedules: number;
  byKind: Record<string, { drawn: number; fired: number; actors: string[] }>;
  secondAttempt: number;
  racing3: number;
  deadLettered: number;
  /** Schedules by where the hour stood at the post, and schedules whose handler held a post by each limit. */
  volume: Record<string, number>;
  heldBy: Record<string, number>;
}

export function exercised(results: readonly ScheduleResult[]): Exercised {
  const byKind: Exercised['byKind'] = Object.fromEntries(FAULTS.map((kind) => [kind, { drawn: 0, fired: 0, actors: [] as string[] }]));
  for (const result of results) {
    for (const fault of result.fired) {
      const entry = byKind[fault.kind]!;
      entry.drawn += 1;
      if (fault.fired) { entry.fired += 1; if (fault.by && !entry.actors.includes(fault.by)) entry.actors.push(fault.by); }
    }
  }
  for (const entry of Object.values(byKind)) entry.actors.sort();
  return {
    schedules: results.length,
    byKind,
    secondAttempt: results.filter((r) => r.secondAttempt).length,
    racing3: results.filter((r) => r.racing >= 3).length,
    deadLettered: results.filter((r) => r.deadLettered > 0).length,
    volume: Object.fromEntries(VOLUME_STATES.map((state) => [state, results.filter((r) => r.schedule.volume === state).length])),
    heldBy: Object.fromEntries(HELD_BY_LIMIT.map((reason) => [reason, results.filter((r) => r.heldBy?.includes(reason)).length])),
  };
}

/** The figures of several sweeps taken as one: of seed ranges run apart, say (every figure is a count). */
export function combined(parts: readonly Exercised[]): Exercised {
  const total: Exercised = { schedules: 0, byKind: {}, secondAttempt: 0, racing3: 0, deadLettered: 0, volume: {}, heldBy: {} };
  const add = (into: Record<string, number>, from: Record<string, number>) => { for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n; };
  for (const part of parts) {
    total.schedules += part.schedules;
    total.secondAttempt += part.secondAttempt;
    total.racing3 += part.racing3;
    total.deadLettered += part.deadLettered;
    add(total.volume, part.volume);
    add(total.heldBy, part.heldBy);
    for (const [kind, { drawn, fired, actors }] of Object.entries(part.byKind)) {
      const entry = (total.byKind[kind] ??= { drawn: 0, fired: 0, actors: [] });
      entry.drawn += drawn;
      entry.fired += fired;
      entry.actors = [...new Set([...entry.actors, ...actors])].sort();
    }
  }
  return total;
}

/** The handler's reasons for holding a post that the volume limits give. */
const HELD_BY_LIMIT = ['held-network-share', 'held-for-digest'] as const;

/** What falls short of the model's own bar: each kind fires at least 95% of the times it is drawn; 10% second attempts; 20% races of three; 10% with a post held by each volume limit. */
export function shortfalls(figures: Exercised): string[] {
  const short: string[] = [];
  for (const [kind, { drawn, fired }] of Object.entries(figures.byKind)) {
    if (drawn === 0) short.push(`${kind} was never drawn`);
    else if (fired / drawn < 0.95) short.push(`${kind} fired ${fired} of ${drawn} times drawn`);
  }
  if (figures.secondAttempt < figures.schedules * 0.1) short.push(`only ${figures.secondAttempt} of ${figures.schedules} schedules made a second send attempt`);
  if (figures.racing3 < figures.schedules * 0.2) short.push(`only ${figures.racing3} of ${figures.schedules} schedules had three actors racing on one lead`);
  for (const [reason, count] of Object.entries(figures.heldBy)) if (count < figures.schedules * 0.1) short.push(`only ${count} of ${figures.schedules} schedules had the handler hold a post by ${reason}`);
  return short;
}
