// The lead as an SES SendEmail request: to the consultancy, Reply-To the visitor, a plain-text
// body and an HTML body in which every value is escaped.
import type { SendEmailCommandInput } from '@aws-sdk/client-ses';
import { escapeMarkup as escapeHtml } from '../src/render/escape.ts';
import { toHeaderText } from './mail-header.ts';
import type { FormName } from '../forms/names.ts';
import { TEXT_FIELDS, leadFieldValues, type LeadFieldValues } from '../forms/fields.ts';
import { ASSESSMENT_QUESTIONS } from '../forms/assessment-questions.ts';
import type { AssessmentSubmission } from '../forms/assessment.ts';
import type { ContactSubmission } from '../forms/contact.ts';

export type Submission =
  | { form: 'contact'; data: ContactSubmission }
  | { form: 'assessment'; data: AssessmentSubmission };

export interface MailContext {
  mailTo: string;
  mailFrom: string;
  /** The SES configuration set whose events (bounces, complaints) mark the lead; none locally. */
  configurationSet?: string | undefined;
  /** When the handler received the post (the browser's clock is not trusted). */
  receivedAt: Date;
  /** The page or origin the post came from. */
  source: string;
  /** An earlier send of this lead got no answer from SES and may have arrived: the subject says this one may repeat it. */
  repeat?: boolean;
}

/** What the subject of a lead's e-mail starts with when an earlier send of it may have reached the inbox. */
export const REPEAT_PREFIX = 'Repeat (may already have arrived): ';

interface Row {
  label: string;
  value: string;
  multiline?: boolean;
  /** A link the HTML body makes of the value (a mailto: URL, escaped as every value is). */
  href?: string;
}

/**
 * A mailto: link that opens a reply to the lead: a digest has no Reply-To (its leads are from
 * different people), so each entry carries its own. The address and subject are percent-encoded
 * (RFC 6068), so nothing in them can add a header or a recipient.
 */
export function replyLink(email: string, subject: string): string {
  const address = encodeURIComponent(email.trim()).replace(/%40/g, '@');
  return `mailto:${address}?subject=${encodeURIComponent(subject)}`;
}

const FORM_TITLES: Record<FormName, string> = {
  contact: 'Contact form',
  assessment: 'DIAlog Assessment',
};

const HEADINGS: Record<FormName, string> = {
  contact: 'New message from the website contact form',
  assessment: 'New DIAlog Assessment from the website',
};

const NOT_GIVEN = 'Not given';

/** What an e-mail shows of a lead: from a fresh submission or from its stored record alike. */
export type LeadContent = LeadFieldValues & {
  form: FormName;
  /** Assessment only: [question, chosen answer's label] in the questions' order. */
  answers?: readonly (readonly [string, string])[];
};

/** A submission's content: its text fields (forms/fields.ts), its answers as the questions' text and the chosen labels. */
export function contentOf(submission: Submission): LeadContent {
  const base = { form: submission.form, ...leadFieldValues(submission.data) };
  if (submission.form !== 'assessment') return base;
  const answers = ASSESSMENT_QUESTIONS.map((q) => [q.question, submission.data.assessmentData[q.field]] as const);
  return { ...base, answers };
}

/**
 * The lead's rows: its form's one-line text fields in the form's order, then the assessment's
 * answers, then the multi-line fields (forms/fields.ts), an optional field left blank as 'Not given'.
 */
function rowsFor(content: LeadContent, context: MailContext): Row[] {
  const fields = TEXT_FIELDS[content.form];
  const row = (field: (typeof fields)[number]): Row => ({
    label: field.label,
    value: content[field.name as keyof LeadFieldValues] || NOT_GIVEN,
    ...(field.kind === 'lines' ? { multiline: true } : {}),
  });
  const rows: Row[] = fields.filter((f) => f.kind !== 'lines').map(row);
  for (const [question, answer] of content.answers ?? []) rows.push({ label: question, value: answer });
  rows.push(...fields.filter((f) => f.kind === 'lines').map(row));
  rows.push({ label: 'Received', value: context.receivedAt.toISOString() });
  rows.push({ label: 'Source', value: context.source });
  return rows;
}

export function subjectFor(lead: Submission | LeadContent, repeat = false): string {
  const content = 'data' in lead ? contentOf(lead) : lead;
  const who = content.company ? `${content.name} (${content.company})` : content.name;
  return toHeaderText(`${repeat ? REPEAT_PREFIX : ''}${FORM_TITLES[content.form]}: ${who}`);
}

function textBody(heading: string, rows: readonly Row[]): string {
  const lines = [heading, ''];
  for (const row of rows) {
    if (row.multiline) lines.push(`${row.label}:`, row.value, '');
    else lines.push(`${row.label}: ${row.value}`);
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function htmlBody(heading: string, rows: readonly Row[], intro?: string): string {
  const cells = rows
    .map((row) => {
      const style = row.multiline ? ' style="white-space:pre-wrap"' : '';
      const value = row.href ? `<a href="${escapeHtml(row.href)}">${escapeHtml(row.value)}</a>` : escapeHtml(row.value);
      return `<tr><th scope="row" style="text-align:left;vertical-align:top;padding:4px 12px 4px 0">${escapeHtml(row.label)}</th><td${style}>${value}</td></tr>`;
    })
    .join('\n');
  return [
    '<!doctype html>',
    '<html lang="en-GB"><head><meta charset="utf-8">',
    `<title>${escapeHtml(heading)}</title></head>`,
    '<body style="font-family:sans-serif;line-height:1.4">',
    `<h1 style="font-size:18px">${escapeHtml(heading)}</h1>`,
    ...(intro ? [`<p>${escapeHtml(intro)}</p>`] : []),
    `<table>\n${cells}\n</table>`,
    '</body></html>',
  ].join('\n');
}

/** The e-mail of a submission, or of a stored lead (the retry mailer): the same e-mail either way. */
export function composeEmail(lead: Submission | LeadContent, context: MailContext): SendEmailCommandInput {
  const content = 'data' in lead ? contentOf(lead) : lead;
  const heading = HEADINGS[content.form];
  const rows = rowsFor(content, context);
  return {
    Source: context.mailFrom,
    Destination: { ToAddresses: [context.mailTo] },
    ReplyToAddresses: [content.email],
    ...(context.configurationSet ? { ConfigurationSetName: context.configurationSet } : {}),
    Message: {
      Subject: { Data: subjectFor(content, context.repeat), Charset: 'UTF-8' },
      Body: {
        Text: { Data: textBody(heading, rows), Charset: 'UTF-8' },
        Html: { Data: htmlBody(heading, rows), Charset: 'UTF-8' },
      },
    },
  };
}

/** One lead of a digest: its content, where and when it arrived, and whether an earlier send of it may have arrived. */
export interface DigestLead {
  content: LeadContent;
  receivedAt: Date;
  source: string;
  repeat?: boolean;
  /** Why it is likely spam (the hidden field filled, past a limit on its network or e-mail address), when it is. */
  likelySpam?: string;
}

/** What a likely-spam lead's title in a digest says before its form and name. */
export const LIKELY_SPAM_MARK = 'LIKELY SPAM';

/**
 * Several leads in one e-mail, for when more lead e-mails arrive in an hour than the inbox should
 * take (a flood, or a very good day): each lead's rows as in its own e-mail, one after another in
 * the order given (the mailer gives real leads oldest first, then the likely spam, each flagged), escaped alike. No Reply-To: the leads are
 * from different people; each entry ends with a link that opens a reply to its own address.
 */
export function composeDigest(leads: readonly DigestLead[], context: Omit<MailContext, 'receivedAt' | 'source'>): SendEmailCommandInput {
  const repeats = leads.filter((lead) => lead.repeat).length;
  const heading = `${leads.length} new ${leads.length === 1 ? 'lead' : 'leads'} from the website, sent together${repeats ? ` (${repeats} may already have arrived)` : ''}`;
  const spam = leads.filter((lead) => lead.likelySpam).length;
  const intro = `These leads were held back from one e-mail each: more lead e-mails than the hourly cap allows, or more than one network's share of it, or posts past the limit on one network or one e-mail address, or with the hidden field filled. Real leads come first, oldest first${spam ? `; the last ${spam === 1 ? 'one is' : `${spam} are`} likely spam, marked ${LIKELY_SPAM_MARK} with the reason` : ''}. Every one is also in the leads table (site leads list).`;
  const sections = leads.map((lead, i) => {
    const reply = replyLink(lead.content.email, `Re: ${FORM_TITLES[lead.content.form]}`);
    return {
      title: `${i + 1}. ${lead.repeat ? REPEAT_PREFIX : ''}${lead.likelySpam ? `${LIKELY_SPAM_MARK} (${lead.likelySpam}) ` : ''}${FORM_TITLES[lead.content.form]}: ${lead.content.name}`,
      rows: [...rowsFor(lead.content, { ...context, receivedAt: lead.receivedAt, source: lead.source }), { label: 'Reply', value: reply, href: reply }],
    };
  });
  const text = [heading, '', intro, '', ...sections.map((section) => `${section.title}\n\n${textBody('', section.rows).trimStart()}`)].join('\n');
  const html = htmlBody(heading, sections.flatMap((section) => [{ label: section.title, value: '' }, ...section.rows]), intro);
  return {
    Source: context.mailFrom,
    Destination: { ToAddresses: [context.mailTo] },
    ...(context.configurationSet ? { ConfigurationSetName: context.configurationSet } : {}),
    Message: {
      Subject: { Data: toHeaderText(`Website leads: ${heading}`), Charset: 'UTF-8' },
      Body: { Text: { Data: text, Charset: 'UTF-8' }, Html: { Data: html, Charset: 'UTF-8' } },
    },
  };
}

/** The bytes of an e-mail's subject and bodies in UTF-8: what its size before MIME encoding comes to. */
export function emailBytes(email: SendEmailCommandInput): number {
  const message = email.Message;
  return [message?.Subject?.Data, message?.Body?.Text?.Data, message?.Body?.Html?.Data].reduce((sum, part) => sum + Buffer.byteLength(part ?? ''), 0);
}
