// The one-call local setup `site serve` uses: endpoint, local SES, its mail viewer, and the mailer on a timer.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalFormBackend, type LocalFormBackend } from '../../lambda/local-backend.ts';
import { silentLogger, type LogEntry } from '../../lambda/log.ts';
import { startLocalSes } from '../../lambda/local-ses.ts';
import { validContact } from './support.ts';

let backend: LocalFormBackend;
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/api/send-contact-form') backend.listener(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  backend = await startLocalFormBackend({ allowedOrigins: [origin], log: silentLogger });
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await backend.close();
});

it('accepts a post from the served origin and shows the e-mail in the local viewer', async () => {
  const response = await fetch(`${origin}/api/send-contact-form`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(validContact()),
  });
  expect(response.status).toBe(200);

  const viewer = await fetch(backend.mailViewerUrl ?? '');
  expect(viewer.status).toBe(200);
  expect(viewer.headers.get('content-type')).toContain('text/html');
  const store = (await (await fetch(`${backend.sesEndpoint}/store`)).json()) as { emails: { subject: string }[] };
  expect(store.emails.map((e) => e.subject)).toContain('Contact form: Morag Campbell (Tayside Widgets Ltd)');
});

it('refuses a post from any other origin', async () => {
  const response = await fetch(`${origin}/api/send-contact-form`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:9' },
    body: JSON.stringify(validContact()),
  });
  expect(response.status).toBe(403);
});

it("runs the mailer on a short timer: a lead whose send failed and one held for the digest reach the mail viewer, as they would the inbox", async () => {
  const ses = await startLocalSes();
  // aws-ses-v2-local keeps one store per process: start from an empty one.
  await fetch(`${ses.endpoint}/clear-store`, { method: 'POST' });
  // SES refusing to take anything (throttled: it took nothing, so the lead was not sent) while `broken`, then the real local server behind.
  let broken = true;
  const flaky = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (broken) { res.writeHead(400, { 'content-type': 'text/xml' }).end('<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>Maximum sending rate exceeded.</Message></Error></ErrorResponse>'); return; }
      const to = new URL(ses.endpoint);
      const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => { res.writeHead(answer.statusCode ?? 502, answer.headers); answer.pipe(res); });
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
  const arrived = new Date('2026-08-01T12:00:00Z');
  let clock = arrived;
  const logged: LogEntry[] = [];
  const local = await startLocalFormBackend({ allowedOrigins: ['https://www.example.co.uk'], log: (entry) => { logged.push(entry); }, sesEndpoint: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`, mailsPerHour: 1, mailerEveryMs: 50, now: () => clock });
  const page = createServer((req, res) => local.listener(req, res));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  try {
    const post = (name: string) => fetch(`http://127.0.0.1:${(page.address() as AddressInfo).port}/api/send-contact-form`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://www.example.co.uk' }, body: JSON.stringify(validContact({ name })),
    });
    expect((await post('Failed First')).status).toBe(200); // SES throttles it: stored, unsent
    expect((await post('Held Back')).status).toBe(200); // past the hour's cap of one: held for the digest
    const viewer = async () => ((await (await fetch(ses.storeUrl)).json()) as { emails: { subject: string; body: { text?: string } }[] }).emails;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await viewer()).toEqual([]); // the mailer runs, but nothing is due yet (the handler's grace period)
    // …and says nothing of runs that sent nothing, which would fill serve's console every 10 seconds.
    expect(logged.filter((e) => e.event === 'resend')).toEqual([]);

    broken = false;
    clock = new Date(arrived.getTime() + 3 * 60_000);
    // Waited for, not timed: the mailer's next run sends them (the 60 s is a hang guard).
    await expect.poll(async () => (await viewer()).length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
    const emails = await viewer();
    expect(emails.map((e) => e.subject)).toEqual(['Website leads: 2 new leads from the website, sent together']);
    expect(emails[0]?.body.text).toContain('Name: Failed First');
    expect(emails[0]?.body.text).toContain('Name: Held Back');
    // The run's own line follows once every lead is marked sent.
    await expect.poll(() => logged.some((e) => e.event === 'resend'), { timeout: 60_000, interval: 20 }).toBe(true);
    expect(logged.filter((e) => e.event === 'resend')).toEqual([expect.objectContaining({ digested: 2 })]);
  } finally {
    await new Promise<void>((resolve) => { page.close(() => resolve()); page.closeAllConnections(); });
    await local.close();
    await new Promise<void>((resolve) => { flaky.close(() => resolve()); flaky.closeAllConnections(); });
    await ses.close();
  }
});
