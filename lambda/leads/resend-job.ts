// The scheduled retry mailer's Lambda body: one resend run, and its figures written to the log in
// CloudWatch's embedded metric format, so the stack's alarm can watch leads stuck for 30 minutes
// without a PutMetricData permission or call.
import type { HandlerConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import type { MailSender } from '../ses-client.ts';
import type { VolumeLimits } from '../limits/volume.ts';
import { METRICS, metricFields } from '../metrics.ts';
import { resendLeads, type ResendReport } from './resend.ts';
import type { LeadStore } from './store.ts';

/** Leads still unsent more than 30 minutes after they arrived; the alarm fires on 1 or more. */
export const STUCK_METRIC = METRICS.stuck;

export interface ResendJobOptions {
  ses: MailSender;
  leads: LeadStore;
  config: Pick<HandlerConfig, 'mailTo' | 'mailFrom' | 'sesConfigurationSet'>;
  /** The hourly cap on lead e-mails: past it, this run sends what is due as one digest. */
  limits?: VolumeLimits;
  log: Logger;
  now?: () => Date;
}

export function createResendJob(options: ResendJobOptions): () => Promise<ResendReport> {
  return async () => {
    const now = options.now ?? (() => new Date());
    const report = await resendLeads(
      { ses: options.ses, store: options.leads, mailTo: options.config.mailTo, mailFrom: options.config.mailFrom, configurationSet: options.config.sesConfigurationSet, limits: options.limits, now },
      { log: options.log },
    );
    options.log({
      level: report.stuck > 0 || report.setAside.length > 0 || report.errors.length > 0 ? 'error' : 'info',
      event: 'resend',
      sent: report.sent.length,
      digested: report.digested.length,
      failed: report.failed.length,
      failedKinds: report.failed.map((f) => f.kind),
      // Sent, but with no answer from SES: they may have arrived (settled by SES's events or the quiet period).
      unanswered: report.unanswered.length,
      uncertain: report.uncertain.length,
      waiting: report.waiting,
      // Each lead set aside by its id and why (a damaged record, or one SES refused twice): what the set-aside alarm points to.
      setAside: report.setAside,
      // Leads whose records the table failed this run: the rest of the run went on.
      errors: report.errors,
      [STUCK_METRIC]: report.stuck,
      [METRICS.digested]: report.digested.length,
      [METRICS.mailFailures]: report.failed.length,
      [METRICS.setAside]: report.setAside.length,
      ...metricFields(now(), [STUCK_METRIC, METRICS.digested, METRICS.mailFailures, METRICS.setAside]),
    });
    return report;
  };
}
