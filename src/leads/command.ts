// `site leads list|export|resend|erase`: the owner's view of what came in through the forms.
import { writeFile } from 'node:fs/promises';
import { LOCAL_CREDENTIALS, createSesClient } from '../../lambda/ses-client.ts';
import { damageOf, MAX_REFUSALS, resendLeads, UNANSWERED_QUIET_MS } from '../../lambda/leads/resend.ts';
import { VOLUME_LIMITS } from '../../lambda/limits/settings.ts';
import { likelySpamReason, type LeadRecord } from '../../lambda/leads/record.ts';
import { leadFieldValues, TEXT_FIELDS, type LeadField } from '../../forms/fields.ts';
import { leadsToCsv } from './csv.ts';
import { markErased, rewriteLocalStore } from '../../lambda/leads/rewrite-local-store.ts';
import { printableJson, printableLine, printableText } from './printable.ts';
import { openLeadStore, StoreFlagsError, type OpenedStore, type StoreFlags } from './open-store.ts';
import { DATA_DIR } from '../output/layout.ts';

export interface Io { out: (s: string) => void; err: (s: string) => void }

/** Runs `body` on the chosen store; answers the exit code (1 for a problem the user can fix). */
async function withStore(root: string, flags: StoreFlags, io: Io, body: (opened: OpenedStore) => Promise<number>): Promise<number> {
  let opened: OpenedStore;
  try {
    opened = await openLeadStore(root, flags);
  } catch (error) {
    if (error instanceof StoreFlagsError) { io.err(`error: ${error.message}`); return 1; }
    throw error;
  }
  try {
    return await body(opened);
  } catch (error) {
    io.err(`error: the leads table (${opened.where}) could not be read or written: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    return 1;
  } finally {
    await opened.close();
  }
}

/** Where the lead's e-mail stands, as the owner needs to know it. */
function mailSummary(lead: LeadRecord): string {
  const damage = damageOf(lead);
  if (damage) return `DAMAGED, set aside: ${damage}`;
  const { mail } = lead;
  if (mail.state === 'pending') {
    const tries = `${mail.attempts} attempt${mail.attempts === 1 ? '' : 's'}${mail.lastError ? `, ${mail.lastError}` : ''}`;
    if ((mail.refusals ?? 0) >= MAX_REFUSALS) return `UNSENT, set aside: SES refused its e-mail ${mail.refusals} times (${tries})`;
    if (mail.lastError === 'unanswered') return `MAYBE SENT: SES did not answer (${tries})`;
    return mail.held ? `UNSENT, held for the digest (${tries})` : `UNSENT (${tries})`;
  }
  const how = mail.inDigest ? 'sent in a digest' : 'sent';
  return mail.delivery === 'bounced' || mail.delivery === 'complained'
    ? `${how}, ${mail.delivery.toUpperCase()}${mail.deliveryReason ? ` (${mail.deliveryReason})` : ''}`
    : how;
}

/** Who sent the lead, from its form's one-line fields (forms/fields.ts) in order: `Name (Organisation, …) <email>`, blanks left out (none for a damaged record's unknown form). */
function sender(lead: LeadRecord): string {
  const values = leadFieldValues(lead);
  const lines = (TEXT_FIELDS[lead.form] ?? []).filter((f) => f.kind !== 'lines');
  const [first = '', ...rest] = lines.filter((f) => f.kind !== 'email').map((f) => values[f.name as LeadField]).filter(Boolean);
  const emails = lines.filter((f) => f.kind === 'email').map((f) => `<${values[f.name as LeadField]}>`);
  return [rest.length ? `${first} (${rest.join(', ')})` : first, ...emails].join(' ');
}

function listLine(lead: LeadRecord): string {
  return printableLine(`${String(lead.receivedAt)}  ${String(lead.form).padEnd(10)}  ${sender(lead)}  ${likelySpamReason(lead) ? `LIKELY SPAM (${likelySpamReason(lead)}), ` : ''}${mailSummary(lead)}  ${lead.submissionId}`);
}

export function leadsList(root: string, flags: StoreFlags & { json: boolean }, io: Io): Promise<number> {
  return withStore(root, flags, io, async ({ store, where }) => {
    const leads = await store.all();
    if (flags.json) { io.out(printableJson(JSON.stringify(leads, null, 2))); return 0; }
    for (const lead of leads) io.out(listLine(lead));
    const unsent = leads.filter((l) => l.mail?.state !== 'sent').length;
    const undelivered = leads.filter((l) => l.mail?.delivery === 'bounced' || l.mail?.delivery === 'complained').length;
    io.out(`${leads.length} lead${leads.length === 1 ? '' : 's'} in ${where}${unsent ? `, ${unsent} not yet e-mailed (site leads resend --unsent)` : ''}${undelivered ? `, ${undelivered} bounced or complained about (check the inbox address)` : ''}`);
    return 0;
  });
}

export function leadsExport(root: string, flags: StoreFlags & { format: 'csv' | 'json'; out?: string }, io: Io): Promise<number> {
  return withStore(root, flags, io, async ({ store }) => {
    const leads = await store.all();
    const text = flags.format === 'csv' ? leadsToCsv(leads) : `${JSON.stringify(leads, null, 2)}\n`;
    if (flags.out) {
      // A file holds the records exactly.
      await writeFile(flags.out, text);
      io.err(`wrote ${leads.length} lead${leads.length === 1 ? '' : 's'} to ${flags.out}`);
    } else io.out(flags.format === 'csv' ? printableText(text.trimEnd()) : printableJson(text.trimEnd()));
    return 0;
  });
}

export interface ResendFlags extends StoreFlags {
  id?: string[];
  unsent: boolean;
  sesEndpoint?: string;
  mailTo?: string;
  mailFrom?: string;
  /** The stack's SES configuration set (its SesConfigurationSet output), so SES reports these sends as it does the mailer's. */
  configurationSet?: string;
}

/**
 * Sends unsent leads now, by the mailer's rules less its waits: past the hourly cap on lead e-mails
 * (counted with the handler and the scheduled mailer, in the limits table) the rest go in digests,
 * and a lead whose last send got no answer waits out its quiet period (lambda/leads/resend.ts). On
 * a table in AWS it sends through the stack's configuration set, as the mailer does, so SES's
 * events settle and alarm on these sends too; both come from the flags, else the environment.
 */
export function leadsResend(root: string, flags: ResendFlags, io: Io, env: NodeJS.ProcessEnv = process.env, now?: () => Date): Promise<number> {
  if (!flags.unsent && !flags.id?.length) { io.err('error: pass --unsent, or --id with a submissionId'); return Promise.resolve(2); }
  const aws = Boolean(flags.table && flags.region && !flags.endpoint);
  const sesEndpoint = flags.sesEndpoint ?? env.SES_ENDPOINT?.trim();
  const mailTo = flags.mailTo ?? env.SITE_MAIL_TO ?? (aws ? undefined : 'leads@example.com');
  const mailFrom = flags.mailFrom ?? env.SITE_MAIL_FROM ?? (aws ? undefined : 'Website <website@example.com>');
  if (!aws && !sesEndpoint) { io.err('error: locally, pass --ses-endpoint (or SES_ENDPOINT) with the mail server to send through, e.g. the address of the mail viewer `site serve` printed'); return Promise.resolve(1); }
  if (!mailTo || !mailFrom) { io.err('error: pass --mail-to and --mail-from (or SITE_MAIL_TO and SITE_MAIL_FROM), as the stack was deployed with'); return Promise.resolve(1); }
  const limitsTable = flags.limitsTable ?? env.LIMITS_TABLE?.trim();
  const configurationSet = flags.configurationSet ?? env.SES_CONFIGURATION_SET?.trim();
  if (aws && !limitsTable) { io.err("error: pass --limits-table (or LIMITS_TABLE) with the stack's LimitsTable output: the hour's lead e-mails are counted there, with the handler's and the mailer's"); return Promise.resolve(1); }
  if (aws && !configurationSet) { io.err("error: pass --configuration-set (or SES_CONFIGURATION_SET) with the stack's SesConfigurationSet output: without it SES reports nothing of these sends, so a bounce raises no alarm"); return Promise.resolve(1); }
  const cap = Number(env.MAILS_PER_HOUR?.trim() || VOLUME_LIMITS.mailsPerHour.max);
  if (!Number.isInteger(cap) || cap < 1) { io.err(`error: MAILS_PER_HOUR is not a whole number of e-mails, 1 or more: '${env.MAILS_PER_HOUR}'`); return Promise.resolve(1); }
  return withStore(root, { ...flags, ...(limitsTable ? { limitsTable } : {}) }, io, async ({ store, counter }) => {
    const ses = createSesClient({ region: flags.region ?? 'eu-west-2', ...(sesEndpoint ? { endpoint: sesEndpoint, credentials: LOCAL_CREDENTIALS } : {}) });
    const log = (entry: { event: string; name?: unknown }) => io.err(`warning: ${entry.event}${entry.name ? ` (${String(entry.name)})` : ''}: the hourly cap could not be counted`);
    const mailer = { ses, store, mailTo, mailFrom, configurationSet, ...(counter ? { limits: { counter, mailsPerHour: cap } } : {}), ...(now ? { now } : {}) };
    // Leads stored before the index of unsent leads existed are given its keys first, so --unsent sees them.
    if (flags.unsent) {
      const indexed = await store.indexOlderLeads();
      if (indexed) io.out(`indexed ${indexed} unsent lead${indexed === 1 ? '' : 's'} stored before the index of unsent leads`);
    }
    const report = await resendLeads(mailer, { now: true, log, ...(flags.id?.length ? { ids: flags.id } : {}) });
    for (const id of report.sent) io.out(`sent ${id}`);
    for (const id of report.digested) io.out(`sent ${id} in a digest`);
    for (const id of report.unanswered) io.out(`sent ${id}, but SES did not answer in time: it may have arrived, and is not sent again for ${UNANSWERED_QUIET_MS / 60_000} minutes unless SES's events say it did not`);
    for (const f of report.failed) io.out(`failed ${f.submissionId}: ${f.kind}`);
    for (const u of report.uncertain) {
      io.out(u.from
        ? `waiting ${u.submissionId}: an earlier send got no answer from SES and may have arrived; it can be sent again from ${u.from}`
        : `held ${u.submissionId}: two sends got no answer from SES and either may have arrived; check the inbox, then send it with --id ${u.submissionId}`);
    }
    for (const aside of report.setAside) io.out(`set aside ${aside.submissionId}: ${aside.reason}; read it with site leads list, then send it with --id ${aside.submissionId} or erase it`);
    for (const id of report.errors) io.out(`error ${id}: the leads table failed its record this time; run again`);
    for (const id of report.notPending) io.out(`skipped ${id}: already sent, or no such lead`);
    const busy = report.waiting - report.uncertain.length;
    io.out(`${report.sent.length + report.digested.length} sent, ${report.failed.length} failed${report.unanswered.length ? `, ${report.unanswered.length} unanswered` : ''}${report.uncertain.length ? `, ${report.uncertain.length} waiting after an unanswered send` : ''}${busy ? `, ${busy} being sent by another run or waiting for the next digest` : ''}`);
    return report.failed.length + report.unanswered.length + report.errors.length > 0 ? 1 : 0;
  });
}

export async function leadsErase(root: string, flags: StoreFlags & { email: string }, io: Io): Promise<number> {
  let local: OpenedStore['local'];
  let erased = 0;
  const code = await withStore(root, flags, io, async (opened) => {
    erased = await opened.store.eraseEmail(flags.email);
    local = opened.local;
    io.out(`erased ${erased} record${erased === 1 ? '' : 's'} of ${flags.email.trim().toLowerCase()}`);
    return 0;
  });
  // The local store keeps a deleted record's bytes on disk until it is rewritten (lambda/leads/rewrite-local-store.ts).
  if (code === 0 && erased > 0 && local) {
    if (local.heldByServe) {
      await markErased(local.dataDir);
      io.out(`site serve holds the local store: it removes the erased records from ${DATA_DIR}/ when it stops (or starts next)`);
    } else {
      await rewriteLocalStore(local.dataDir);
    }
  }
  return code;
}
