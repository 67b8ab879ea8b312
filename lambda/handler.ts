// Lambda entry point (nodejs22.x, handler `index.handler` once bundled). Configuration is read
// here, at cold start: if it is incomplete the init fails with one loud log line naming every
// problem, instead of each request failing quietly later. Tests and `site serve` build their
// handler with createHandler (create-handler.ts) and never import this module.
import { ConfigError, readConfig, type HandlerConfig } from './config.ts';
import { createHandler } from './create-handler.ts';
import { jsonLogger } from './log.ts';
import { createSesClient, LOCAL_CREDENTIALS } from './ses-client.ts';

function loadConfig(): HandlerConfig {
  try {
    return readConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      jsonLogger({ level: 'error', event: 'config_error', problems: error.problems });
    }
    throw error;
  }
}

const config = loadConfig();

const ses = createSesClient({
  region: config.region,
  ...(config.sesEndpoint
    ? {
        endpoint: config.sesEndpoint,
        // A local server needs a signature but not real keys.
        ...(process.env.AWS_ACCESS_KEY_ID ? {} : { credentials: LOCAL_CREDENTIALS }),
      }
    : {}),
});

export const handler = createHandler({ ses, config });
