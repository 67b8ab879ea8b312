// A flood of 100,000 likely-spam leads pending (a script rotating the /64s of one /48, every post
// past its limit), in dynalite, and a real lead held for the digest: the retry mailer's own bundle
// (`npm run build:lambda`'s index.mjs, its `resend` export, as Lambda runs it) runs in a process of
// its own, and its first run after the real lead's grace period mails it, first of its first
// digest. Each run's peak resident memory is asserted within the mailer's 256 MB; its duration is
// printed (the 60 s Lambda timeout), not asserted. `npm test` runs the 2,000-lead sample
// (tests/lambda/flood.test.ts). FLOOD_LEADS sets the flood's size.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLambda } from '../lambda/bundle-lambda.ts';
import { startLocalStore, type LocalStore } from '../lambda/leads/local-store.ts';
import { leadStore } from '../lambda/leads/store.ts';
import { LIMITS_TABLE_ENV } from '../lambda/limits/table.ts';
import { startLocalSes, type LocalSes } from '../lambda/local-ses.ts';
import { heldLead, storeFlood } from '../tests/lambda/flood.ts';
import { storedEmails } from '../tests/lambda/support.ts';

const FLOOD = Number(process.env.FLOOD_LEADS ?? 100_000);
const MAILER_MEMORY_MB = 256;

let local: LocalStore;
let ses: LocalSes;
let work: string;
let bundle: string;

beforeAll(async () => {
  local = await startLocalStore();
  ses = await startLocalSes();
  work = await mkdtemp(path.join(tmpdir(), 'flood-'));
  bundle = (await buildLambda({ outDir: path.join(work, 'lambda'), cmsAuthDir: path.join(work, 'cms-auth') })).bundlePath;
  const started = performance.now();
  // The flood arrived over the hours before now, one a second, the newest a few minutes ago.
  await storeFlood(local.client(), local.table, FLOOD, new Date(Date.now() - (FLOOD + 300) * 1000));
  console.log(`stored ${FLOOD} flood leads in ${Math.round((performance.now() - started) / 1000)} s`);
});
afterAll(async () => { await ses?.close(); await local?.close(); if (work) await rm(work, { recursive: true, force: true }); });

/** One run of the mailer's bundle in a process of its own, as Lambda runs it: its report's figures, peak memory and duration. */
async function mailerRun(): Promise<{ digested: number; waiting: number; unread: boolean; maxRssMb: number; seconds: number }> {
  // Peak memory is sampled every 10 ms: getrusage's maxRSS would carry the parent's (it survives the exec).
  const script = `let peak = process.memoryUsage().rss; const sample = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
const m = await import(${JSON.stringify(bundle)}); const t = performance.now(); const r = await m.resend();
clearInterval(sample); peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ result: { digested: r.digested.length, waiting: r.waiting, unread: Boolean(r.unread), maxRssMb: Math.round(peak / 1048576), seconds: (performance.now() - t) / 1000 } }));`;
  const env = {
    PATH: process.env.PATH, AWS_REGION: 'eu-west-2', MAIL_TO: 'leads@example.co.uk', MAIL_FROM: 'web@example.co.uk', ALLOWED_ORIGINS: 'https://www.example.co.uk',
    LEADS_TABLE: local.table, [LIMITS_TABLE_ENV]: local.limitsTable, DYNAMODB_ENDPOINT: local.endpoint, SES_ENDPOINT: ses.endpoint,
  };
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { env, maxBuffer: 64 * 1024 * 1024 });
  const line = stdout.trim().split('\n').reverse().find((l) => l.startsWith('{"result"'))!;
  return (JSON.parse(line) as { result: Awaited<ReturnType<typeof mailerRun>> }).result;
}

describe(`a flood of ${FLOOD} likely-spam leads`, () => {
  it("delays a real lead to the mailer's first run after its grace period, within 256 MB", async () => {
    // Held for the digest (the hour's cap filled by the flood's first posts), past its 2-minute grace.
    await leadStore(local.client(), local.table).putNew(heldLead('real-lead', 'Real Visitor', new Date(Date.now() - 150_000)));
    const run = await mailerRun();
    console.log(JSON.stringify({ flood: FLOOD, firstRun: run }));
    const digest = (await storedEmails(ses)).map((email) => email.body.text ?? '').find((text) => text.includes('Name: Real Visitor'));
    expect(digest).toMatch(/^1\. Contact[^\n]*: Real Visitor$/m);
    expect(run.maxRssMb).toBeLessThan(MAILER_MEMORY_MB);
    expect(run.unread).toBe(true);
    // The runs after it: the flood drains, 250 a run, and no run holds more.
    const next = await mailerRun();
    console.log(JSON.stringify({ secondRun: next }));
    expect(next.maxRssMb).toBeLessThan(MAILER_MEMORY_MB);
  });
});
