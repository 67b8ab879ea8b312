// The SES client every lead e-mail is sent through (the handler, the scheduled mailer, `site leads
// resend`): one attempt per SendEmail, a bounded request time, and a fresh SDK client after a
// failure, so one broken request cannot spoil the next.
//
// One attempt, because SendEmail is not idempotent: a request that timed out may still have been
// sent, and the SDK's retry would mail the lead again (a slow SES once gave three e-mails for one
// lead). A send that gets no answer is recorded as uncertain instead (ses-errors.ts, leads/mail-lead.ts)
// and left to SES's own events or a long quiet period (leads/resend.ts).
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
  /** Connect plus response, for the one attempt. */
  requestTimeoutMs?: number;
  connectionTimeoutMs?: number;
}

// SES answers SendEmail in a few hundred milliseconds, and seldom takes more than a second or two;
// 6 s is several times that. With the stores before the send (tens of milliseconds when DynamoDB is
// well) and the write of its outcome after it (at most about 3.5 s, lambda-env.ts), it stays inside
// the handler's 15 s Lambda timeout (infra/lib/form-backend.ts), so the outcome is always written.
export const SES_DEFAULTS = { maxAttempts: 1, requestTimeoutMs: 6000, connectionTimeoutMs: 1000 } as const;

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
    maxAttempts: SES_DEFAULTS.maxAttempts,
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
