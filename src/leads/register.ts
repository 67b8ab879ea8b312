// `site leads …` on the CLI. Only commander is loaded here; the AWS SDK and dynalite are imported
// when a leads command runs (see src/cli.ts: `site --help` stays light).
import { Command, InvalidArgumentError } from 'commander';
import type { Io } from './command.ts';
import { DATA_DIR } from '../output/layout.ts';

const storeOptions = (command: Command) => command
  .option('--table <name>', `a leads table in AWS (with --region); default: the local store under ${DATA_DIR}/leads`)
  .option('--region <region>', 'the AWS region of --table')
  .option('--endpoint <url>', "a DynamoDB-compatible endpoint (default: a running site serve's, else the local store)");

export function registerLeadsCommands(program: Command, io: Io, done: (code: number) => void): void {
  const root = () => program.opts<{ root: string }>().root;
  const leads = program.command('leads').description('list, export, resend and erase the leads the forms stored');

  storeOptions(leads.command('list').description('every lead, oldest first, and whether it was e-mailed'))
    .option('--json', 'print the records as JSON', false)
    .action(async (opts) => { const { leadsList } = await import('./command.ts'); done(await leadsList(root(), opts, io)); });

  storeOptions(leads.command('export').description('every lead as CSV (safe to open in a spreadsheet) or JSON'))
    .option('--format <format>', 'csv or json', (value: string) => {
      if (value !== 'csv' && value !== 'json') throw new InvalidArgumentError('expected csv or json');
      return value;
    }, 'csv')
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (opts) => { const { leadsExport } = await import('./command.ts'); done(await leadsExport(root(), opts, io)); });

  storeOptions(leads.command('resend').description('e-mail leads again: one (--id) or every unsent one (--unsent)'))
    .option('--id <submissionId...>', 'the lead(s) to send')
    .option('--unsent', 'every lead not yet e-mailed', false)
    .option('--ses-endpoint <url>', 'an SES-compatible endpoint (or SES_ENDPOINT); default: SES in --region')
    .option('--mail-to <address>', 'the inbox (or SITE_MAIL_TO)')
    .option('--mail-from <mailbox>', 'the verified sender (or SITE_MAIL_FROM)')
    .option('--limits-table <name>', "with --table: the stack's LimitsTable output (or LIMITS_TABLE), where the hourly cap on lead e-mails is counted")
    .option('--configuration-set <name>', "with --table: the stack's SesConfigurationSet output (or SES_CONFIGURATION_SET), so SES reports these sends")
    .action(async (opts) => { const { leadsResend } = await import('./command.ts'); done(await leadsResend(root(), opts, io)); });

  storeOptions(leads.command('erase').description('delete every record of an e-mail address (a data subject\'s erasure request)'))
    .requiredOption('--email <address>', 'the address, in any case')
    .action(async (opts) => { const { leadsErase } = await import('./command.ts'); done(await leadsErase(root(), opts, io)); });
}
