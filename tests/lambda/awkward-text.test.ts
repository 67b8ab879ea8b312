// Text that is valid JSON but that SES, or the SDK on the way to it, cannot take: half an emoji,
// invisible direction overrides, addresses SES refuses. Each is checked through the real SDK
// client against aws-ses-v2-local, and so is the next, ordinary lead from the same handler.
import { SendEmailCommand } from '@aws-sdk/client-ses';
import { beforeEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import type { MailSender } from '../../lambda/ses-client.ts';
import {
  clearStore,
  jsonPost,
  memoryLogger,
  sesClientFor,
  storedEmails,
  testConfig,
  validContact,
  type StoredEmail,
  useLeadBackends,
} from './support.ts';

const backends = useLeadBackends();
const log = memoryLogger();
beforeEach(() => { log.entries.length = 0; });

const handlerWith = (sender: MailSender) => createHandler({ ses: sender, leads: backends.leads, config: testConfig(), log });

const LONE_SURROGATE = /\p{Cs}/u;

const NEXT_LEAD = validContact({
  name: 'Isla Morrison',
  company: 'Perth Joinery',
  message: 'Could you look at our stock data?',
});

/** Posts the ordinary lead and returns the one e-mail it produced. */
async function sendNextLead(handler: ReturnType<typeof handlerWith>): Promise<StoredEmail | undefined> {
  await clearStore(backends.ses);
  const result = await handler(jsonPost(NEXT_LEAD));
  expect(result.statusCode).toBe(200);
  const emails = await storedEmails(backends.ses);
  expect(emails).toHaveLength(1);
  return emails[0];
}

function expectIntactNextLead(mail: StoredEmail | undefined) {
  expect(mail?.subject).toBe('Contact form: Isla Morrison (Perth Joinery)');
  expect(mail?.replyTo).toEqual(['morag@tayside-example.co.uk']);
  expect(mail?.body.text).toContain('Message:\nCould you look at our stock data?');
  expect(mail?.body.html).toContain('<td style="white-space:pre-wrap">Could you look at our stock data?</td>');
}

describe('half a character (a lone UTF-16 surrogate)', () => {
  it('is sent as U+FFFD, and the next lead from the same handler arrives intact', async () => {
    const handler = handlerWith(sesClientFor(backends.ses.endpoint));

    const result = await handler(jsonPost(validContact({ name: 'Jo \ud800', message: 'Half an emoji: \ud83d.' })));

    expect(result.statusCode).toBe(200);
    const [mail] = await storedEmails(backends.ses);
    expect(mail?.subject).toBe('Contact form: Jo \ufffd (Tayside Widgets Ltd)');
    expect(mail?.body.text).toContain('Half an emoji: \ufffd.');
    expectIntactNextLead(await sendNextLead(handler));
  });

  it('cuts a long subject between characters, never inside an emoji', async () => {
    const handler = handlerWith(sesClientFor(backends.ses.endpoint));
    // 'Contact form: ' + 100-character name + ' (' puts the organisation at unit 116 of the
    // subject, so the emoji sits across the 199-unit cut.
    const name = 'N'.repeat(100);
    const company = `${'A'.repeat(82)}${'\u{1F600}'.repeat(10)}`;

    const result = await handler(jsonPost(validContact({ name, company })));

    expect(result.statusCode).toBe(200);
    const [mail] = await storedEmails(backends.ses);
    expect(mail?.subject).toMatch(/^Contact form: N{100} \(A{82}\u{1F600}*…$/u);
    expect(mail?.subject).not.toMatch(LONE_SURROGATE);
    expectIntactNextLead(await sendNextLead(handler));
  });

  it('keeps the lead stored (pending, error kind internal) when it reaches the SDK anyway, and does not spoil the next lead', async () => {
    const client = sesClientFor(backends.ses.endpoint);
    let poisonNext = true;
    // Stands in for a bug upstream of SES: the first command reaches the real SDK client ill-formed.
    const buggy: MailSender = {
      send: (command) => {
        if (poisonNext) {
          poisonNext = false;
          const subject = command.input.Message?.Subject;
          if (subject) subject.Data = `${subject.Data} \ud800`;
        }
        return client.send(command);
      },
    };
    const handler = handlerWith(buggy);

    const result = await handler(jsonPost(validContact()));

    // The lead was stored before the send, so the visitor is told it worked; the retry mailer tries again.
    expect(result.statusCode).toBe(200);
    expect(log.entries.find((e) => e.event === 'ses_error')).toMatchObject({ kind: 'internal', name: 'URIError' });
    expect(await storedEmails(backends.ses)).toHaveLength(0);
    expect((await backends.leads.unsent()).map((lead) => lead.mail.lastError)).toEqual(['internal']);
    expectIntactNextLead(await sendNextLead(handler));
  });

  it('leaves the SES client usable after the SDK fails to build a request', async () => {
    const client = sesClientFor(backends.ses.endpoint);
    const mail = (subject: string) =>
      new SendEmailCommand({
        Source: 'website@example.co.uk',
        Destination: { ToAddresses: ['leads@example.co.uk'] },
        Message: { Subject: { Data: subject }, Body: { Text: { Data: 'Body' } } },
      });

    await expect(client.send(mail('Broken \udfff'))).rejects.toThrow(URIError);
    await client.send(mail('Whole'));

    const emails = await storedEmails(backends.ses);
    expect(emails.map((e) => [e.subject, e.from, e.destination.to])).toEqual([
      ['Whole', 'website@example.co.uk', ['leads@example.co.uk']],
    ]);
  });
});

describe('invisible formatting characters in a header', () => {
  it('are left out of the subject, so it cannot be made to read backwards', async () => {
    const handler = handlerWith(sesClientFor(backends.ses.endpoint));
    const name = 'Jo \u202eevil\u202c Bloggs\u200b\u2066\ufeff';
    const company = '\u2067Acme\u2069\u200d Ltd\u2060';

    const result = await handler(jsonPost(validContact({ name, company })));

    expect(result.statusCode).toBe(200);
    const [mail] = await storedEmails(backends.ses);
    expect(mail?.subject).toBe('Contact form: Jo evil Bloggs (Acme Ltd)');
    // The body keeps the rest of what the visitor typed, but no direction control or other format
    // character, which could make the name read backwards or hide text there too: those are removed
    // from one-line fields at validation, for browser and handler alike.
    expect(mail?.body.text).toContain('Name: Jo evil Bloggs\n');
    expect(mail?.body.text).toContain('Organisation: Acme Ltd\n');
    expect(mail?.body.text + mail!.body.html!).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });
});

describe('control characters', () => {
  const ESC = '\u001b';
  it.each([
    ['an ESC sequence that would clear the owner\'s terminal and retitle its window', `Morag${ESC}[2J${ESC}]0;pwned\u0007 Campbell`, 'Morag[2J]0;pwned Campbell'],
    ['NUL and other C0 controls', 'Mo\u0000rag\u0008 Camp\u007fbell', 'Morag Campbell'],
    ['C1 controls', 'Morag\u0085\u009b Campbell', 'Morag Campbell'],
    ['a tab, which becomes a space', 'Morag\tCampbell', 'Morag Campbell'],
  ])('removes %s from what is stored and mailed', async (_what, name, stored) => {
    const handler = handlerWith(sesClientFor(backends.ses.endpoint));
    const result = await handler(jsonPost(validContact({ name, company: `${ESC}[31mRed Ltd`, message: `Line one\r\nLine${ESC}[1A two\u0000` })));
    expect(result.statusCode).toBe(200);
    const [lead] = await backends.leads.all();
    expect(lead).toMatchObject({ name: stored, company: '[31mRed Ltd', message: 'Line one\nLine[1A two' });
    const [mail] = await storedEmails(backends.ses);
    expect(JSON.stringify(mail)).not.toMatch(/\\u00(0[0-8bcef]|1[0-9a-f]|7f|[89][0-9a-f])/);
  });
});

describe('an address SES would refuse', () => {
  it.each([
    'morag..campbell@example.co.uk',
    '.morag@example.co.uk',
    'morag.@example.co.uk',
    `${'m'.repeat(65)}@example.co.uk`,
    'morag@-tayside.co.uk',
    'morag@tayside-.co.uk',
    'morag@example.co-.uk',
  ])('%s is a field message and nothing is sent', async (email) => {
    const handler = handlerWith(sesClientFor(backends.ses.endpoint));

    const result = await handler(jsonPost(validContact({ email })));

    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body)).toEqual({
      ok: false,
      error: 'Validation failed',
      errors: { email: 'Please enter a valid email address' },
    });
    expect(await storedEmails(backends.ses)).toHaveLength(0);
  });
});

describe('an e-mail address with a hidden character', () => {
  it.each(['a.b@sub.example.co.uk\fFF', 'morag\u202e@example.co.uk', 'mo\u200brag@example.co.uk', '\ufeffmorag@example.co.uk'])(
    '%j is refused with "Email is invalid": never stored, mailed or replied to as some other address',
    async (email) => {
      const handler = handlerWith(sesClientFor(backends.ses.endpoint));
      const result = await handler(jsonPost(validContact({ email })));
      expect(result.statusCode).toBe(400);
      expect(JSON.parse(result.body)).toEqual({ ok: false, error: 'Validation failed', errors: { email: 'Email is invalid' } });
      expect(await backends.leads.all()).toEqual([]);
      expect(await storedEmails(backends.ses)).toEqual([]);
    },
  );
});
