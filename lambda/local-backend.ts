// Everything `site serve` needs to run the form endpoint locally in one call: a local leads table
// (dynalite, on disk so leads survive restarts), a local SES server (or the one SES_ENDPOINT
// names), the same handler as production pointed at them, a node:http listener to mount at the
// endpoint's path, and the retry mailer on a short timer (local-mailer.ts), stopped by close().
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_RETENTION_MONTHS } from './config.ts';
import { createHandler } from './create-handler.ts';
import { createResendJob } from './leads/resend-job.ts';
import { startLocalMailer } from './local-mailer.ts';
import { startLocalStore } from './leads/local-store.ts';
import { leadStore } from './leads/store.ts';
import { rewriteIfErased } from './leads/rewrite-local-store.ts';
import { limitCounter } from './limits/counter.ts';
import { VOLUME_LIMITS } from './limits/settings.ts';
import { startLocalSes } from './local-ses.ts';
import { jsonLogger, type Logger } from './log.ts';
import { nodeListener } from './node-adapter.ts';
import { createSesClient, LOCAL_CREDENTIALS } from './ses-client.ts';

export interface LocalFormBackendOptions {
  /** Origins the site is served from, e.g. http://localhost:4321 and http://127.0.0.1:4321. */
  allowedOrigins: readonly string[];
  mailTo?: string;
  mailFrom?: string;
  log?: Logger;
  /** Where the leads table keeps its data (`.site/data/leads` for `site serve`); in memory when unset. */
  dataDir?: string;
  /** An SES-compatible endpoint to send through instead of starting one (SES_ENDPOINT). */
  sesEndpoint?: string;
  /** The local SES server started on a thread of its own (see startLocalSes). */
  sesOnOwnThread?: boolean;
  retentionMonths?: number;
  /**
   * The production volume limits (5 posts per address in 10 minutes, …), on by default so that
   * `site serve` answers as the deployed site does; tests that post many forms turn them off.
   */
  limits?: boolean;
  /** Lead e-mails an hour before the rest wait for the digest (VOLUME_LIMITS.mailsPerHour unless a test says otherwise). */
  mailsPerHour?: number;
  /** How often the mailer runs (LOCAL_MAILER_EVERY_MS unless a test says otherwise). */
  mailerEveryMs?: number;
  /** The clock of the handler and the mailer (tests move it on to make a lead due). */
  now?: () => Date;
}

export interface LocalFormBackend {
  /** Mount at the form endpoint's path (/api/send-contact-form by default). */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Web page showing every e-mail the site sent; print it at start. Undefined when SES_ENDPOINT was given. */
  mailViewerUrl?: string;
  sesEndpoint: string;
  /** The local DynamoDB endpoint, its table and where its data lives. */
  store: { endpoint: string; table: string; dataDir?: string };
  close(): Promise<void>;
}

export async function startLocalFormBackend(options: LocalFormBackendOptions): Promise<LocalFormBackend> {
  // Records erased through an earlier serve are still on disk until the store is rewritten.
  if (options.dataDir) await rewriteIfErased(options.dataDir);
  const store = await startLocalStore(options.dataDir ? { dataDir: options.dataDir } : {});
  const ses = options.sesEndpoint ? undefined : await startLocalSes({ ownThread: options.sesOnOwnThread });
  const sesEndpoint = options.sesEndpoint ?? ses?.endpoint ?? '';
  const region = 'eu-west-2';
  const client = store.client();
  const mailsPerHour = options.mailsPerHour ?? VOLUME_LIMITS.mailsPerHour.max;
  const mail = createSesClient({ region, endpoint: sesEndpoint, credentials: LOCAL_CREDENTIALS });
  const leads = leadStore(client, store.table);
  const limits = options.limits === false ? undefined : { counter: limitCounter(client, store.limitsTable), mailsPerHour };
  const log = options.log ?? jsonLogger;
  const config = {
    mailTo: options.mailTo ?? 'leads@example.com',
    mailFrom: options.mailFrom ?? 'Website <website@example.com>',
    allowedOrigins: options.allowedOrigins,
    region,
    leadsTable: store.table,
    limitsTable: store.limitsTable,
    mailsPerHour,
    retentionMonths: options.retentionMonths ?? DEFAULT_RETENTION_MONTHS,
  };
  const clock = options.now ? { now: options.now } : {};
  const handler = createHandler({ ses: mail, leads, ...(limits ? { limits } : {}), config, log, ...clock });
  // A run that sent nothing is not logged: every 10 seconds it would drown serve's console.
  const mailerLog: Logger = (entry) => {
    if (entry.event === 'resend' && !entry.sent && !entry.digested && !entry.failed && !entry.unanswered) return;
    log(entry);
  };
  const mailer = startLocalMailer(createResendJob({ ses: mail, leads, ...(limits ? { limits } : {}), config, log: mailerLog, ...clock }), { log, ...(options.mailerEveryMs ? { everyMs: options.mailerEveryMs } : {}) });
  return {
    listener: nodeListener(handler),
    ...(ses ? { mailViewerUrl: ses.viewerUrl } : {}),
    sesEndpoint,
    store: { endpoint: store.endpoint, table: store.table, ...(store.dataDir ? { dataDir: store.dataDir } : {}) },
    close: async () => {
      await mailer.stop();
      client.destroy();
      await Promise.all([ses?.close(), store.close()]);
      if (options.dataDir) await rewriteIfErased(options.dataDir);
    },
  };
}
