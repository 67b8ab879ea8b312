// Every text field each form defines (forms/fields.ts), posted without JavaScript (a urlencoded
// form post), reaches the stored lead (dynalite), the e-mail (aws-ses-v2-local), the CSV export
// (`site leads export` through the CLI's entry) and, each one-line field, `site leads list`, all through the real AWS SDK clients. A field added
// to the definition is covered here without touching this file; one that a layer drops fails it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ASSESSMENT_FORM_TYPE, ASSESSMENT_QUESTIONS } from '../../forms/assessment.ts';
import { FORM_TYPE_FIELD, HUMAN_CHECK, LEAD_FIELDS, TEXT_FIELDS, type TextFieldDefinition } from '../../forms/fields.ts';
import type { FormName } from '../../forms/names.ts';
import { createHandler } from '../../lambda/create-handler.ts';
import { ensureLeadTable, startLocalStore, type LocalStore } from '../../lambda/leads/local-store.ts';
import { leadStore, type LeadStore } from '../../lambda/leads/store.ts';
import { startLocalSes, type LocalSes } from '../../lambda/local-ses.ts';
import { main } from '../../src/cli.ts';
import { CSV_COLUMNS, parseCsv } from '../../src/leads/csv.ts';
import { clearStore, formPost, memoryLogger, ORIGIN, sesClientFor, storedEmails, testConfig } from './support.ts';

let ses: LocalSes;
let local: LocalStore;
let client: ReturnType<LocalStore['client']>;
let root: string;
let tables = 0;
let table: string;
let leads: LeadStore;

beforeAll(async () => {
  ses = await startLocalSes();
  local = await startLocalStore();
  client = local.client();
  root = await mkdtemp(path.join(os.tmpdir(), 'site-every-field-'));
});
afterAll(async () => {
  client.destroy();
  await local.close();
  await ses.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  tables += 1;
  table = `every-field-${tables}`;
  await ensureLeadTable(client, table);
  leads = leadStore(client, table);
  await clearStore(ses);
});

/** A value for the field that no other field holds, within its length, on one line unless it takes several. */
function valueFor(form: FormName, field: TextFieldDefinition): string {
  if (field.kind === 'email') return `every.${form}@example.org`;
  const value = `${field.label} of the ${form} form: ${field.name}-${form}`;
  return (field.kind === 'lines' ? `${value}\nand a second line` : value).slice(0, field.max);
}

const FORMS: FormName[] = ['contact', 'assessment'];

describe.each(FORMS)('every field of the %s form, posted without JavaScript', (form) => {
  const fields = TEXT_FIELDS[form];
  const values = Object.fromEntries(fields.map((f) => [f.name, valueFor(form, f)]));
  const answers = Object.fromEntries(ASSESSMENT_QUESTIONS.map((q) => [q.field, q.options[0]!.code]));
  const post = {
    ...values,
    [HUMAN_CHECK.name]: 'on',
    ...(form === 'assessment' ? { [FORM_TYPE_FIELD]: ASSESSMENT_FORM_TYPE, ...answers } : {}),
  };

  it('reaches the stored lead, the e-mail, the CSV export and the list', async () => {
    const handler = createHandler({ ses: sesClientFor(ses.endpoint), leads, config: testConfig(), log: memoryLogger() });
    const result = await handler(formPost(post, { referer: `${ORIGIN}/contact` }));
    expect(result.statusCode).toBe(303);

    const [lead, ...others] = await leads.all();
    expect(others).toEqual([]);
    expect(lead?.form).toBe(form);
    for (const field of fields) expect(lead?.[field.name as keyof typeof lead], field.name).toBe(values[field.name]);
    // A field only the other form has is stored empty, never missing.
    for (const name of LEAD_FIELDS) expect(typeof lead?.[name], name).toBe('string');

    const [mail, ...moreMail] = await storedEmails(ses);
    expect(moreMail).toEqual([]);
    for (const field of fields) {
      const row = field.kind === 'lines' ? `${field.label}:\n${values[field.name]}\n` : `${field.label}: ${values[field.name]}\n`;
      expect(mail?.body.text, field.name).toContain(row);
      expect(mail?.body.html, field.name).toContain(`>${field.label}</th>`);
    }

    const file = path.join(root, `${table}.csv`);
    const out: string[] = [];
    const code = await main(['node', 'site', '--root', root, 'leads', 'export', '--endpoint', local.endpoint, '--table', table, '--format', 'csv', '--out', file], { out: (s) => out.push(s), err: (s) => out.push(s) });
    expect(code, out.join('\n')).toBe(0);
    const [header, row, ...moreRows] = parseCsv(await readFile(file, 'utf8'));
    expect(moreRows).toEqual([]);
    expect(header).toEqual([...CSV_COLUMNS]);
    for (const field of fields) expect(row?.[header!.indexOf(field.name)], field.name).toBe(values[field.name]);

    const listed: string[] = [];
    expect(await main(['node', 'site', '--root', root, 'leads', 'list', '--endpoint', local.endpoint, '--table', table], { out: (s) => listed.push(s), err: (s) => listed.push(s) })).toBe(0);
    for (const field of fields.filter((f) => f.kind !== 'lines')) expect(listed[0], field.name).toContain(values[field.name]);
  });
});
