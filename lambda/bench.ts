// Latency of a valid contact post, end to end on loopback: fetch → node:http → node adapter →
// handler → SES SDK → aws-ses-v2-local, one request at a time (so each figure is the latency of
// a request alone, not under load). Run: npx tsx lambda/bench.ts [requests=1000]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHandler } from './create-handler.ts';
import { startLocalStore } from './leads/local-store.ts';
import { leadStore } from './leads/store.ts';
import type { HttpHandler } from './event.ts';
import { startLocalSes } from './local-ses.ts';
import { silentLogger } from './log.ts';
import { nodeListener } from './node-adapter.ts';
import { createSesClient, LOCAL_CREDENTIALS } from './ses-client.ts';

const ORIGIN = 'http://127.0.0.1';
const WARM_UP = 50;

function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

function summary(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  return `${label.padEnd(22)} median ${ms(percentile(sorted, 50))}  p90 ${ms(percentile(sorted, 90))}  p99 ${ms(percentile(sorted, 99))}  max ${ms(sorted.at(-1) ?? Number.NaN)}`;
}

async function main(requests: number): Promise<void> {
  const ses = await startLocalSes();
  const store = await startLocalStore();
  const inner = createHandler({
    leads: leadStore(store.client(), store.table),
    ses: createSesClient({ region: 'eu-west-2', endpoint: ses.endpoint, credentials: LOCAL_CREDENTIALS }),
    config: { mailTo: 'leads@example.co.uk', mailFrom: 'website@example.co.uk', allowedOrigins: [ORIGIN], region: 'eu-west-2', leadsTable: store.table, limitsTable: store.limitsTable, mailsPerHour: 30, retentionMonths: 24 },
    log: silentLogger,
  });
  const handlerTimes: number[] = [];
  const timed: HttpHandler = async (event) => {
    const started = performance.now();
    const result = await inner(event);
    handlerTimes.push(performance.now() - started);
    return result;
  };
  const server = createServer(nodeListener(timed));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/send-contact-form`;

  // Each post a new lead (its own submissionId), so each is stored and mailed, not answered as a duplicate.
  const fields = {
    name: 'Morag Campbell',
    email: 'morag@example.co.uk',
    company: 'Tayside Widgets Ltd',
    message: 'We have five spreadsheets that disagree. Can you help?',
    isHuman: true,
  };
  let sequence = 0;
  const post = async (): Promise<number> => {
    sequence += 1;
    const body = JSON.stringify({ ...fields, submissionId: `bench-0000-4000-8000-${String(sequence).padStart(12, '0')}` });
    const started = performance.now();
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN }, body });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`Expected 200, got ${response.status}`);
    return performance.now() - started;
  };

  for (let i = 0; i < WARM_UP; i += 1) await post();
  handlerTimes.length = 0;
  const endToEnd: number[] = [];
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < requests; i += 1) endToEnd.push(await post());
  const cpu = process.cpuUsage(cpuBefore);
  const seconds = (performance.now() - started) / 1000;

  const stored = ((await (await fetch(ses.storeUrl)).json()) as { emails: unknown[] }).emails.length;
  console.log(`${requests} valid JSON posts, sequential, after ${WARM_UP} warm-up; Node ${process.version}`);
  console.log(summary('end to end (HTTP)', endToEnd));
  console.log(summary('handler only', handlerTimes));
  console.log(`throughput ${(requests / seconds).toFixed(0)} requests/s; e-mails in local SES: ${stored}`);
  // Wall-clock figures swing with other load on the machine; CPU time per request much less so.
  // It covers the whole process: client, adapter, handler, SDK and the local SES server.
  console.log(`CPU per request ${((cpu.user + cpu.system) / 1000 / requests).toFixed(2)} ms (user + system, all in-process)`);

  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await ses.close();
  await store.close();
}

await main(Number(process.argv[2] ?? 1000));
