// Everything `site serve` needs to run the form endpoint locally in one call: a local leads table
// (dynalite, on disk so leads survive restarts), a local SES server (or the one SES_ENDPOINT
// names), the same handler as production pointed at them, and a node:http listener to mount at
// the endpoint's path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_RETENTION_MONTHS } from './config.ts';
import { createHandler } from './create-handler.ts';
import { startLocalStore } from './leads/local-store.ts';
import { leadStore } from './leads/store.ts';
import { rewriteIfErased } from './leads/rewrite-local-store.ts';
import { limitCounter } from './limits/counter.ts';
import { LIMITS } from './limits/settings.ts';
import { startLocalSes } from './local-ses.ts';
import type { Logger } from './log.ts';
import { nodeListener } from './node-adapter.ts';
import { createSesClient, LOCAL_CREDENTIALS } from './ses-client.ts';

export interface LocalFormBackendOptions {
  /** Origins the site is served from, e.g. http://localhost:4321 and http://127.0.0.1:4321. */
  allowedOrigins: readonly string[];
  mailTo?: string;
  mailFrom?: string;
  log?: Logger;
  /** Where the leads table keeps its data (`.site-data/leads` for `site serve`); in memory when unset. */
  dataDir?: string;
  /** An SES-compatible endpoint to send through instead of starting one (SES_ENDPOINT). */
  sesEndpoint?: string;
  retentionMonths?: number;
  /**
   * The production volume limits (5 posts per address in 10 minutes, …), on by default so that
   * `site serve` answers as the deployed site does; tests that post many forms turn them off.
   */
  limits?: boolean;
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
  const ses = options.sesEndpoint ? undefined : await startLocalSes();
  const sesEndpoint = options.sesEndpoint ?? ses?.endpoint ?? '';
  const region = 'eu-west-2';
  const client = store.client();
  const handler = createHandler({
    // One attempt, quickly: locally a closed SES_ENDPOINT is an outage being tried on purpose.
    ses: createSesClient({ region, endpoint: sesEndpoint, credentials: LOCAL_CREDENTIALS, ...(options.sesEndpoint ? { maxAttempts: 1 } : {}) }),
    leads: leadStore(client, store.table),
    ...(options.limits === false ? {} : { limits: { counter: limitCounter(client, store.limitsTable), mailsPerHour: LIMITS.mailsPerHour.max } }),
    config: {
      mailTo: options.mailTo ?? 'leads@example.com',
      mailFrom: options.mailFrom ?? 'Website <website@example.com>',
      allowedOrigins: options.allowedOrigins,
      region,
      leadsTable: store.table,
      limitsTable: store.limitsTable,
      mailsPerHour: LIMITS.mailsPerHour.max,
      retentionMonths: options.retentionMonths ?? DEFAULT_RETENTION_MONTHS,
    },
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    listener: nodeListener(handler),
    ...(ses ? { mailViewerUrl: ses.viewerUrl } : {}),
    sesEndpoint,
    store: { endpoint: store.endpoint, table: store.table, ...(store.dataDir ? { dataDir: store.dataDir } : {}) },
    close: async () => {
      client.destroy();
      await Promise.all([ses?.close(), store.close()]);
      if (options.dataDir) await rewriteIfErased(options.dataDir);
    },
  };
}
