// No read that grows with the table: a leads table of 100,000 leads in dynalite, through the real
// SDK clients, and the requests the SES events Lambda and the mailer make on it, counted by a
// middleware on their DynamoDB client. `npx tsx scripts/leads-at-scale.ts [leads]` prints, as JSON:
// the requests one event of each kind takes to settle its lead, and a mailer run's requests and
// items read with 10 and with 100 unsent leads in the table.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startLocalStore } from '../lambda/leads/local-store.ts';
import { newLead } from '../lambda/leads/new-lead.ts';
import type { LeadRecord } from '../lambda/leads/record.ts';
import { resendLeads } from '../lambda/leads/resend.ts';
import { deliveryStore, recordSesNotification } from '../lambda/leads/ses-events.ts';
import { leadStore, withIndexKeys } from '../lambda/leads/store.ts';
import { startLocalSes } from '../lambda/local-ses.ts';
import { silentLogger } from '../lambda/log.ts';
import { createSesClient, LOCAL_CREDENTIALS } from '../lambda/ses-client.ts';
import { validateContact } from '../forms/contact.ts';

const TOTAL = Number(process.argv[2] ?? 100_000);
const at = new Date('2026-10-01T09:00:00Z');
const checked = validateContact({ name: 'Morag Campbell', email: 'morag@tayside-example.co.uk', company: 'Tayside Widgets Ltd', message: 'We have five spreadsheets that disagree.', isHuman: true });
if (!checked.ok) throw new Error('invalid fixture');

/** Lead `i`: sent (with its send and message ids) unless `pending`. */
function lead(i: number, pending: boolean): LeadRecord {
  const record = newLead({ form: 'contact', data: checked.data }, { submissionId: `scale-${i}`, receivedAt: new Date(at.getTime() - (TOTAL - i) * 60_000), source: 'https://www.example.co.uk/contact', retentionMonths: 24 });
  const sendId = `send-${i}`;
  return pending
    ? { ...record, mail: { state: 'pending', attempts: 1, lastError: 'connection', lastAttemptAt: record.receivedAt, sendId } }
    : { ...record, mail: { state: 'sent', attempts: 1, messageId: `message-${i}`, sendId, lastAttemptAt: record.receivedAt } };
}

const counts = { requests: 0, itemsRead: 0, byTarget: {} as Record<string, number> };
function counted(endpoint: string): DynamoDBClient {
  const client = new DynamoDBClient({ endpoint, region: 'eu-west-2', credentials: LOCAL_CREDENTIALS, maxAttempts: 2 });
  client.middlewareStack.add((next) => async (args) => {
    const target = (args.input as { IndexName?: string; KeyConditionExpression?: string; UpdateExpression?: string }).KeyConditionExpression ? 'Query' : (args.input as { UpdateExpression?: string }).UpdateExpression ? 'UpdateItem' : 'other';
    counts.requests += 1;
    counts.byTarget[target] = (counts.byTarget[target] ?? 0) + 1;
    const answer = await next(args);
    const body = (answer.output as { Count?: number; Item?: unknown }) ?? {};
    counts.itemsRead += typeof body.Count === 'number' ? body.Count : body.Item ? 1 : 0;
    return answer;
  }, { step: 'initialize', name: 'countRequests' });
  return client;
}
const measure = async (body: () => Promise<unknown>) => {
  Object.assign(counts, { requests: 0, itemsRead: 0, byTarget: {} });
  await body();
  return { requests: counts.requests, itemsRead: counts.itemsRead, byTarget: { ...counts.byTarget } };
};

const local = await startLocalStore();
const ses = await startLocalSes();
const setup = local.client();
const doc = DynamoDBDocumentClient.from(setup, { marshallOptions: { removeUndefinedValues: true } });
const started = performance.now();
try {
  // 100,000 leads, 10 of them unsent, written 25 at a time, a few batches at once.
  const pendingEvery = Math.floor(TOTAL / 10);
  const batches: LeadRecord[][] = [];
  for (let i = 0; i < TOTAL; i += 25) batches.push(Array.from({ length: Math.min(25, TOTAL - i) }, (_, k) => lead(i + k, (i + k) % pendingEvery === 0)));
  for (let b = 0; b < batches.length; b += 8) {
    await Promise.all(batches.slice(b, b + 8).map(async (batch) => {
      let items = batch.map((record) => ({ PutRequest: { Item: withIndexKeys(record) } }));
      while (items.length) {
        const answer = await doc.send(new BatchWriteCommand({ RequestItems: { [local.table]: items } }));
        items = (answer.UnprocessedItems?.[local.table] ?? []) as typeof items;
      }
    }));
  }
  const loadedSeconds = (performance.now() - started) / 1000;

  const client = counted(local.endpoint);
  const events = { store: deliveryStore(client, local.table), log: silentLogger, now: () => at };
  const tags = (i: number) => ({ messageId: `message-${i}`, tags: { send: [`send-${i}`] } });
  const figures: Record<string, unknown> = { leads: TOTAL, loadSeconds: Math.round(loadedSeconds) };
  figures.deliveryOfSentLead = await measure(() => recordSesNotification(JSON.stringify({ eventType: 'Delivery', mail: tags(5), delivery: { timestamp: at.toISOString() } }), events));
  figures.bounceOfSentLead = await measure(() => recordSesNotification(JSON.stringify({ eventType: 'Bounce', mail: tags(6), bounce: { bounceType: 'Permanent', bounceSubType: 'General', timestamp: at.toISOString() } }), events));
  // A lead whose sender never wrote SES's answer: its Send, then its Delivery, settle it.
  figures.sendOfUnansweredLead = await measure(() => recordSesNotification(JSON.stringify({ eventType: 'Send', mail: { ...tags(0), messageId: 'message-late-0' }, send: {} }), events));
  figures.deliveryOfUnansweredLead = await measure(() => recordSesNotification(JSON.stringify({ eventType: 'Delivery', mail: { ...tags(pendingEvery), messageId: 'message-late-1' }, delivery: { timestamp: at.toISOString() } }), events));
  figures.rejectOfSentLead = await measure(() => recordSesNotification(JSON.stringify({ eventType: 'Reject', mail: tags(7), reject: { reason: 'Bad content' } }), events));
  figures.complaintWithoutSendTag = await measure(() => recordSesNotification(JSON.stringify({ notificationType: 'Complaint', mail: { messageId: 'message-8' }, complaint: { complaintFeedbackType: 'abuse', timestamp: at.toISOString() } }), events));

  const mailer = { ses: createSesClient({ region: 'eu-west-2', endpoint: ses.endpoint, credentials: LOCAL_CREDENTIALS }), store: leadStore(client, local.table), mailTo: 'leads@example.co.uk', mailFrom: 'website@example.co.uk', now: () => new Date(at.getTime() + 3 * 3600_000) };
  const unsentNow = async () => (await leadStore(setup, local.table).unsent()).length;
  const runs: unknown[] = [];
  const run = async () => { const before = await unsentNow(); const read = await measure(() => resendLeads(mailer, { log: silentLogger })); runs.push({ unsentBefore: before, ...read }); };
  const add = async (from: number, count: number) => { for (let i = from; i < from + count; i += 1) await doc.send(new BatchWriteCommand({ RequestItems: { [local.table]: [{ PutRequest: { Item: withIndexKeys(lead(TOTAL + i, true)) } }] } })); };
  // The unsent leads of the load (those the events did not settle), then none, then 100, then 10.
  await run();
  await run();
  await add(0, 100);
  await run();
  await add(100, 10);
  await run();
  figures.mailerRuns = runs;
  client.destroy();
  console.log(JSON.stringify(figures, null, 2));
} finally {
  setup.destroy();
  await ses.close();
  await local.close();
}
