// Everything `site serve` needs to run the form endpoint locally in one call: a local SES
// server, the same handler as production pointed at it, and a node:http listener to mount at
// the endpoint's path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHandler } from './create-handler.ts';
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
}

export interface LocalFormBackend {
  /** Mount at the form endpoint's path (/api/send-contact-form by default). */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Web page showing every e-mail the site sent; print it at start. */
  mailViewerUrl: string;
  sesEndpoint: string;
  close(): Promise<void>;
}

export async function startLocalFormBackend(options: LocalFormBackendOptions): Promise<LocalFormBackend> {
  const ses = await startLocalSes();
  const region = 'eu-west-2';
  const handler = createHandler({
    ses: createSesClient({ region, endpoint: ses.endpoint, credentials: LOCAL_CREDENTIALS }),
    config: {
      mailTo: options.mailTo ?? 'leads@example.com',
      mailFrom: options.mailFrom ?? 'Website <website@example.com>',
      allowedOrigins: options.allowedOrigins,
      region,
    },
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    listener: nodeListener(handler),
    mailViewerUrl: ses.viewerUrl,
    sesEndpoint: ses.endpoint,
    close: () => ses.close(),
  };
}
