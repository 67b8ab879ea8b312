// SES failing in each way the handler distinguishes, called through the real SDK client:
// unreachable, throttled, failing inside, too slow, refused. The lead is stored before the send,
// so the visitor is told it worked every time; the record keeps the failure's kind for the
// retry mailer, and nothing of the visitor's reaches the log.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import type { HttpResult } from '../../lambda/event.ts';
import type { LeadStore } from '../../lambda/leads/store.ts';
import type { SesClientOptions } from '../../lambda/ses-client.ts';
import { classifySesError } from '../../lambda/ses-errors.ts';
import { formPost, jsonPost, memoryLogger, sesClientFor, startTestStore, testConfig, validContact, type TestStore } from './support.ts';

let store: TestStore;
beforeAll(async () => { store = await startTestStore(); });
afterAll(() => store.close());

/** A loopback server standing in for SES; counts the calls it gets. */
async function fakeSes(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  let calls = 0;
  const server: Server = createServer((req, res) => {
    calls += 1;
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const REQUEST_ID = '0f6b3c4e-1111-2222-3333-444455556666';
// As SES sends it: the request id both as a header and in the XML.
const XML_HEADERS = { 'content-type': 'text/xml', 'x-amzn-requestid': REQUEST_ID };

function queryError(code: string, message: string): string {
  return (
    '<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/">' +
    `<Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error>` +
    `<RequestId>${REQUEST_ID}</RequestId></ErrorResponse>`
  );
}

async function handlerFor(endpoint: string, options: Partial<SesClientOptions> = {}) {
  const log = memoryLogger();
  const leads = await store.fresh();
  const handler = createHandler({ ses: sesClientFor(endpoint, options), leads, config: testConfig(), log });
  return { handler, log, leads };
}

/** The visitor's answer is success, and the one stored lead waits for the retry mailer with the failure's kind. */
async function expectStoredUnsent(result: HttpResult, leads: LeadStore, kind: string) {
  expect(result.statusCode).toBe(200);
  expect(JSON.parse(result.body)).toEqual({ ok: true });
  const stored = await leads.all();
  expect(stored).toHaveLength(1);
  expect(stored[0]?.mail).toMatchObject({ state: 'pending', attempts: 1, lastError: kind });
  expect(await leads.unsent()).toHaveLength(1);
}

function expectNoVisitorDataIn(log: ReturnType<typeof memoryLogger>) {
  const logged = JSON.stringify(log.entries);
  expect(logged).not.toContain('morag@');
  expect(logged).not.toContain('spreadsheets');
}

describe('SES failures', () => {
  it('stores the lead and answers success when SES is unreachable, and logs the error code only', async () => {
    const closed = await fakeSes(() => {});
    await closed.close(); // the port is now free and refuses connections
    const { handler, log, leads } = await handlerFor(closed.endpoint);

    const result = await handler(jsonPost(validContact()));

    await expectStoredUnsent(result, leads, 'connection');
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({
      level: 'warn',
      kind: 'connection',
      code: 'ECONNREFUSED',
    });
    expect(log.entries.find((e) => e.event === 'request')).toMatchObject({ status: 200 });
    expectNoVisitorDataIn(log);
  });

  it('stores the lead and answers success when SES throttles, after one attempt (SendEmail is never retried by the SDK)', async () => {
    const ses = await fakeSes((_req, res) => {
      res.writeHead(400, XML_HEADERS);
      res.end(queryError('Throttling', 'Maximum sending rate exceeded.'));
    });
    closers.push(ses.close);
    const { handler, log, leads } = await handlerFor(ses.endpoint);

    const result = await handler(jsonPost(validContact()));

    await expectStoredUnsent(result, leads, 'throttled');
    expect(ses.calls()).toBe(1);
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({
      kind: 'throttled',
      name: 'Throttling',
      httpStatusCode: 400,
      requestId: REQUEST_ID,
    });
    expectNoVisitorDataIn(log);
  });

  it('stores the lead and answers success when SES has an internal failure, after one attempt, as unanswered (SES may have taken it first)', async () => {
    const ses = await fakeSes((_req, res) => {
      res.writeHead(500, XML_HEADERS);
      res.end(queryError('InternalFailure', 'The request processing has failed because of an unknown error.'));
    });
    closers.push(ses.close);
    const { handler, log, leads } = await handlerFor(ses.endpoint);

    const result = await handler(jsonPost(validContact()));

    await expectStoredUnsent(result, leads, 'unanswered');
    expect(ses.calls()).toBe(1);
    expect((await leads.all())[0]?.mail).toMatchObject({ maybeSent: 1 });
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({
      kind: 'unanswered',
      name: 'InternalFailure',
      httpStatusCode: 500,
    });
    expect(log.entries.find((e) => e.event === 'request')).toMatchObject({ status: 200 });
  });

  it('stores the lead for any 5xx, even one without an SES error body, as unanswered', async () => {
    const ses = await fakeSes((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    });
    closers.push(ses.close);
    const { handler, log, leads } = await handlerFor(ses.endpoint);

    const result = await handler(jsonPost(validContact()));

    await expectStoredUnsent(result, leads, 'unanswered');
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({ kind: 'unanswered', httpStatusCode: 502 });
  });

  // Either may have reached SES: a reset after it read the whole request, or no answer in the
  // client's time (the handler answers at all only because its client gives up). Never "not sent".
  it.each([
    ['a connection reset after the whole request reached SES', (req: IncomingMessage) => { req.socket.destroy(); }, {}, { code: 'ECONNRESET' }],
    ['no answer from SES in time', () => {}, { requestTimeoutMs: 300 }, { name: 'TimeoutError' }],
  ] as const)('stores the lead, answers, and records the send as unanswered (it may have gone) after %s', async (_what, answer, client, logged) => {
    const ses = await fakeSes(answer);
    closers.push(ses.close);
    const { handler, log, leads } = await handlerFor(ses.endpoint, client);

    const result = await handler(jsonPost(validContact()));

    await expectStoredUnsent(result, leads, 'unanswered');
    expect(ses.calls()).toBe(1);
    expect((await leads.all())[0]?.mail).toMatchObject({ maybeSent: 1 });
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({ kind: 'unanswered', ...logged });
  });

  it("stores the lead when SES refuses the account's e-mail (an unverified address), as the account's failure, not the e-mail's, without logging its message (which can quote addresses)", async () => {
    const ses = await fakeSes((_req, res) => {
      res.writeHead(400, XML_HEADERS);
      res.end(queryError('MessageRejected', 'Email address is not verified: morag@tayside-example.co.uk'));
    });
    closers.push(ses.close);
    const { handler, log, leads } = await handlerFor(ses.endpoint);

    const result = await handler(jsonPost(validContact()));

    await expectStoredUnsent(result, leads, 'account');
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({ kind: 'account', name: 'MessageRejected' });
    expectNoVisitorDataIn(log);
  });

  it("records a refusal of the e-mail's own content as refused, counted on the lead", async () => {
    const ses = await fakeSes((_req, res) => {
      res.writeHead(400, XML_HEADERS);
      res.end(queryError('MessageRejected', 'Message length is more than 10485760 bytes long.'));
    });
    closers.push(ses.close);
    const { handler, log, leads } = await handlerFor(ses.endpoint);

    await expectStoredUnsent(await handler(jsonPost(validContact())), leads, 'refused');
    expect((await leads.all())[0]?.mail).toMatchObject({ refusals: 1 });
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({ kind: 'refused', name: 'MessageRejected' });
  });

  it('sends a plain form post on to the thank-you page when the mail service is busy', async () => {
    const ses = await fakeSes((_req, res) => {
      res.writeHead(400, XML_HEADERS);
      res.end(queryError('Throttling', 'Rate exceeded'));
    });
    closers.push(ses.close);
    const { handler, leads } = await handlerFor(ses.endpoint);
    const fields = { name: 'Morag', email: 'morag@tayside-example.co.uk', message: 'Hello', isHuman: 'on' };

    const result = await handler(formPost(fields, { referer: 'https://www.example.co.uk/contact' }));

    expect(result.statusCode).toBe(303);
    expect(result.headers.location).toBe('/thank-you');
    expect((await leads.unsent()).map((lead) => lead.mail.lastError)).toEqual(['throttled']);
  });
});

describe('which connection errors may have sent the e-mail', () => {
  const socketError = (code: string) => Object.assign(new Error(code), { name: 'Error', code, $metadata: { attempts: 1 } });

  it('a connection never made sent nothing: connection, retried as usual', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']) expect(classifySesError(socketError(code)).kind, code).toBe('connection');
  });

  it('a connection broken after it was made, or a 5xx, may have sent it: unanswered', () => {
    for (const code of ['ECONNRESET', 'EPIPE']) expect(classifySesError(socketError(code)).kind, code).toBe('unanswered');
    expect(classifySesError(Object.assign(new Error('Service Unavailable'), { name: 'ServiceUnavailable', $metadata: { httpStatusCode: 503 } })).kind).toBe('unanswered');
  });
});

describe('which timeouts may have sent the e-mail', () => {
  // The errors as @smithy/node-http-handler raises them (its own words), with the $metadata the SDK stamps on.
  const timeout = (message: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { name: 'TimeoutError', $metadata: { attempts: 1 }, ...extra });

  it('a connection never made sent nothing: connection, retried as usual', () => {
    expect(classifySesError(timeout('@smithy/node-http-handler - the request socket did not establish a connection with the server within the configured timeout of 1000 ms.')).kind).toBe('connection');
    expect(classifySesError(timeout('connect ETIMEDOUT 192.0.2.1:443', { code: 'ETIMEDOUT', syscall: 'connect' })).kind).toBe('connection');
  });

  it('a timeout after the request left may have sent it: unanswered', () => {
    expect(classifySesError(timeout('@smithy/node-http-handler - [ERROR] a request has exceeded the configured 6000 ms requestTimeout.', { code: 'ETIMEDOUT' })).kind).toBe('unanswered');
    expect(classifySesError(timeout('@smithy/node-http-handler - the request socket timed out after 6000 ms of inactivity (configured by client requestHandler).')).kind).toBe('unanswered');
  });
});
