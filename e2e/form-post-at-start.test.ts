// `site serve` at its first moment: a form post that arrives before the form backend has loaded
// (a script's first GET answered, then its POST at once; or a POST as soon as the port is open)
// waits for the backend and is taken, never answered 405 by the static site.
import { inject, describe, expect, it } from 'vitest';
import { DEFAULT_FORM_ENDPOINT } from '../forms/names.ts';
import { startServer, type RunningServer } from '../src/serve/server.ts';

interface Answer { status: number; location: string | null; allow: string | null }

const post = async (url: string, name: string): Promise<Answer> => {
  const body = new URLSearchParams({ name, email: `${name.toLowerCase()}@example.org`, message: 'Sent as serve starts', isHuman: 'on' });
  const response = await fetch(`${url}${DEFAULT_FORM_ENDPOINT}`, { method: 'POST', body, redirect: 'manual', headers: { origin: url, referer: `${url}/contact` } });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location'), allow: response.headers.get('allow') };
};

/** How many e-mails with Reply-To `address` serve's local SES server holds, once it has one. */
async function mailsTo(server: RunningServer, address: string): Promise<number> {
  let count = 0;
  await expect.poll(async () => {
    const store = (await (await fetch(`${server.forms!.sesEndpoint}/store`)).json()) as { emails: { replyTo: string[] }[] };
    count = store.emails.filter((e) => e.replyTo.includes(address)).length;
    return count > 0;
  }).toBe(true);
  return count;
}

/** Starts serve on the shared build and runs `first` the moment it listens, before the form backend is loaded. */
async function atFirstMoment(first: (url: string) => Promise<Answer>): Promise<{ server: RunningServer; answer: Answer; beforeBackend: boolean }> {
  let answered: Promise<Answer> | undefined;
  const server$ = startServer({
    root: process.cwd(), outDir: inject('distDir'), port: 0, host: '127.0.0.1', watch: false, prebuilt: true, forms: true, formsOptions: { limits: false },
    listening: (url) => { answered = first(url); },
  });
  // Whether the request was sent before startServer had its form backend: it was, if listening came first.
  let backendReady = false;
  void server$.then(() => { backendReady = true; });
  await new Promise<void>((ok) => { const check = () => (answered ? ok() : setTimeout(check, 1)); check(); });
  const beforeBackend = !backendReady;
  const server = await server$;
  return { server, answer: await answered!, beforeBackend };
}

describe('site serve, a form post at its first moment', () => {
  it('a POST the moment the port opens is taken, not 405', async () => {
    const { server, answer, beforeBackend } = await atFirstMoment((url) => post(url, 'Early'));
    try {
      expect(beforeBackend).toBe(true);
      expect(answer).toEqual({ status: 303, location: '/thank-you', allow: null });
      expect(await mailsTo(server, 'early@example.org')).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('the first GET answered, then an immediate POST, is taken too', async () => {
    const { server, answer } = await atFirstMoment(async (url) => {
      expect((await fetch(`${url}/contact`)).status).toBe(200);
      return post(url, 'Scripted');
    });
    try {
      expect(answer).toEqual({ status: 303, location: '/thank-you', allow: null });
      expect(await mailsTo(server, 'scripted@example.org')).toBe(1);
    } finally {
      await server.close();
    }
  });
});
