// The one-call local setup `site serve` uses: endpoint, local SES, and its mail viewer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalFormBackend, type LocalFormBackend } from '../../lambda/local-backend.ts';
import { silentLogger } from '../../lambda/log.ts';
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
