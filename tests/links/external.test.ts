import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExternalUrl, checkExternalUrls } from '../../src/links/external.ts';

let server: Server;
let base: string;
const seen: string[] = [];
let inFlight = 0;
let maxInFlight = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const url = req.url ?? '/';
    if (url === '/ok') return res.writeHead(200).end('ok');
    if (url === '/no-head') return res.writeHead(req.method === 'HEAD' ? 405 : 200).end();
    if (url === '/missing') return res.writeHead(404).end();
    if (url === '/moved') return res.writeHead(301, { location: '/ok' }).end();
    if (url === '/hang') return; // never answers
    if (url.startsWith('/slow')) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => { inFlight--; res.writeHead(200).end(); }, 30);
      return;
    }
    res.writeHead(500).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

describe('external links', () => {
  it('takes a good HEAD answer, following redirects', async () => {
    expect(await checkExternalUrl(`${base}/ok`)).toEqual({ url: `${base}/ok`, ok: true, status: 200 });
    expect(await checkExternalUrl(`${base}/moved`)).toMatchObject({ ok: true, status: 200 });
  });

  it('falls back to GET when HEAD is refused', async () => {
    seen.length = 0;
    expect(await checkExternalUrl(`${base}/no-head`)).toMatchObject({ ok: true, status: 200 });
    expect(seen).toEqual(['HEAD /no-head', 'GET /no-head']);
  });

  it('reports a missing page, a timeout and a refused connection', async () => {
    expect(await checkExternalUrl(`${base}/missing`)).toEqual({ url: `${base}/missing`, ok: false, status: 404 });
    expect(await checkExternalUrl(`${base}/hang`, { timeoutMs: 100 })).toEqual({ url: `${base}/hang`, ok: false, error: 'no answer within 0.1 s' });
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    expect(await checkExternalUrl(`http://127.0.0.1:${port}/`)).toMatchObject({ ok: false, error: 'ECONNREFUSED' });
  });

  it('fetches each URL once, at most 8 at a time', async () => {
    seen.length = 0;
    const urls = Array.from({ length: 20 }, (_, i) => `${base}/slow-${i}`);
    const results = await checkExternalUrls([...urls, ...urls]);
    expect(results.size).toBe(20);
    expect([...results.values()].every((r) => r.ok)).toBe(true);
    expect(seen).toHaveLength(20);
    expect(maxInFlight).toBeLessThanOrEqual(8);
    expect(maxInFlight).toBeGreaterThan(1);
  });
});
