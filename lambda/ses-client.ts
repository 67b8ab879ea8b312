// The SES client the handler sends through: a bounded request time, so a hung connection
// becomes a 503 rather than a Lambda timeout, the SDK's own retries left on, and a fresh SDK
// client after a failure, so one broken request cannot spoil the next.
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

/**
 * The handler's SES client. After any failed send it carries on with a fresh SDK client: when
 * the SDK throws while writing a request (a lone surrogate makes its query serialiser throw
 * URIError), the serialiser keeps the half-written body and prefixes it to the next request,
 * so one bad lead would corrupt the next good one. Failures are rare; a new client is cheap.
 * The old one is not destroyed, since a concurrent send may still be using it; Node's agent
 * unrefs its idle sockets, so they hold nothing open.
 */
export function createSesClient(options: SesClientOptions): MailSender {
  let client = sdkClient(options);
  return {
    async send(command) {
      const used = client;
      try {
        return await used.send(command);
      } catch (error) {
        if (client === used) client = sdkClient(options);
        throw error;
      }
    },
  };
}

function sdkClient(options: SesClientOptions): SESClient {
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
