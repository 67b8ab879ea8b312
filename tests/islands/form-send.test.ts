import { describe, expect, it } from 'vitest';
import { refusedFields, sendForm } from '../../islands/shared/form-send.ts';

const fields = ['name', 'email', 'company', 'message', 'isHuman'];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('sendForm', () => {
  it('posts the payload as JSON to the action and reports a 2xx as sent', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const outcome = await sendForm('/api/send-contact-form', { name: 'Ada' }, fields, async (url, init) => {
      seen.push({ url, init });
      return json(200, { ok: true });
    });
    expect(outcome).toEqual({ kind: 'sent' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/api/send-contact-form');
    expect(seen[0]!.init.method).toBe('POST');
    expect(new Headers(seen[0]!.init.headers).get('content-type')).toBe('application/json');
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ name: 'Ada' });
  });

  it("turns a 400 with field messages into errors to show under the fields", async () => {
    const outcome = await sendForm('/x', {}, fields, async () => json(400, { ok: false, errors: { email: 'Email is invalid', formType: 'Unknown form type' } }));
    expect(outcome).toEqual({ kind: 'refused', errors: { email: 'Email is invalid' } });
  });

  it.each([
    ['a 400 about no field of the form', async () => json(400, { ok: false, errors: { form: 'The form fields must be sent as an object' } })],
    ['a 400 that is not JSON', async () => new Response('<h1>Bad request</h1>', { status: 400 })],
    ['a 502 from the mail server', async () => json(502, { ok: false })],
    ['a 503 with Retry-After', async () => new Response('', { status: 503, headers: { 'retry-after': '5' } })],
    ['a 403', async () => json(403, { ok: false })],
    ['a network error', async () => { throw new TypeError('Failed to fetch'); }],
  ] as const)('reports %s as a failure with its reason', async (_, fetcher) => {
    const outcome = await sendForm('/x', {}, fields, fetcher);
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' && outcome.reason).toBeInstanceOf(Error);
  });

  it('gives up on a request that hangs, as a failure', async () => {
    const hang = (_url: string, init: RequestInit) => new Promise<Response>((_, reject) => {
      init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
    });
    const outcome = await sendForm('/x', {}, fields, hang, 20);
    expect(outcome.kind).toBe('failed');
  });
});

describe('refusedFields', () => {
  it('keeps only string messages for the given fields', () => {
    expect(refusedFields({ errors: { name: 'Name is required', email: 42, other: 'x' } }, fields)).toEqual({ name: 'Name is required' });
    expect(refusedFields(null, fields)).toEqual({});
    expect(refusedFields({ errors: 'nope' }, fields)).toEqual({});
  });
});
