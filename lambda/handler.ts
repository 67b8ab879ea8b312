// Lambda entry point (nodejs22.x, handler `index.handler` once bundled). Configuration is read
// here, at cold start: if it is incomplete the init fails with one loud log line naming every
// problem, instead of each request failing quietly later. Tests and `site serve` build their
// handler with createHandler (create-handler.ts) and never import this module.
import { createHandler } from './create-handler.ts';
import { createResendJob } from './leads/resend-job.ts';
import { createSesEventsHandler } from './leads/ses-events.ts';
import { jsonLogger } from './log.ts';
import { deliveryStoreFor, loadConfig, leadStoreFor, sesClientFor, volumeLimitsFor } from './lambda-env.ts';

const config = loadConfig();

export const handler = createHandler({ ses: sesClientFor(config), leads: leadStoreFor(config), limits: volumeLimitsFor(config), config });

/** The retry mailer (same bundle, handler `index.resend`), run every 5 minutes by the stack's schedule. */
export const resend = createResendJob({ ses: sesClientFor(config), leads: leadStoreFor(config), limits: volumeLimitsFor(config), config, log: jsonLogger });

/** SES's bounce, complaint and delivery reports (handler `index.sesEvents`), from the stack's SNS topic. */
export const sesEvents = createSesEventsHandler({ store: deliveryStoreFor(config), log: jsonLogger });
