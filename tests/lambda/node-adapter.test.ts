// The handler behind a real node:http server, as `site serve` mounts it.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import { startLocalSes, type LocalSes } from '../../lambda/local-ses.ts';
import { silentLogger } from '../../lambda/log.ts';
import { nodeListener } from '../../lambda/node-adapter.ts';
import type { HttpHandler } from '../../lambda/event.ts';
import { clearStore, ORIGIN, sesClientFor, startTestStore, storedEmails, testConfig, validContact, type TestStore } from './support.ts';

const PATH = '/api/send-contact-form';
let ses: LocalSes;
let server: Server;
let base: string;
let store: TestStore;
let handler: HttpHandler;

beforeAll(async () => {
  ses = await startLocalSes();
  store = await startTestStore();
  server = createServer(nodeListener((request) => handler(request)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await ses.close();
  await store.close();
});
beforeEach(async () => {
  handler = createHandler({ ses: sesClientFor(ses.endpoint), leads: await store.fresh(), config: testConfig(), log: silentLogger });
  await clearStore(ses);
});

function post(body: string | Uint8Array<ArrayBuffer>, contentType: string, origin = ORIGIN) {
  return fetch(`${base}${PATH}`, {
    method: 'POST',
    headers: { 'content-type': contentType, origin, referer: `${origin}/contact` },
    body,
    redirect: 'manual',
  });
}

describe('node adapter', () => {
  it('sends a JSON post through to SES and answers 200 JSON', async () => {
    const response = await post(JSON.stringify(validContact({ name: 'Eilidh Ò Dochartaigh' })), 'application/json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(await response.json()).toEqual({ ok: true });
    const [mail] = await storedEmails(ses);
    expect(mail?.subject).toBe('Contact form: Eilidh Ò Dochartaigh (Tayside Widgets Ltd)');
    expect(mail?.body.text).toContain(`Source: ${ORIGIN}/contact`);
  });

  it('redirects a form post to /thank-you with 303', async () => {
    const form = new URLSearchParams({ name: 'Jo', email: 'jo@example.co.uk', message: 'Hi', isHuman: 'on' });
    const response = await post(form.toString(), 'application/x-www-form-urlencoded');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/thank-you');
    expect(await storedEmails(ses)).toHaveLength(1);
  });

  it('answers 413 to a body over the limit without keeping it', async () => {
    const huge = JSON.stringify(validContact({ message: 'x'.repeat(200 * 1024) }));
    const response = await post(huge, 'application/json');
    expect(response.status).toBe(413);
    expect(await storedEmails(ses)).toHaveLength(0);
  });

  it('passes the method through: GET is 405 and OPTIONS a CORS preflight', async () => {
    const get = await fetch(`${base}${PATH}`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    const options = await fetch(`${base}${PATH}`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });

  it('keeps the bytes of a body intact, so invalid UTF-8 is refused rather than altered', async () => {
    const response = await post(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 'application/json');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'Request body is not valid UTF-8' });
  });

  it('survives a client that disconnects mid-body', async () => {
    await new Promise<void>((resolve) => {
      const req = request(`${base}${PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '1000', origin: ORIGIN },
      });
      req.on('error', () => resolve());
      req.write('{"name":');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 20);
    });
    const response = await post(JSON.stringify(validContact()), 'application/json');
    expect(response.status).toBe(200);
  });

  it("sends a result's cookies as a Function URL does, one Set-Cookie header each (the sign-in's state cookie)", async () => {
    handler = async () => ({ statusCode: 302, headers: { location: 'https://github.com/login/oauth/authorize' }, cookies: ['__Host-cms-state=abc; Path=/; Secure; HttpOnly', 'second=1; Path=/'], body: '' });
    const res = await fetch(`${base}/auth`, { redirect: 'manual' });
    expect(res.headers.getSetCookie()).toEqual(['__Host-cms-state=abc; Path=/; Secure; HttpOnly', 'second=1; Path=/']);
  });
});
