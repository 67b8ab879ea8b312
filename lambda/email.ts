// The lead as an SES SendEmail request: to the consultancy, Reply-To the visitor, a plain-text
// body and an HTML body in which every value is escaped.
import type { SendEmailCommandInput } from '@aws-sdk/client-ses';
import { escapeHtml, toHeaderText } from './escape.ts';
import type { FormName } from './problem-page.ts';
import { ASSESSMENT_QUESTIONS } from '../forms/assessment-questions.ts';
import type { AssessmentSubmission } from '../forms/assessment.ts';
import type { ContactSubmission } from '../forms/contact.ts';

export type Submission =
  | { form: 'contact'; data: ContactSubmission }
  | { form: 'assessment'; data: AssessmentSubmission };

export interface MailContext {
  mailTo: string;
  mailFrom: string;
  /** When the handler received the post (the browser's clock is not trusted). */
  receivedAt: Date;
  /** The page or origin the post came from. */
  source: string;
}

interface Row {
  label: string;
  value: string;
  multiline?: boolean;
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

function rowsFor(submission: Submission, context: MailContext): Row[] {
  const { data } = submission;
  const rows: Row[] = [
    { label: 'Name', value: data.name },
    { label: 'Email', value: data.email },
    { label: 'Organisation', value: data.company || NOT_GIVEN },
  ];
  if (submission.form === 'assessment') {
    for (const question of ASSESSMENT_QUESTIONS) {
      rows.push({ label: question.question, value: submission.data.assessmentData[question.field] });
    }
    rows.push({ label: 'Comments', value: submission.data.message || NOT_GIVEN, multiline: true });
  } else {
    rows.push({ label: 'Message', value: submission.data.message, multiline: true });
  }
  rows.push({ label: 'Received', value: context.receivedAt.toISOString() });
  rows.push({ label: 'Source', value: context.source });
  return rows;
}

export function subjectFor(submission: Submission): string {
  const who = submission.data.company
    ? `${submission.data.name} (${submission.data.company})`
    : submission.data.name;
  return toHeaderText(`${FORM_TITLES[submission.form]}: ${who}`);
}

function textBody(heading: string, rows: readonly Row[]): string {
  const lines = [heading, ''];
  for (const row of rows) {
    if (row.multiline) lines.push(`${row.label}:`, row.value, '');
    else lines.push(`${row.label}: ${row.value}`);
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function htmlBody(heading: string, rows: readonly Row[]): string {
  const cells = rows
    .map((row) => {
      const style = row.multiline ? ' style="white-space:pre-wrap"' : '';
      return `<tr><th scope="row" style="text-align:left;vertical-align:top;padding:4px 12px 4px 0">${escapeHtml(row.label)}</th><td${style}>${escapeHtml(row.value)}</td></tr>`;
    })
    .join('\n');
  return [
    '<!doctype html>',
    '<html lang="en-GB"><head><meta charset="utf-8">',
    `<title>${escapeHtml(heading)}</title></head>`,
    '<body style="font-family:sans-serif;line-height:1.4">',
    `<h1 style="font-size:18px">${escapeHtml(heading)}</h1>`,
    `<table>\n${cells}\n</table>`,
    '</body></html>',
  ].join('\n');
}

export function composeEmail(submission: Submission, context: MailContext): SendEmailCommandInput {
  const heading = HEADINGS[submission.form];
  const rows = rowsFor(submission, context);
  return {
    Source: context.mailFrom,
    Destination: { ToAddresses: [context.mailTo] },
    ReplyToAddresses: [submission.data.email],
    Message: {
      Subject: { Data: subjectFor(submission), Charset: 'UTF-8' },
      Body: {
        Text: { Data: textBody(heading, rows), Charset: 'UTF-8' },
        Html: { Data: htmlBody(heading, rows), Charset: 'UTF-8' },
      },
    },
  };
}
