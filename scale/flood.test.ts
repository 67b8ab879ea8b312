// A flood of 100,000 likely-spam leads pending (a script rotating the /64s of one /48, every post
// past its limit, one a second over the hours before now), in dynalite, and with it five IPv4 /24s
// posting their share of the hour's e-mails just before and just after every hour boundary of the
// flood's span, through the real handler and its volume limits (the local limits table): past the
// networks' shares and the hour's cap those are held for the digest, unflagged. The mailer runs
// (in this process) five minutes after each boundary but the last; the last boundary's held leads
// are still pending when a real visitor's lead is held for the digest. The retry mailer's own bundle
// (`npm run build:lambda`'s index.mjs, its `resend` export, as Lambda runs it) runs in a process of
// its own: its first run after the real lead's grace period mails it, after the real leads held
// before it and before every likely-spam lead. Each run's peak resident memory is asserted within
// the mailer's 256 MB; its duration is printed (the 60 s Lambda timeout), not asserted. `npm test`
// runs the 2,000-lead sample (tests/lambda/flood.test.ts) and the /24s at an hour's edge
// (tests/lambda/volume.test.ts). FLOOD_LEADS sets the flood's size.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLambda } from '../lambda/bundle-lambda.ts';
import { createHandler } from '../lambda/create-handler.ts';
import { startLocalStore, type LocalStore } from '../lambda/leads/local-store.ts';
import { createResendJob } from '../lambda/leads/resend-job.ts';
import { HANDLER_GRACE_MS } from '../lambda/leads/resend.ts';
import { leadStore } from '../lambda/leads/store.ts';
import { limitCounter } from '../lambda/limits/counter.ts';
import { MAILER_EVERY_MINUTES, networkMailsPerHour, VOLUME_LIMITS } from '../lambda/limits/settings.ts';
import { LIMITS_TABLE_ENV } from '../lambda/limits/table.ts';
import { startLocalSes, type LocalSes } from '../lambda/local-ses.ts';
import { heldLead, storeFlood } from '../tests/lambda/flood.ts';
import { jsonPost, memoryLogger, ORIGIN_SECRET, sesClientFor, storedEmails, testConfig, validContact, viaCloudFront } from '../tests/lambda/support.ts';

const FLOOD = Number(process.env.FLOOD_LEADS ?? 100_000);
const MAILER_MEMORY_MB = 256;
const HOUR = 60 * 60 * 1000;
/** Five networks, each posting its share of the hour's e-mails: together the hour's whole cap. */
const NETWORKS = 5;

let local: LocalStore;
let ses: LocalSes;
let work: string;
let bundle: string;
/** Hour boundaries inside the flood's span, and what their bursts came to. */
const boundaries: { at: string; posted: number; held: number; drainedFirst?: boolean }[] = [];
let realAt: Date;
let floodFrom: Date;

beforeAll(async () => {
  local = await startLocalStore();
  ses = await startLocalSes();
  work = await mkdtemp(path.join(tmpdir(), 'flood-'));
  bundle = (await buildLambda({ outDir: path.join(work, 'lambda'), cmsAuthDir: path.join(work, 'cms-auth') })).bundlePath;
  const started = performance.now();
  // The flood arrived over the hours before now, one a second, the newest a few minutes ago.
  floodFrom = new Date(Date.now() - (FLOOD + 300) * 1000);
  await storeFlood(local.client(), local.table, FLOOD, floodFrom);
  console.log(`stored ${FLOOD} flood leads in ${Math.round((performance.now() - started) / 1000)} s`);
});
afterAll(async () => { await ses?.close(); await local?.close(); if (work) await rm(work, { recursive: true, force: true }); });

/**
 * The bursts: at every hour boundary of the flood's span before the real lead, five /24s post their
 * share through the handler and its limits, and the mailer runs five minutes on (but after the
 * last); then the real visitor's lead, held. Minutes of work at 100,000: a test's time, not a hook's.
 */
async function burstsAtEveryBoundary(floodFrom: Date): Promise<void> {
  const started = performance.now();
  // The real visitor's lead arrives two and a half minutes before the mailer's run; every boundary
  // before it gets its bursts.
  realAt = new Date(Date.now() - 150_000);
  const client = local.client();
  const leads = leadStore(client, local.table);
  const limits = { counter: limitCounter(client, local.limitsTable), mailsPerHour: VOLUME_LIMITS.mailsPerHour.max };
  // SES's answers are waited for, however busy the machine: a send that merely waited would otherwise read as one that did not go.
  const mail = sesClientFor(ses.endpoint, { connectionTimeoutMs: 120_000, requestTimeoutMs: 120_000 });
  const config = testConfig({ originSecret: ORIGIN_SECRET, leadsTable: local.table });
  const share = networkMailsPerHour(VOLUME_LIMITS.mailsPerHour.max);
  let clock = floodFrom;
  let posts = 0;
  const log = memoryLogger();
  const handler = createHandler({ ses: mail, leads, limits, config, now: () => clock, log });
  const hours = [];
  for (let hour = Math.ceil(floodFrom.getTime() / HOUR) * HOUR; hour + 1000 < realAt.getTime(); hour += HOUR) hours.push(hour);
  for (const [index, hour] of hours.entries()) {
    const heldBefore = log.entries.filter((e) => String(e.reason).startsWith('held-')).length;
    // Each /24 posts its share from addresses of its own (within every per-address limit) a second before the hour, and again a second after.
    for (const [side, at] of [[0, hour - 1000], [1, hour + 1000]] as const) {
      clock = new Date(at);
      for (let net = 0; net < NETWORKS; net += 1) {
        for (let i = 0; i < share; i += 1) {
          posts += 1;
          const body = validContact({ submissionId: `b0240000-0000-4000-8000-${String(posts).padStart(12, '0')}`, email: `burst${posts}@example.org`, name: `Burst ${posts}` });
          const answer = await handler(viaCloudFront(jsonPost(body), `198.51.${100 + net}.${side * 10 + i + 1}:1000`));
          if (answer.statusCode !== 200) throw new Error(`a burst post was answered ${answer.statusCode}`);
        }
      }
    }
    const held = log.entries.filter((e) => String(e.reason).startsWith('held-')).length - heldBefore;
    const entry: (typeof boundaries)[number] = { at: new Date(hour).toISOString(), posted: 2 * NETWORKS * share, held };
    // The mailer's run five minutes on (each boundary but the last): the hour's held real leads go first, before any likely spam.
    if (index < hours.length - 1) {
      const report = await createResendJob({ ses: mail, leads, limits, config, log: memoryLogger(), now: () => new Date(hour + MAILER_EVERY_MINUTES * 60_000) })();
      const firstFlood = report.digested.findIndex((id) => id.startsWith('flood-'));
      entry.drainedFirst = firstFlood === held;
    }
    boundaries.push(entry);
  }
  // Held for the digest whatever the hour's count stands at (the worst case: a lead mailed by the handler waits for nothing).
  await leads.putNew(heldLead('real-lead', 'Real Visitor', realAt));
  client.destroy();
  console.log(JSON.stringify({ boundaries: boundaries.length, posted: posts, heldAtBoundaries: boundaries.map((b) => b.held), seconds: Math.round((performance.now() - started) / 1000) }));
}

/** One run of the mailer's bundle in a process of its own, as Lambda runs it: what it digested, in order, its peak memory and duration. */
async function mailerRun(): Promise<{ digested: string[]; waiting: number; unread: boolean; maxRssMb: number; seconds: number }> {
  // Peak memory is sampled every 10 ms: getrusage's maxRSS would carry the parent's (it survives the exec).
  const script = `let peak = process.memoryUsage().rss; const sample = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
const m = await import(${JSON.stringify(bundle)}); const t = performance.now(); const r = await m.resend();
clearInterval(sample); peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ result: { digested: r.digested, waiting: r.waiting, unread: Boolean(r.unread), maxRssMb: Math.round(peak / 1048576), seconds: (performance.now() - t) / 1000 } }));`;
  const env = {
    PATH: process.env.PATH, AWS_REGION: 'eu-west-2', MAIL_TO: 'leads@example.co.uk', MAIL_FROM: 'web@example.co.uk', ALLOWED_ORIGINS: 'https://www.example.co.uk',
    LEADS_TABLE: local.table, [LIMITS_TABLE_ENV]: local.limitsTable, DYNAMODB_ENDPOINT: local.endpoint, SES_ENDPOINT: ses.endpoint,
  };
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { env, maxBuffer: 64 * 1024 * 1024 });
  const line = stdout.trim().split('\n').reverse().find((l) => l.startsWith('{"result"'))!;
  return (JSON.parse(line) as { result: Awaited<ReturnType<typeof mailerRun>> }).result;
}

describe(`a flood of ${FLOOD} likely-spam leads, and five /24s at every hour boundary`, () => {
  it("delays a real lead to the mailer's first run after its grace period, within 256 MB", async () => {
    await burstsAtEveryBoundary(floodFrom);
    // Every boundary's held leads went out in the run after it, ahead of the likely spam.
    expect(boundaries.filter((b) => b.drainedFirst === false)).toEqual([]);
    const run = await mailerRun();
    const real = run.digested.indexOf('real-lead');
    const firstFlood = run.digested.findIndex((id) => id.startsWith('flood-'));
    console.log(JSON.stringify({ flood: FLOOD, firstRun: { ...run, digested: run.digested.length, realLeadAt: real + 1, firstFloodAt: firstFlood + 1 } }));
    // Mailed in the first run after it could be: after the real leads held before it (the last boundary's bursts), before any likely spam.
    expect(real).toBeGreaterThanOrEqual(0);
    expect(run.digested.slice(0, real).every((id) => !id.startsWith('flood-'))).toBe(true);
    expect(firstFlood).toBeGreaterThan(real);
    const digest = (await storedEmails(ses)).map((email) => email.body.text ?? '').find((text) => text.includes('Name: Real Visitor'));
    expect(digest).toMatch(/^\d+\. Contact[^\n]*: Real Visitor$/m);
    // The first run after its grace period: the schedule's runs are five minutes apart, so a held real lead waits at most grace plus one interval, within ten minutes.
    expect(HANDLER_GRACE_MS + MAILER_EVERY_MINUTES * 60_000).toBeLessThanOrEqual(10 * 60_000);
    expect(run.maxRssMb).toBeLessThan(MAILER_MEMORY_MB);
    expect(run.unread).toBe(true);
    // The runs after it: the flood drains, 250 a run, and no run holds more.
    const next = await mailerRun();
    console.log(JSON.stringify({ secondRun: { ...next, digested: next.digested.length } }));
    expect(next.maxRssMb).toBeLessThan(MAILER_MEMORY_MB);
  });
});
