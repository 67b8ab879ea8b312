// Leads as CSV for a spreadsheet, and back (the export is lossless: `parseLeadsCsv` gives the
// records again, which the tests check field by field).
//
// Quoting (RFC 4180): every field is quoted, a quote inside is doubled, commas and new lines
// stay inside the quotes. Formula injection: a spreadsheet runs a cell that begins with =, +, -
// or @ (and tab or carriage return) as a formula, so such a value is written with a single quote
// in front ('=SUM(A1) shows as text). So that this stays reversible, a value that itself begins
// with a single quote gets one more; reading takes exactly one leading quote off.
import type { FormName } from '../../forms/names.ts';
import { LEAD_FIELDS, leadFieldValues } from '../../forms/fields.ts';
import { emailKeyOf, withIndexKeys } from '../../lambda/leads/store.ts';
import { likelySpamReason, type LeadRecord, type LikelySpam, type MailState } from '../../lambda/leads/record.ts';

/** The export's columns: the lead's own, one per text field of either form (forms/fields.ts), then its mail state, then why it is likely spam (blank for a real lead). */
export const CSV_COLUMNS = [
  'submissionId', 'form', 'receivedAt', ...LEAD_FIELDS, 'assessment', 'source',
  'mailState', 'mailAttempts', 'mailMessageId', 'mailLastError', 'mailLastAttemptAt', 'mailUnanswered', 'mailSendId', 'mailMaybeSent', 'mailRefusals', 'expiresAt', 'likelySpam',
] as const;
/** An export made before the likely-spam column: read as real leads, unless a record said otherwise. */
const EARLIER_COLUMNS = CSV_COLUMNS.slice(0, -1);

const FORMULA_START = /^[=+\-@\t\r']/;

/** A value safe to open in a spreadsheet: a leading formula character (or quote) behind a single quote. */
export function neutralise(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

function unneutralise(value: string): string {
  return value.startsWith("'") ? value.slice(1) : value;
}

const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;

function rowOf(lead: LeadRecord): string[] {
  return [
    lead.submissionId, lead.form, lead.receivedAt, ...LEAD_FIELDS.map((name) => lead[name] ?? ''),
    lead.assessment ? JSON.stringify(lead.assessment) : '', lead.source,
    lead.mail.state, String(lead.mail.attempts), lead.mail.messageId ?? '', lead.mail.lastError ?? '', lead.mail.lastAttemptAt ?? '',
    lead.mail.unanswered === undefined ? '' : String(lead.mail.unanswered), lead.mail.sendId ?? '',
    lead.mail.maybeSent === undefined ? '' : String(lead.mail.maybeSent), lead.mail.refusals === undefined ? '' : String(lead.mail.refusals),
    String(lead.expiresAt), likelySpamReason(lead) ?? '',
  ];
}

export function leadsToCsv(leads: readonly LeadRecord[]): string {
  const lines = [CSV_COLUMNS.map(quote).join(','), ...leads.map((lead) => rowOf(lead).map((v) => quote(neutralise(v))).join(','))];
  // CRLF, as RFC 4180 and spreadsheets expect; new lines inside values stay as they were.
  return `${lines.join('\r\n')}\r\n`;
}

/** Splits CSV text into rows of fields (quoted or not, doubled quotes, new lines inside quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i += 1; }
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field); rows.push(row); row = []; field = '';
    } else field += ch;
  }
  if (field || row.length) { row.push(field); rows.push(row); }
  return rows;
}

/** The records of an export made by leadsToCsv. */
export function parseLeadsCsv(text: string): LeadRecord[] {
  const [header, ...rows] = parseCsv(text);
  if (header?.join(',') !== CSV_COLUMNS.join(',') && header?.join(',') !== EARLIER_COLUMNS.join(',')) throw new Error('not a leads export: the header row differs');
  return rows.map((cells) => {
    const get = (column: (typeof CSV_COLUMNS)[number]) => unneutralise(cells[CSV_COLUMNS.indexOf(column)] ?? '');
    const optional = (column: (typeof CSV_COLUMNS)[number]) => get(column) || undefined;
    const assessment = get('assessment');
    const mail = {
      state: get('mailState') as MailState,
      attempts: Number(get('mailAttempts')),
      ...(optional('mailMessageId') ? { messageId: get('mailMessageId') } : {}),
      ...(optional('mailLastError') ? { lastError: get('mailLastError') } : {}),
      ...(optional('mailLastAttemptAt') ? { lastAttemptAt: get('mailLastAttemptAt') } : {}),
      ...(optional('mailUnanswered') ? { unanswered: Number(get('mailUnanswered')) } : {}),
      ...(optional('mailSendId') ? { sendId: get('mailSendId') } : {}),
      ...(optional('mailMaybeSent') ? { maybeSent: Number(get('mailMaybeSent')) } : {}),
      ...(optional('mailRefusals') ? { refusals: Number(get('mailRefusals')) } : {}),
    };
    // The index keys are the record's own state again (the table's indexes), not columns of their own.
    return withIndexKeys({
      submissionId: get('submissionId'),
      form: get('form') as FormName,
      receivedAt: get('receivedAt'),
      ...leadFieldValues(Object.fromEntries(LEAD_FIELDS.map((name) => [name, get(name)]))),
      emailKey: emailKeyOf(get('email')),
      ...(assessment ? { assessment: JSON.parse(assessment) as Record<string, string> } : {}),
      source: get('source'),
      mail,
      expiresAt: Number(get('expiresAt')),
      ...(get('likelySpam') ? { likelySpam: get('likelySpam') as LikelySpam } : {}),
    });
  });
}
