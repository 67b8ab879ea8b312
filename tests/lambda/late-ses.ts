// A local SES that takes each e-mail and answers late: a loopback proxy in front of aws-ses-v2-local
// that forwards every request at once (so the e-mail is stored, as SES would have sent it) and holds
// the answer back for `delayMs`. It keeps the `send` tag of every SendEmail it passed on, so a test
// can play SES's own events for that send.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LateSes {
  endpoint: string;
  /** SendEmail requests passed on. */
  calls(): number;
  /** Answers handed to a client still waiting for them (a client that gave up is not counted). */
  answered(): number;
  /** How long each answer is held back now. */
  delay(): number;
  /** The `send` tag of each request, in order. */
  sendTags(): string[];
  /** How long each answer is held back from now on. */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

export async function startLateSes(target: string, delayMs: number): Promise<LateSes> {
  const to = new URL(target);
  let delay = delayMs;
  const tags: string[] = [];
  let calls = 0;
  let answered = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const tag = new URLSearchParams(body.toString('utf8')).get('Tags.member.1.Value');
      calls += 1;
      if (tag) tags.push(tag);
      const held = delay;
      const upstream = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (res.destroyed) return;
            answered += 1;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(parts));
          }, held);
          timers.add(timer);
        });
      });
      upstream.on('error', () => { if (!res.destroyed) { res.writeHead(502); res.end(); } });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => calls,
    answered: () => answered,
    delay: () => delay,
    sendTags: () => [...tags],
    setDelay: (ms) => { delay = ms; },
    close: () => new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
