// SES failing in each way the handler distinguishes, called through the real SDK client:
// unreachable (502), throttled, failing inside or too slow (503 + Retry-After), refused (502).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import type { SesClientOptions } from '../../lambda/ses-client.ts';
import { formPost, jsonPost, memoryLogger, sesClientFor, testConfig, validContact } from './support.ts';

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

function handlerFor(endpoint: string, options: Partial<SesClientOptions> = {}) {
  const log = memoryLogger();
  const handler = createHandler({ ses: sesClientFor(endpoint, options), config: testConfig(), log });
  return { handler, log };
}

function expectNoVisitorDataIn(log: ReturnType<typeof memoryLogger>) {
  const logged = JSON.stringify(log.entries);
  expect(logged).not.toContain('morag@');
  expect(logged).not.toContain('spreadsheets');
}

describe('SES failures', () => {
  it('answers 502 when SES is unreachable, and logs the error code only', async () => {
    const closed = await fakeSes(() => {});
    await closed.close(); // the port is now free and refuses connections
    const { handler, log } = handlerFor(closed.endpoint, { maxAttempts: 1 });

    const result = await handler(jsonPost(validContact()));

    expect(result.statusCode).toBe(502);
    expect(JSON.parse(result.body)).toEqual({ ok: false, error: 'Failed to send message' });
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({
      level: 'error',
      kind: 'connection',
      code: 'ECONNREFUSED',
    });
    expect(log.entries.find((e) => e.event === 'request')).toMatchObject({ status: 502, reason: 'ses_connection' });
    expectNoVisitorDataIn(log);
  });

  it('answers 503 with Retry-After when SES throttles, after the SDK has retried', async () => {
    const ses = await fakeSes((_req, res) => {
      res.writeHead(400, XML_HEADERS);
      res.end(queryError('Throttling', 'Maximum sending rate exceeded.'));
    });
    closers.push(ses.close);
    const { handler, log } = handlerFor(ses.endpoint, { maxAttempts: 2 });

    const result = await handler(jsonPost(validContact()));

    expect(result.statusCode).toBe(503);
    expect(result.headers['retry-after']).toBe('10');
    expect(JSON.parse(result.body)).toEqual({ ok: false, error: 'Failed to send message' });
    expect(ses.calls()).toBe(2);
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({
      kind: 'throttled',
      name: 'Throttling',
      httpStatusCode: 400,
      requestId: REQUEST_ID,
    });
    expectNoVisitorDataIn(log);
  });

  it('answers 503 with Retry-After when SES has an internal failure, after the SDK has retried', async () => {
    const ses = await fakeSes((_req, res) => {
      res.writeHead(500, XML_HEADERS);
      res.end(queryError('InternalFailure', 'The request processing has failed because of an unknown error.'));
    });
    closers.push(ses.close);
    const { handler, log } = handlerFor(ses.endpoint, { maxAttempts: 2 });

    const result = await handler(jsonPost(validContact()));

    expect(result.statusCode).toBe(503);
    expect(result.headers['retry-after']).toBe('10');
    expect(JSON.parse(result.body)).toEqual({ ok: false, error: 'Failed to send message' });
    expect(ses.calls()).toBe(2);
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({
      kind: 'unavailable',
      name: 'InternalFailure',
      httpStatusCode: 500,
    });
    expect(log.entries.find((e) => e.event === 'request')).toMatchObject({ status: 503, reason: 'ses_unavailable' });
  });

  it('answers 503 with Retry-After for any 5xx, even one without an SES error body', async () => {
    const ses = await fakeSes((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    });
    closers.push(ses.close);
    const { handler, log } = handlerFor(ses.endpoint, { maxAttempts: 1 });

    const result = await handler(jsonPost(validContact()));

    expect(result.statusCode).toBe(503);
    expect(result.headers['retry-after']).toBe('10');
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({ kind: 'unavailable', httpStatusCode: 502 });
  });

  it('answers 503 when SES does not answer within the request timeout', async () => {
    const ses = await fakeSes(() => {}); // never answers
    closers.push(ses.close);
    const { handler, log } = handlerFor(ses.endpoint, { maxAttempts: 1, requestTimeoutMs: 300 });

    const started = Date.now();
    const result = await handler(jsonPost(validContact()));

    expect(result.statusCode).toBe(503);
    expect(result.headers['retry-after']).toBe('10');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({ kind: 'timeout', name: 'TimeoutError' });
  });

  it('answers 502 for any other SES error, without logging its message (which can quote addresses)', async () => {
    const ses = await fakeSes((_req, res) => {
      res.writeHead(400, XML_HEADERS);
      res.end(queryError('MessageRejected', 'Email address is not verified: morag@tayside-example.co.uk'));
    });
    closers.push(ses.close);
    const { handler, log } = handlerFor(ses.endpoint, { maxAttempts: 1 });

    const result = await handler(jsonPost(validContact()));

    expect(result.statusCode).toBe(502);
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({ kind: 'rejected', name: 'MessageRejected' });
    expectNoVisitorDataIn(log);
  });

  it('shows a form post an HTML page with a way back when the mail service is busy', async () => {
    const ses = await fakeSes((_req, res) => {
      res.writeHead(400, XML_HEADERS);
      res.end(queryError('Throttling', 'Rate exceeded'));
    });
    closers.push(ses.close);
    const { handler } = handlerFor(ses.endpoint, { maxAttempts: 1 });
    const fields = { name: 'Morag', email: 'morag@tayside-example.co.uk', message: 'Hello', isHuman: 'on' };

    const result = await handler(formPost(fields, { referer: 'https://www.example.co.uk/contact' }));

    expect(result.statusCode).toBe(503);
    expect(result.headers['retry-after']).toBe('10');
    expect(result.body).toContain('<h1>Your message could not be sent</h1>');
    expect(result.body).toContain('<a href="/contact">Go back to the form</a>');
  });
});
