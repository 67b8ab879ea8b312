// What both Lambda entries (the form handler and the retry mailer) build at cold start from
// their environment: the checked configuration, the SES client and the leads table.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ConfigError, readConfig, type HandlerConfig } from './config.ts';
import { leadStore, type LeadStore } from './leads/store.ts';
import { deliveryStore, type DeliveryStore } from './leads/ses-events.ts';
import { limitCounter } from './limits/counter.ts';
import type { VolumeLimits } from './limits/volume.ts';
import { jsonLogger } from './log.ts';
import { createSesClient, LOCAL_CREDENTIALS, type MailSender } from './ses-client.ts';

export function loadConfig(): HandlerConfig {
  try {
    return readConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      jsonLogger({ level: 'error', event: 'config_error', problems: error.problems });
    }
    throw error;
  }
}

// A local server needs a signature but not real keys.
const localCredentials = () => (process.env.AWS_ACCESS_KEY_ID ? {} : { credentials: LOCAL_CREDENTIALS });

export function sesClientFor(config: HandlerConfig): MailSender {
  return createSesClient({
    region: config.region,
    ...(config.sesEndpoint ? { endpoint: config.sesEndpoint, ...localCredentials() } : {}),
  });
}

export function leadStoreFor(config: HandlerConfig): LeadStore {
  return leadStore(dynamoClientFor(config), config.leadsTable);
}

/** Where SES's reports are written: the same leads table, through the same quick-to-give-up client. */
export function deliveryStoreFor(config: HandlerConfig): DeliveryStore {
  return deliveryStore(dynamoClientFor(config), config.leadsTable);
}

/** The volume limits' counters, in their own table, through a client as quick to give up as the store's. */
export function volumeLimitsFor(config: HandlerConfig): VolumeLimits {
  return { counter: limitCounter(dynamoClientFor(config), config.limitsTable), mailsPerHour: config.mailsPerHour };
}

function dynamoClientFor(config: HandlerConfig): DynamoDBClient {
  return new DynamoDBClient({
    region: config.region,
    // Two short attempts (at most about 3.5 s): an unreachable table answers the visitor 503 quickly,
    // and the SES send after it (one attempt of at most 6 s, ses-client.ts) and the write of its
    // outcome still fit the handler's 15 s.
    maxAttempts: 2,
    requestHandler: { requestTimeout: 1500, connectionTimeout: 1000, throwOnRequestTimeout: true },
    ...(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint, ...localCredentials() } : {}),
  });
}
