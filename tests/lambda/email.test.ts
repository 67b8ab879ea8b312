import { describe, expect, it } from 'vitest';
import { composeEmail, subjectFor } from '../../lambda/email.ts';
import { escapeMarkup as escapeHtml } from '../../src/render/escape.ts';
import { toHeaderText } from '../../lambda/mail-header.ts';

const context = {
  mailTo: 'leads@example.co.uk',
  mailFrom: 'website@example.co.uk',
  receivedAt: new Date('2025-09-24T09:30:00.000Z'),
  source: 'https://www.example.co.uk/contact',
};

const contact = (name: string, company?: string) => ({
  form: 'contact' as const,
  data: { name, email: 'jo@example.co.uk', message: 'Hi', isHuman: true as const, ...(company === undefined ? {} : { company }) },
});

describe('escaping', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('makes header text one line: controls removed, runs collapsed, length capped', () => {
    expect(toHeaderText('Jo\u0000\u0007 \tBloggs\u2028Bcc: x')).toBe('Jo Bloggs Bcc: x');
    expect(toHeaderText('x'.repeat(300))).toHaveLength(200);
  });

  it('cuts by characters, so an emoji is never split in half', () => {
    const cut = toHeaderText(`${'x'.repeat(198)}\u{1F600}\u{1F600}\u{1F600}`);
    expect(cut).toBe(`${'x'.repeat(198)}\u{1F600}…`);
    expect(cut).not.toMatch(/\p{Cs}/u);
    expect(toHeaderText('\u{1F600}'.repeat(200))).toBe('\u{1F600}'.repeat(200));
  });

  it('leaves out direction overrides and isolates, zero-width characters and the byte-order mark', () => {
    const invisible = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200c\u200d\u2060\ufeff';
    expect(toHeaderText(`Jo${invisible} \u202eBloggs`)).toBe('Jo Bloggs');
    expect(toHeaderText(invisible)).toBe('');
  });
});

describe('composeEmail', () => {
  it('names the form and the sender in the subject, without control characters', () => {
    expect(subjectFor(contact('Jo\u0001Bloggs', 'Acme\u007f Ltd'))).toBe('Contact form: Jo Bloggs (Acme Ltd)');
    expect(subjectFor(contact('Jo', ''))).toBe('Contact form: Jo');
    expect(subjectFor(contact('\u202eJo', '\u2067Acme\u2069'))).toBe('Contact form: Jo (Acme)');
  });

  it('addresses the mail to the inbox, from the sender, replying to the visitor', () => {
    const mail = composeEmail(contact('Jo'), context);
    expect(mail.Source).toBe('website@example.co.uk');
    expect(mail.Destination?.ToAddresses).toEqual(['leads@example.co.uk']);
    expect(mail.ReplyToAddresses).toEqual(['jo@example.co.uk']);
    expect(mail.Message?.Subject?.Charset).toBe('UTF-8');
    expect(mail.Message?.Body?.Text?.Data).toContain('Organisation: Not given');
    expect(mail.Message?.Body?.Html?.Data).toContain('<html lang="en-GB">');
  });

  it('escapes the source and timestamp rows too', () => {
    const mail = composeEmail(contact('Jo'), { ...context, source: 'https://x.example/"><b>' });
    expect(mail.Message?.Body?.Html?.Data).toContain('https://x.example/&quot;&gt;&lt;b&gt;');
  });
});
