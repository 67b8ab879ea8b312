// `site leads` end to end through the CLI's own entry, on the local store under a project's
// .site/data/leads (dynalite on disk: each command opens and closes it, so what one wrote the next
// reads back), with a real local SES server for resend.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { leadFieldValues } from '../../forms/fields.ts';
import { createHandler } from '../../lambda/create-handler.ts';
import { startLocalStore } from '../../lambda/leads/local-store.ts';
import type { LeadRecord } from '../../lambda/leads/record.ts';
import { leadStore } from '../../lambda/leads/store.ts';
import { startLocalSes, type LocalSes } from '../../lambda/local-ses.ts';
import { main } from '../../src/cli.ts';
import { leadsResend } from '../../src/leads/command.ts';
import { startLocalFormBackend } from '../../lambda/local-backend.ts';
import { silentLogger } from '../../lambda/log.ts';
import { parseLeadsCsv } from '../../src/leads/csv.ts';
import { announceServedStore, servedEndpointFile } from '../../src/leads/serve-forms.ts';
import { clearStore, jsonPost, memoryLogger, sesClientFor, storedEmails, testConfig, validAssessment, validContact } from '../lambda/support.ts';
import { dataDirOf } from '../../src/output/layout.ts';

let root: string;
let ses: LocalSes;

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['node', 'site', '--root', root, 'leads', ...args], { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Works on the project's local store directly (as `site serve`'s handler would), then closes it. */
async function withLocal<T>(body: (store: ReturnType<typeof leadStore>) => Promise<T>): Promise<T> {
  const local = await startLocalStore({ dataDir: path.join(dataDirOf(root), 'leads') });
  const client = local.client();
  try { return await body(leadStore(client, local.table)); } finally { client.destroy(); await local.close(); }
}

const AWKWARD: LeadRecord = {
  submissionId: 'awkward-0000-4000-8000-000000000001',
  form: 'contact',
  receivedAt: '2026-04-01T10:00:00.000Z',
  // Every text field of forms/fields.ts, those not given here ''.
  ...leadFieldValues({
    name: '=HYPERLINK("http://evil.example","click")',
    email: 'Ailsa@Example.org',
    company: 'Comma, "Quotes" & Co',
    message: '-2+3\nsecond line, with a comma\r\nthird "quoted" line\n@home',
  }),
  emailKey: 'ailsa@example.org',
  source: "'+already quoted",
  mail: { state: 'sent', attempts: 3, messageId: 'msg-1', lastAttemptAt: '2026-04-01T10:05:00.000Z' },
  expiresAt: 1_838_000_000,
};

beforeAll(async () => { ses = await startLocalSes(); });
afterAll(() => ses.close());
beforeEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = await mkdtemp(path.join(os.tmpdir(), 'site-leads-'));
  await clearStore(ses);
  await withLocal(async (store) => {
    // Two leads posted while SES was down (so unsent), one of them by Ailsa, and an awkward one.
    const down = createHandler({ ses: sesClientFor('http://127.0.0.1:9'), leads: store, config: testConfig(), log: memoryLogger() });
    expect((await down(jsonPost(validContact({ submissionId: 'unsent-0000-4000-8000-000000000001', email: 'ailsa@example.org' })))).statusCode).toBe(200);
    expect((await down(jsonPost(validAssessment({ submissionId: 'unsent-0000-4000-8000-000000000002' })))).statusCode).toBe(200);
    await store.putRaw(AWKWARD);
  });
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** Every byte of the local store's files. */
async function localBytes(): Promise<string> {
  const bytes: Buffer[] = [];
  for (const e of await readdir(dataDirOf(root), { recursive: true, withFileTypes: true })) if (e.isFile()) bytes.push(await readFile(path.join(e.parentPath, e.name)));
  return Buffer.concat(bytes).toString('latin1');
}

/**
 * How many of a token's eight 16-character pieces stand in `bytes` as they are. LevelDB compresses
 * its tables (snappy copies any 4 bytes it has seen nearby), which can break a token up, though
 * rarely one random over 64 symbols: so most pieces of a stored token are found, and none of an
 * erased one.
 */
function piecesOnDisk(token: string, bytes: string): number {
  return Array.from({ length: 8 }, (_, i) => token.slice(i * 16, i * 16 + 16)).filter((piece) => bytes.includes(piece)).length;
}

describe('site leads', () => {
  it('lists every lead with its mail state, and as JSON', async () => {
    const text = await run('list');
    expect(text.code).toBe(0);
    expect(text.out).toContain('3 leads in');
    expect(text.out).toContain('2 not yet e-mailed');
    expect(text.out).toMatch(/Morag Campbell \(Tayside Widgets Ltd\) <ailsa@example.org>  UNSENT \(1 attempt, connection\)/);
    const json = await run('list', '--json');
    expect((JSON.parse(json.out) as LeadRecord[]).map((l) => l.submissionId).sort()).toEqual([
      'awkward-0000-4000-8000-000000000001',
      expect.stringMatching(/^client-unsent-0000-4000-8000-000000000001-[0-9a-f]{16}$/),
      expect.stringMatching(/^client-unsent-0000-4000-8000-000000000002-[0-9a-f]{16}$/),
    ]);
  });

  it('says which leads SES reported bounced or complained about', async () => {
    await withLocal((store) => store.putRaw({ ...AWKWARD, submissionId: 'bounced-0000-4000-8000-000000000001', name: 'Bounced Visitor', company: '', mail: { ...AWKWARD.mail, delivery: 'bounced', deliveryAt: '2026-04-01T10:06:00.000Z', deliveryReason: 'Permanent/General' } }));
    const listed = (await run('list')).out;
    expect(listed).toContain('Bounced Visitor <Ailsa@Example.org>  sent, BOUNCED (Permanent/General)  bounced-0000-4000-8000-000000000001');
    expect(listed).toContain('4 leads in');
    expect(listed).toContain('1 bounced or complained about (check the inbox address)');
  });

  it('shows a lead whose post filled the hidden honeypot field, flagged as likely spam', async () => {
    await withLocal((store) => store.putRaw({ ...AWKWARD, submissionId: 'spam-0000-4000-8000-000000000001', name: 'Autofilled Visitor', company: '', likelySpam: true, mail: { state: 'pending', attempts: 0, held: true } }));
    const listed = (await run('list')).out;
    expect(listed).toContain('Autofilled Visitor <Ailsa@Example.org>  LIKELY SPAM (hidden field filled), UNSENT, held for the digest (0 attempts)  spam-0000-4000-8000-000000000001');
  });

  it('prints nothing the terminal would act on, from records stored before validation removed it', async () => {
    const hostile: LeadRecord = { ...AWKWARD, submissionId: 'hostile-0000-4000-8000-000000000001', name: 'Evil\u001b]0;pwned\u0007\u001b[2K Name', company: '\u202eLtd\u0085' };
    await withLocal((store) => store.putRaw(hostile));
    for (const args of [['list'], ['list', '--json'], ['export', '--format', 'csv'], ['export', '--format', 'json']]) {
      const { out } = await run(...args);
      expect(out, args.join(' ')).not.toMatch(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e]/);
    }
    expect((await run('list')).out).toContain('Evil\\u{1b}]0;pwned\\u{7}\\u{1b}[2K Name (\\u{202e}Ltd\\u{85}) <Ailsa@Example.org>');
    // JSON keeps the data exactly, in JSON's own escapes.
    const listed = JSON.parse((await run('list', '--json')).out) as LeadRecord[];
    expect(listed.find((l) => l.submissionId === hostile.submissionId)).toMatchObject({ name: hostile.name, company: hostile.company });
  });

  it('exports CSV that reads back to every field of every record, quoted and with formulas neutralised', async () => {
    const stored = await withLocal((store) => store.all());
    const file = path.join(root, 'leads.csv');
    expect((await run('export', '--format', 'csv', '--out', file)).code).toBe(0);
    const csv = await readFile(file, 'utf8');

    // Every field but the bookkeeping of the writes (the mail state's version and last write's id).
    const unkept = (leads: LeadRecord[]) => leads.map(({ mail: { version: _version, writeId: _writeId, ...mail }, ...lead }) => ({ ...lead, mail }));
    expect(parseLeadsCsv(csv)).toEqual(unkept(stored));
    // A spreadsheet sees text, not formulas; quotes doubled, commas and new lines kept inside quotes.
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(csv).toContain(`"'-2+3\nsecond line, with a comma\r\nthird ""quoted"" line\n@home"`);
    expect(csv).toContain(`"Comma, ""Quotes"" & Co"`);
    expect(csv).toContain(`"''+already quoted"`);
    expect(csv.split('\r\n')[0]).toBe('"submissionId","form","receivedAt","name","email","company","message","assessment","source","mailState","mailAttempts","mailMessageId","mailLastError","mailLastAttemptAt","mailUnanswered","mailSendId","mailMaybeSent","mailRefusals","expiresAt","likelySpam"');
  });

  it('exports JSON with every field', async () => {
    const stored = await withLocal((store) => store.all());
    const json = await run('export', '--format', 'json');
    expect(JSON.parse(json.out)).toEqual(stored);
    expect((await run('export', '--format', 'xml')).code).toBe(2);
  });

  it('leaves no readable trace of an erased address in .site/data, and keeps every other lead', async () => {
    const token = randomBytes(96).toString('base64url');
    await withLocal((store) => store.putRaw({ ...AWKWARD, submissionId: 'secret-0000-4000-8000-000000000001', email: 'ailsa@example.org', message: token }));
    await withLocal(async () => {}); // opened and closed again: LevelDB turns its log into a table file
    expect(piecesOnDisk(token, await localBytes())).toBeGreaterThanOrEqual(4);
    expect((await run('erase', '--email', 'ailsa@example.org')).out).toBe('erased 3 records of ailsa@example.org');
    expect(piecesOnDisk(token, await localBytes())).toBe(0);
    expect((await withLocal((store) => store.all())).map((l) => l.email)).toEqual(['ewan@example.org.uk']);
  });

  it('through a running site serve, leaves the erased address on disk only until serve stops', async () => {
    const dataDir = path.join(dataDirOf(root), 'leads');
    const token = randomBytes(96).toString('base64url');
    await withLocal((store) => store.putRaw({ ...AWKWARD, submissionId: 'secret-0000-4000-8000-000000000001', email: 'ailsa@example.org', message: token }));
    const forms = await startLocalFormBackend({ allowedOrigins: ['http://127.0.0.1:4321'], log: silentLogger, dataDir });
    const unannounce = await announceServedStore(root, forms);
    try {
      expect(piecesOnDisk(token, await localBytes())).toBeGreaterThanOrEqual(4);
      const erased = await run('erase', '--email', 'ailsa@example.org');
      expect(erased.out).toContain('erased 3 records of ailsa@example.org');
      expect(erased.out).toContain('site serve holds the local store: it removes the erased records from .site/data/ when it stops');
    } finally {
      await unannounce();
      await forms.close();
    }
    expect(piecesOnDisk(token, await localBytes())).toBe(0);
    expect((await withLocal((store) => store.all())).map((l) => l.email)).toEqual(['ewan@example.org.uk']);
  });

  it('erases every record of an address, in any case, and says how many', async () => {
    const erased = await run('erase', '--email', ' AILSA@example.ORG ');
    expect(erased.out).toBe('erased 2 records of ailsa@example.org');
    const left = await withLocal((store) => store.all());
    expect(left.map((l) => l.email)).toEqual(['ewan@example.org.uk']);
    expect((await run('erase', '--email', 'ailsa@example.org')).out).toBe('erased 0 records of ailsa@example.org');
  });

  it('resends every unsent lead exactly once and marks it sent; a second run sends nothing', async () => {
    const first = await run('resend', '--unsent', '--ses-endpoint', ses.endpoint);
    expect(first.code).toBe(0);
    expect(first.out).toContain('2 sent, 0 failed');
    const second = await run('resend', '--unsent', '--ses-endpoint', ses.endpoint);
    expect(second.out).toContain('0 sent, 0 failed');
    const emails = await storedEmails(ses);
    expect(emails.map((e) => e.subject).sort()).toEqual(['Contact form: Morag Campbell (Tayside Widgets Ltd)', 'DIAlog Assessment: Ewan Fraser (Fife Food Bank)']);
    const leads = await withLocal((store) => store.all());
    expect(leads.every((l) => l.mail.state === 'sent')).toBe(true);
  });

  it('honours the hourly cap: held leads go out in one digest, not one e-mail each, and past the cap the rest join it', async () => {
    await withLocal(async (store) => {
      for (let i = 0; i < 17; i += 1) {
        await store.putRaw({ ...AWKWARD, submissionId: `held-${String(i).padStart(2, '0')}`, name: `Held ${i}`, email: `held${i}@example.org`, emailKey: `held${i}@example.org`, mail: { state: 'pending', attempts: 0, held: true } });
      }
    });
    const out: string[] = [];
    const io = { out: (line: string) => out.push(line), err: (line: string) => out.push(line) };
    // An hour's cap of one lead e-mail: the oldest unsent lead goes alone, the other joins the digest.
    const code = await leadsResend(root, { unsent: true, sesEndpoint: ses.endpoint }, io, { MAILS_PER_HOUR: '1' });

    expect(code).toBe(0);
    expect(out.at(-1)).toBe('19 sent, 0 failed');
    const emails = await storedEmails(ses);
    expect(emails.map((e) => e.subject).sort()).toEqual(['Contact form: Morag Campbell (Tayside Widgets Ltd)', 'Website leads: 18 new leads from the website, sent together']);
    const leads = await withLocal((store) => store.all());
    expect(leads.filter((l) => l.mail.inDigest)).toHaveLength(18);
    expect(leads.every((l) => l.mail.state === 'sent')).toBe(true);
  });

  it('goes through the store of a running site serve (which holds the data folder), and ignores a stale endpoint file', async () => {
    const forms = await startLocalFormBackend({ allowedOrigins: ['http://127.0.0.1:4321'], log: silentLogger, dataDir: path.join(dataDirOf(root), 'leads') });
    const unannounce = await announceServedStore(root, forms);
    try {
      const listed = await run('list');
      expect(listed.out).toContain(`3 leads in ${forms.store.endpoint} (the store of the running site serve)`);
    } finally {
      await unannounce();
      await forms.close();
    }
    await writeFile(servedEndpointFile(root), 'http://127.0.0.1:9\n');
    expect((await run('list')).out).toContain(`3 leads in ${path.join(dataDirOf(root), 'leads')}`);
    expect(existsSync(servedEndpointFile(root))).toBe(false);
  });

  it('resends one lead by id, and says so when it was sent already', async () => {
    const key = (await withLocal((store) => store.all())).find((l) => l.submissionId.startsWith('client-unsent-0000-4000-8000-000000000002-'))!.submissionId;
    const one = await run('resend', '--id', key, 'awkward-0000-4000-8000-000000000001', '--ses-endpoint', ses.endpoint);
    expect(one.out).toContain(`sent ${key}`);
    expect(one.out).toContain('skipped awkward-0000-4000-8000-000000000001: already sent, or no such lead');
    expect(await storedEmails(ses)).toHaveLength(1);
    expect((await run('resend')).code).toBe(2);
    expect((await run('list', '--table', 'only-a-table')).err).toContain('pass both --table and --region');
  });
});
