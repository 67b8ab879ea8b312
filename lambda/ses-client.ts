// The SES client the handler sends through: a bounded request time, so a hung connection
// becomes a 503 rather than a Lambda timeout, and the SDK's own retries left on.
import { SESClient, type SendEmailCommand } from '@aws-sdk/client-ses';

/** What the handler needs of an SES client; SESClient satisfies it, and so can a test double. */
export interface MailSender {
  send(command: SendEmailCommand): Promise<unknown>;
}

export interface SesClientOptions {
  region: string;
  /** A local SES-compatible server; production leaves it unset. */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Total tries including the first (SDK default 3). */
  maxAttempts?: number;
  /** Per attempt, connect plus response. */
  requestTimeoutMs?: number;
  connectionTimeoutMs?: number;
}

// Three attempts of at most 3 s each plus backoff stay well inside a 15 s Lambda timeout
// and the 30 s limit of an API Gateway integration.
export const SES_DEFAULTS = { maxAttempts: 3, requestTimeoutMs: 3000, connectionTimeoutMs: 1000 } as const;

export function createSesClient(options: SesClientOptions): SESClient {
  return new SESClient({
    region: options.region,
    maxAttempts: options.maxAttempts ?? SES_DEFAULTS.maxAttempts,
    requestHandler: {
      requestTimeout: options.requestTimeoutMs ?? SES_DEFAULTS.requestTimeoutMs,
      connectionTimeout: options.connectionTimeoutMs ?? SES_DEFAULTS.connectionTimeoutMs,
      // Without this, @smithy/node-http-handler ≥ 4.4 only warns when requestTimeout passes.
      throwOnRequestTimeout: true,
    },
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });
}

/** A local server still wants a signed request, with any key; these stand in when none is configured. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;
