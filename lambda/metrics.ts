// The figures the Lambdas write to their logs in CloudWatch's embedded metric format (no
// PutMetricData permission or call), and that the stack's alarms watch (infra/lib/alarms.ts).

export const METRIC_NAMESPACE = 'Site/Leads';

export const METRICS = {
  /** Leads still unsent more than 30 minutes after they arrived (the scheduled mailer, every run). */
  stuck: 'UnsentLeadsOver30Min',
  /** A valid lead the table refused to store: the visitor was answered 503. */
  storeErrors: 'LeadStoreErrors',
  /** Posts refused with 429 for volume (per address or per e-mail address). */
  rateLimited: 'LeadsRateLimited',
  /** Leads held for the digest: past the hourly e-mail cap, their network's share of it, or a limit that holds rather than refuses. */
  digested: 'LeadsHeldForDigest',
  /** Leads the mailer set aside for the owner (a damaged record, or one SES refused twice), every run while they are: their ids are on the same log line. */
  setAside: 'LeadsSetAside',
  /** A send to SES that failed (handler or mailer). */
  mailFailures: 'LeadMailFailures',
  /** SES reported a bounce for a lead's e-mail. */
  bounces: 'LeadMailBounces',
  /** SES reported a complaint for a lead's e-mail. */
  complaints: 'LeadMailComplaints',
  /** A form post that came the way a visitor's does (through CloudFront, where the stack puts it in front): answer-metrics.ts. */
  formPosts: 'FormPosts',
  /** One of those answered 4xx, other than 429 (LeadsRateLimited): refused, so the visitor's lead was lost unless they fix it. */
  formPostsRefused: 'FormPostsRefused',
  /** A post with the hidden honeypot field filled: answered as any other, its lead stored flagged as likely spam and mailed only in the digest. */
  honeypotHits: 'HoneypotHits',
} as const;

export type MetricName = (typeof METRICS)[keyof typeof METRICS];

/** The `_aws` member of a log line that makes CloudWatch read `names` on it as metrics. */
export function metricFields(at: Date, names: readonly MetricName[]): { _aws: unknown } {
  return {
    _aws: {
      Timestamp: at.getTime(),
      CloudWatchMetrics: [{ Namespace: METRIC_NAMESPACE, Dimensions: [[]], Metrics: names.map((Name) => ({ Name, Unit: 'Count' })) }],
    },
  };
}
