// The handler end to end against a real aws-ses-v2-local: what reaches the inbox, and what never does.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import type { HttpEvent, HttpHandler } from '../../lambda/event.ts';
import { startLocalSes, type LocalSes } from '../../lambda/local-ses.ts';
import type { LeadStore } from '../../lambda/leads/store.ts';
import { DEFAULT_MAX_BODY_BYTES } from '../../lambda/body.ts';
import { HONEYPOT_FIELD } from '../../forms/fields.ts';
import {
  clearStore,
  event,
  formPost,
  jsonPost,
  memoryLogger,
  ORIGIN,
  OTHER_ORIGIN,
  sesClientFor,
  startTestStore,
  storedEmails,
  type TestStore,
  testConfig,
  validAssessment,
  validContact,
} from './support.ts';

const RECEIVED = new Date('2025-09-24T09:30:00.000Z');

let ses: LocalSes;
let handler: HttpHandler;
let store: TestStore;
let leads: LeadStore;
const log = memoryLogger();

beforeAll(async () => {
  ses = await startLocalSes();
  store = await startTestStore();
});
afterAll(async () => { await ses.close(); await store.close(); });
beforeEach(async () => {
  // A new table each test: the same content at the same fixed time is one lead (a derived submissionId).
  leads = await store.fresh();
  handler = createHandler({ ses: sesClientFor(ses.endpoint), leads, config: testConfig(), now: () => RECEIVED, log });
  await clearStore(ses);
  log.entries.length = 0;
});

function parse(body: string): Record<string, unknown> {
  return JSON.parse(body) as Record<string, unknown>;
}

describe('a valid submission', () => {
  it('e-mails a contact message to MAIL_TO with Reply-To, subject and both bodies', async () => {
    const result = await handler(jsonPost(validContact(), { referer: `${ORIGIN}/services/data-cleaning` }));

    expect(result.statusCode).toBe(200);
    expect(parse(result.body)).toEqual({ ok: true });
    expect(result.headers['access-control-allow-origin']).toBe(ORIGIN);
    const emails = await storedEmails(ses);
    expect(emails).toHaveLength(1);
    const [mail] = emails;
    expect(mail?.destination.to).toEqual(['leads@example.co.uk']);
    expect(mail?.from).toBe('Website <website@example.co.uk>');
    expect(mail?.replyTo).toEqual(['morag@tayside-example.co.uk']);
    expect(mail?.subject).toBe('Contact form: Morag Campbell (Tayside Widgets Ltd)');
    for (const body of [mail?.body.text, mail?.body.html]) {
      expect(body).toContain('Morag Campbell');
      expect(body).toContain('morag@tayside-example.co.uk');
      expect(body).toContain('Tayside Widgets Ltd');
      expect(body).toContain('We have five spreadsheets that disagree.');
      expect(body).toContain('2025-09-24T09:30:00.000Z');
      expect(body).toContain(`${ORIGIN}/services/data-cleaning`);
    }
    expect(mail?.body.text).toContain('Message:\nWe have five spreadsheets that disagree.\nCan you help?');
  });

  it('e-mails an assessment with every answer as its label, whether sent as code or label', async () => {
    const result = await handler(jsonPost(validAssessment(), { referer: `${ORIGIN}/dialog-assessment` }));

    expect(result.statusCode).toBe(200);
    const [mail, ...rest] = await storedEmails(ses);
    expect(rest).toHaveLength(0);
    expect(mail?.subject).toBe('DIAlog Assessment: Ewan Fraser (Fife Food Bank)');
    expect(mail?.replyTo).toEqual(['ewan@example.org.uk']);
    const labels = [
      'We use data for occasional reporting',
      'Data siloed across teams or systems',
      'Data is seen as important, but progress is slow',
      'No one has clear ownership',
      'Charity or non-profit',
      'Within the next 3 months',
    ];
    for (const label of labels) expect(mail?.body.text).toContain(label);
    expect(mail?.body.text).toContain("How would you describe your organisation's current approach to data?: We use data for occasional reporting");
    expect(mail?.body.text).toContain('Comments:\nKeen to start soon.');
    expect(mail?.body.html).toContain('Data is seen as important, but progress is slow');
    expect(mail?.body.html).toContain('No one has clear ownership');
    expect(mail?.body.text).not.toContain('occasional_reporting');
    expect(mail?.body.text).not.toContain('next_3_months');
  });

  it('sends an assessment without organisation or comments', async () => {
    const result = await handler(jsonPost(validAssessment({ company: '', message: '' })));
    expect(result.statusCode).toBe(200);
    const [mail] = await storedEmails(ses);
    expect(mail?.subject).toBe('DIAlog Assessment: Ewan Fraser');
    expect(mail?.body.text).toContain('Organisation: Not given');
  });

  it('reads a base64-encoded body', async () => {
    const result = await handler(jsonPost(validContact({ name: 'Àine Ní Bhriain' }), { base64: true }));
    expect(result.statusCode).toBe(200);
    const [mail] = await storedEmails(ses);
    expect(mail?.subject).toContain('Àine Ní Bhriain');
  });

  it('delivers markup in the message as text: escaped in the HTML body', async () => {
    const message = 'Hello <script>alert("x")</script> & <b>bold</b>';
    const result = await handler(jsonPost(validContact({ message, name: 'Jo <img src=x>' })));
    expect(result.statusCode).toBe(200);
    const [mail] = await storedEmails(ses);
    expect(mail?.body.html).toContain('Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(mail?.body.html).toContain('Jo &lt;img src=x&gt;');
    expect(mail?.body.html).not.toMatch(/<script|<img|<b>/);
    expect(mail?.body.text).toContain(message);
  });

  it('accepts a post with only a Referer from an allowed origin', async () => {
    const result = await handler(jsonPost(validContact(), { origin: undefined, referer: `${ORIGIN}/contact` }));
    expect(result.statusCode).toBe(200);
    expect(await storedEmails(ses)).toHaveLength(1);
  });

  it('logs one structured line per request without the visitor’s address or message', async () => {
    await handler(jsonPost(validContact()));
    const request = log.entries.filter((e) => e.event === 'request');
    expect(request).toHaveLength(1);
    expect(request[0]).toMatchObject({ level: 'info', status: 200, form: 'contact', kind: 'json' });
    expect(typeof request[0]?.durationMs).toBe('number');
    const logged = JSON.stringify(log.entries);
    expect(logged).not.toContain('morag@');
    expect(logged).not.toContain('spreadsheets');
  });
});

const longText = (n: number) => 'x'.repeat(n);
const contactWithout = (field: string) => {
  const value = validContact();
  delete value[field];
  return value;
};
const assessmentWithout = (field: string) => {
  const value = validAssessment();
  delete (value.assessmentData as Record<string, unknown>)[field];
  return value;
};

interface BadCase {
  name: string;
  request: HttpEvent;
  status: number;
  errors?: Record<string, string>;
}

const badInputs: BadCase[] = [
  { name: 'missing name', request: jsonPost(contactWithout('name')), status: 400, errors: { name: 'Name is required' } },
  { name: 'blank name', request: jsonPost(validContact({ name: '   ' })), status: 400, errors: { name: 'Name is required' } },
  { name: 'missing email', request: jsonPost(contactWithout('email')), status: 400, errors: { email: 'Email is required' } },
  { name: 'blank email', request: jsonPost(validContact({ email: ' ' })), status: 400, errors: { email: 'Email is required' } },
  { name: 'missing message', request: jsonPost(contactWithout('message')), status: 400, errors: { message: 'Message is required' } },
  { name: 'blank message', request: jsonPost(validContact({ message: '\n\t ' })), status: 400, errors: { message: 'Message is required' } },
  { name: 'human box not ticked', request: jsonPost(validContact({ isHuman: false })), status: 400, errors: { isHuman: 'Please confirm you are human' } },
  { name: 'isHuman as the string "true"', request: jsonPost(validContact({ isHuman: 'true' })), status: 400, errors: { isHuman: 'Please confirm you are human' } },
  { name: 'missing isHuman', request: jsonPost(contactWithout('isHuman')), status: 400, errors: { isHuman: 'Please confirm you are human' } },
  { name: 'name as a number', request: jsonPost(validContact({ name: 42 })), status: 400, errors: { name: 'Name must be text' } },
  { name: 'message as an array', request: jsonPost(validContact({ message: ['hi'] })), status: 400, errors: { message: 'Message must be text' } },
  { name: 'company as an object', request: jsonPost(validContact({ company: {} })), status: 400, errors: { company: 'Organisation must be text' } },
  { name: 'e-mail without a domain dot', request: jsonPost(validContact({ email: 'morag@example' })), status: 400, errors: { email: 'Email is invalid' } },
  { name: 'e-mail without @', request: jsonPost(validContact({ email: 'morag.example.co.uk' })), status: 400, errors: { email: 'Email is invalid' } },
  { name: 'two addresses in one', request: jsonPost(validContact({ email: 'a@b.co,c@d.co' })), status: 400, errors: { email: 'Email is invalid' } },
  { name: 'CR/LF in the name', request: jsonPost(validContact({ name: 'Morag\r\nBcc: all@example.com' })), status: 400, errors: { name: 'Name must not contain line breaks' } },
  { name: 'LF in the e-mail', request: jsonPost(validContact({ email: 'morag@example.co.uk\nbcc@evil.com' })), status: 400, errors: { email: 'Email is invalid' } },
  { name: 'CR in the organisation', request: jsonPost(validContact({ company: 'Acme\rX-Header: 1' })), status: 400, errors: { company: 'Organisation must not contain line breaks' } },
  { name: 'name of 101 characters', request: jsonPost(validContact({ name: longText(101) })), status: 400, errors: { name: 'Name must be 100 characters or fewer' } },
  { name: 'message of 5,001 characters', request: jsonPost(validContact({ message: longText(5001) })), status: 400, errors: { message: 'Message must be 5000 characters or fewer' } },
  { name: 'unknown assessment code', request: jsonPost(validAssessment({}, { timeframe: 'yesterday' })), status: 400, errors: { timeframe: 'Please choose one of the listed options' } },
  { name: 'label with different case', request: jsonPost(validAssessment({}, { timeframe: 'IMMEDIATELY' })), status: 400, errors: { timeframe: 'Please choose one of the listed options' } },
  { name: 'missing assessment answer', request: jsonPost(assessmentWithout('dataCulture')), status: 400, errors: { dataCulture: 'Please select an option' } },
  { name: 'empty assessment answer', request: jsonPost(validAssessment({}, { dataOwnership: '' })), status: 400, errors: { dataOwnership: 'Please select an option' } },
  { name: 'assessment without isHuman', request: jsonPost(validAssessment({ isHuman: undefined })), status: 400, errors: { isHuman: 'Please confirm you are human' } },
  { name: 'unknown form type', request: jsonPost(validAssessment({ formType: 'Newsletter' })), status: 400, errors: { formType: 'Unknown form type' } },
  { name: 'a JSON array', request: jsonPost([validContact()]), status: 400, errors: { form: 'The form fields must be sent as an object' } },
  { name: 'JSON null', request: jsonPost(null), status: 400, errors: { form: 'The form fields must be sent as an object' } },
  { name: 'huge body', request: jsonPost(validContact({ message: longText(DEFAULT_MAX_BODY_BYTES) })), status: 413 },
  { name: 'huge base64 body', request: jsonPost(validContact({ message: longText(DEFAULT_MAX_BODY_BYTES) }), { base64: true }), status: 413 },
  { name: 'malformed JSON', request: event('{"name": "Morag",', {}), status: 400 },
  { name: 'empty JSON body', request: event(undefined, {}), status: 400 },
  { name: 'text/plain', request: event(JSON.stringify(validContact()), { contentType: 'text/plain' }), status: 415 },
  { name: 'multipart/form-data', request: event('--x\r\n', { contentType: 'multipart/form-data; boundary=x' }), status: 415 },
  { name: 'no content type', request: event(JSON.stringify(validContact()), { contentType: undefined }), status: 415 },
  { name: 'disallowed origin', request: jsonPost(validContact(), { origin: OTHER_ORIGIN }), status: 403 },
  { name: 'no Origin and no Referer', request: jsonPost(validContact(), { origin: undefined }), status: 403 },
  { name: 'Referer from another site', request: jsonPost(validContact(), { origin: undefined, referer: `${OTHER_ORIGIN}/x` }), status: 403 },
  { name: 'opaque origin "null"', request: jsonPost(validContact(), { origin: 'null' }), status: 403 },
  { name: 'allowed host on another port', request: jsonPost(validContact(), { origin: 'https://www.example.co.uk:8443' }), status: 403 },
  { name: 'GET', request: event(undefined, { method: 'GET' }), status: 405 },
  { name: 'PUT with a valid body', request: jsonPost(validContact(), { method: 'PUT' }), status: 405 },
];

describe('a bad request is refused and nothing is e-mailed', () => {
  it.each(badInputs)('$name → $status', async ({ request, status, errors }) => {
    const result = await handler(request);
    expect(result.statusCode).toBe(status);
    const body = parse(result.body);
    expect(body.ok).toBe(false);
    if (errors) expect(body.errors).toMatchObject(errors);
    expect(await storedEmails(ses)).toHaveLength(0);
  });

  it('names the allowed methods on a 405', async () => {
    const result = await handler(event(undefined, { method: 'DELETE' }));
    expect(result.headers.allow).toBe('POST, OPTIONS');
  });

  it('answers a disallowed origin without CORS headers', async () => {
    const result = await handler(jsonPost(validContact(), { origin: OTHER_ORIGIN }));
    expect(result.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('size limits, on the fields as typed rather than the body as encoded', () => {
  // Common CJK ideographs, one UTF-16 unit and three UTF-8 bytes each: nine bytes each in a form post.
  const cjk = (n: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(0x4e00 + (i % 20000))).join('');
  const plainPost = (fields: Record<string, string>, base64 = false) =>
    formPost({ name: 'Morag Campbell', email: 'morag@example.co.uk', isHuman: 'on', ...fields }, { referer: `${ORIGIN}/contact`, base64 });

  it.each([false, true])('takes a 5,000-character Chinese message posted without JavaScript (45 KB encoded; base64 %s), stored and mailed as typed', async (base64) => {
    const message = cjk(5000);
    const request = plainPost({ message }, base64);
    expect(Buffer.byteLength(new URLSearchParams({ message }).toString())).toBeGreaterThan(45_000);
    const result = await handler(request);
    expect(result.statusCode).toBe(303);
    expect((await leads.all())[0]?.message).toBe(message);
    const [mail] = await storedEmails(ses);
    expect(mail?.body.text).toContain(message);
  });

  it('takes every text field at its longest in the costliest encoding a browser uses', async () => {
    const result = await handler(plainPost({ name: cjk(100), company: cjk(150), message: cjk(5000), email: `${'a'.repeat(64)}@${'b'.repeat(180)}.co.uk` }));
    expect(result.statusCode).toBe(303);
    expect(await leads.all()).toHaveLength(1);
  });

  it('refuses a message one character too long by its own limit, with a message the visitor can act on (not 413)', async () => {
    const result = await handler(jsonPost(validContact({ message: cjk(5001) })));
    expect(result.statusCode).toBe(400);
    expect(parse(result.body)).toMatchObject({ errors: { message: 'Message must be 5000 characters or fewer' } });
  });

  it('still refuses, before reading it, a body no valid post could be', async () => {
    const result = await handler(plainPost({ message: cjk(DEFAULT_MAX_BODY_BYTES / 9 + 1) }));
    expect(result.statusCode).toBe(413);
    expect(await leads.all()).toEqual([]);
  });
});

describe('the honeypot', () => {
  it('stores a lead with the hidden field filled, flagged as likely spam, answered as any success and mailed only in the digest', async () => {
    const result = await handler(jsonPost(validContact({ [HONEYPOT_FIELD]: 'https://spam.example' })));
    expect(result.statusCode).toBe(200);
    expect(parse(result.body)).toEqual({ ok: true });
    expect(await storedEmails(ses)).toHaveLength(0);
    const [lead, ...others] = await leads.all();
    expect(others).toEqual([]);
    expect(lead).toMatchObject({ name: 'Morag Campbell', likelySpam: 'hidden field filled', mail: { state: 'pending', held: true, attempts: 0 } });
    expect(log.entries.find((e) => e.event === 'request')).toMatchObject({ spam: true, reason: 'likely-spam', HoneypotHits: 1 });
  });

  it('keeps the lead of a person whose autofill filled it, from a plain form post too', async () => {
    const fields = { name: 'Morag Campbell', email: 'morag@example.co.uk', message: 'Hello', isHuman: 'on', [HONEYPOT_FIELD]: '1 High Street, Dundee' };
    const result = await handler(formPost(fields));
    expect(result.statusCode).toBe(303);
    expect(result.headers.location).toBe('/thank-you');
    expect(await leads.all()).toEqual([expect.objectContaining({ email: 'morag@example.co.uk', likelySpam: 'hidden field filled' })]);
    expect(await storedEmails(ses)).toHaveLength(0);
  });

  it('answers an invalid post with the hidden field filled as any invalid post: 400 and its messages, so a person can put it right', async () => {
    const result = await handler(jsonPost({ [HONEYPOT_FIELD]: 'x', name: 42 }));
    expect(result.statusCode).toBe(400);
    expect(await leads.all()).toEqual([]);
    expect(log.entries.find((e) => e.event === 'request')).toMatchObject({ spam: true });
  });

  it('treats a blank honeypot as a person', async () => {
    const result = await handler(jsonPost(validContact({ [HONEYPOT_FIELD]: '' })));
    expect(result.statusCode).toBe(200);
    expect(await storedEmails(ses)).toHaveLength(1);
    expect((await leads.all())[0]).not.toHaveProperty('likelySpam');
  });
});

describe('CORS', () => {
  it('answers a preflight from an allowed origin with CORS headers', async () => {
    const result = await handler(event(undefined, { method: 'OPTIONS', contentType: undefined }));
    expect(result.statusCode).toBe(204);
    expect(result.headers).toMatchObject({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'content-type',
      vary: 'Origin',
    });
  });

  it('answers a preflight from another origin with no CORS headers', async () => {
    const result = await handler(event(undefined, { method: 'OPTIONS', origin: OTHER_ORIGIN }));
    expect(result.statusCode).toBe(204);
    expect(Object.keys(result.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });
});

describe('a plain form post (no JavaScript)', () => {
  const contactFields = {
    name: 'Morag Campbell',
    email: 'morag@tayside-example.co.uk',
    company: '',
    message: 'Please call me.',
    isHuman: 'on',
  };

  it('sends the contact form and redirects to /thank-you with 303', async () => {
    const result = await handler(formPost(contactFields, { referer: `${ORIGIN}/contact` }));
    expect(result.statusCode).toBe(303);
    expect(result.headers.location).toBe('/thank-you');
    const [mail] = await storedEmails(ses);
    expect(mail?.replyTo).toEqual(['morag@tayside-example.co.uk']);
    expect(mail?.body.text).toContain('Please call me.');
    expect(mail?.body.text).toContain('Organisation: Not given');
  });

  it('sends an assessment posted with option codes, as labels', async () => {
    const fields = {
      ...contactFields,
      formType: 'DIAlog Assessment',
      dataApproach: 'defined_strategy',
      dataChallenges: 'low_skills',
      dataCulture: 'strong_culture',
      dataOwnership: 'leadership',
      organisationType: 'sme',
      timeframe: 'immediately',
    };
    const result = await handler(formPost(fields, { base64: true }));
    expect(result.statusCode).toBe(303);
    const [mail] = await storedEmails(ses);
    expect(mail?.subject).toBe('DIAlog Assessment: Morag Campbell');
    expect(mail?.body.text).toContain('SME (fewer than 250 employees)');
    expect(mail?.body.text).toContain('We have a defined data strategy');
  });

  it('answers a failure with an accessible 400 page listing the errors and a link back', async () => {
    const result = await handler(
      formPost({ name: ' ', email: 'not-an-address', message: '' }, { referer: `${ORIGIN}/services/data-cleaning?x=1` }),
    );
    expect(result.statusCode).toBe(400);
    expect(result.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = result.body;
    expect(html).toContain('<html lang="en-GB">');
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toContain('<h1>There is a problem with the form</h1>');
    expect(html).toContain('<li><strong>Name:</strong> Name is required</li>');
    expect(html).toContain('<li><strong>Email:</strong> Email is invalid</li>');
    expect(html).toContain('<li><strong>Message:</strong> Message is required</li>');
    expect(html).toContain('<li><strong>Human confirmation:</strong> Please confirm you are human</li>');
    expect(html).toContain('<a href="/services/data-cleaning?x=1">Go back to the form</a>');
    expect(await storedEmails(ses)).toHaveLength(0);
  });

  it('labels assessment errors with the question and links back to the assessment', async () => {
    const result = await handler(formPost({ ...contactFields, formType: 'DIAlog Assessment', timeframe: 'soon' }));
    expect(result.statusCode).toBe(400);
    expect(result.body).toContain('<li><strong>What type of organisation are you?:</strong> Please select an option</li>');
    expect(result.body).toContain('<li><strong>How soon would you like to act on your data maturity?:</strong> Please choose one of the listed options</li>');
    expect(result.body).toContain('<a href="/dialog-assessment">');
  });

  it('escapes the Referer it links back to', async () => {
    const result = await handler(formPost({ name: '' }, { referer: `${ORIGIN}/contact?q="><script>x</script>` }));
    expect(result.statusCode).toBe(400);
    expect(result.body).not.toContain('<script>');
    expect(result.body).toContain('href="/contact?q=%22%3E%3Cscript%3Ex%3C/script%3E"');
  });

  it('never links back to another site', async () => {
    const result = await handler(formPost({ name: '' }, { referer: `${ORIGIN}//evil.example.com/` }));
    expect(result.body).toContain('<a href="/contact">');
  });

  it('answers a form post from another origin with a 403 page', async () => {
    const result = await handler(formPost(contactFields, { origin: OTHER_ORIGIN }));
    expect(result.statusCode).toBe(403);
    expect(result.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(result.body).toContain('This form can only be sent from our own website.');
    expect(await storedEmails(ses)).toHaveLength(0);
  });
});
