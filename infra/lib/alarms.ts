// An alarm for every way a lead can be lost or late, each e-mailed to the owner through the leads'
// alarm topic (and again when it clears). The figures are the Lambdas' own (AWS/Lambda) and the
// ones they log in embedded metric format (lambda/metrics.ts). Each description says what
// happened and what to run; `site leads list` shows every lead with its mail state.
//
// Event counts are sparse (a metric with nothing to count has no data point), so missing data is
// "nothing happened" for them; for the two figures that must keep arriving (the mailer's runs and
// its unsent count) it is the alarm. CloudWatch charges $0.10 a month for each metric an alarm
// watches (standard resolution, list price, 2025): these 19 alarms watch 20 (the refused-posts
// alarm divides one by another), about $2.00 a month, and the handler's three figures of every
// post (FormPosts, FormPostsRefused, HoneypotHits) are custom metrics at $0.30 a month each.
//
// CloudFront's and WAF's figures live in us-east-1, and an alarm can only watch, and notify, its
// own region: their alarms are in edge-alarms.ts and waf-stack.ts, each with a topic of its own.
import { Duration, Token } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { MAILER_EVERY_MINUTES } from '../../lambda/limits/settings.ts';
import { METRIC_NAMESPACE, METRICS, type MetricName } from '../../lambda/metrics.ts';
import type { SiteSettings } from './settings.ts';

/** Posts refused for volume in 5 minutes above which a flood is in progress (a person meets the limits once, if ever). */
export const RATE_LIMITED_ALARM_THRESHOLD = 20;

/**
 * The refused-posts alarm: in one hour, at least this many form posts refused with a 4xx (429
 * aside) that make up at least this share of the hour's posts. Normally next to none are: the page
 * checks every field before it posts, and a post from a page of the site passes the origin check.
 * A wrong ALLOWED_ORIGINS or origin secret refuses every post, so the share is 100%; a visitor
 * refused tries again, so a quiet site's single visitor makes two or three. The share keeps a
 * busy hour's odd refusal from firing it.
 */
export const REFUSED_POSTS_ALARM = { atLeast: 3, percent: 50, period: Duration.hours(1) } as const;

/** Honeypot hits in an hour that are a burst: a bot has found the forms (a few a day is the background). */
export const HONEYPOT_ALARM_THRESHOLD = 10;

export interface LeadAlarmsProps {
  settings: SiteSettings;
  topic: ITopic;
  table: ITable;
  /** The volume limits' table, where `site leads resend` counts the hour's lead e-mails with the handler and the mailer. */
  limitsTable: ITable;
  /** The SES configuration set every lead e-mail is sent with, so `site leads resend`'s sends raise SES's events too. */
  configurationSet: string;
  /** The form handler (index.handler), the retry mailer (index.resend) and the SES events Lambda (index.sesEvents). */
  handler: LambdaFunction;
  mailer: LambdaFunction;
  sesEvents: LambdaFunction;
}

const FIVE_MINUTES = Duration.minutes(5);

/**
 * A word for a POSIX shell: as it is when it needs no quoting, else in single quotes. A name
 * CloudFormation fills in (a token here) is left as it is: its names are letters, digits and dashes.
 */
export function shellWord(word: string): string {
  return Token.isUnresolved(word) || /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `site leads <command>` on the stack's table, as an alarm prints it for the owner to paste into a shell. */
export function leadsCommand(command: string, flags: Record<string, string>, leading: readonly string[] = []): string {
  const options = Object.entries(flags).map(([name, value]) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${shellWord(value)}`);
  return ['site leads', command, ...leading, ...options].join(' ');
}

/** The resend the alarms name: every unsent lead, counted in the limits table and sent through the configuration set, as the mailer sends. */
export function resendCommand(flags: { table: string; region: string; limitsTable: string; configurationSet: string; mailTo: string; mailFrom: string }): string {
  return leadsCommand('resend', flags, ['--unsent']);
}

/**
 * Defines the alarms in `scope` (the Leads construct, so the unsent alarm keeps the logical id it
 * had when it was defined there) and answers them by construct id.
 */
export function defineLeadAlarms(scope: Construct, props: LeadAlarmsProps): Record<string, Alarm> {
  const { settings, topic, table, handler, mailer, sesEvents } = props;
  const list = `\`${leadsCommand('list', { table: table.tableName, region: settings.region })}\``;
  const resend = `\`${resendCommand({ table: table.tableName, region: settings.region, limitsTable: props.limitsTable.tableName, configurationSet: props.configurationSet, mailTo: settings.mailTo, mailFrom: settings.mailFrom })}\``;
  const logs = (fn: LambdaFunction) => `its log group (${fn.logGroup.logGroupName}) in CloudWatch Logs, region ${settings.region}`;
  const site = settings.domainName;

  const leadMetric = (name: MetricName, statistic = 'Sum', period = FIVE_MINUTES) =>
    new Metric({ namespace: METRIC_NAMESPACE, metricName: name, statistic, period });
  const lambdaMetric = (fn: LambdaFunction, name: string, period = FIVE_MINUTES) => fn.metric(name, { statistic: 'Sum', period });

  const alarms: Record<string, Alarm> = {};
  const alarm = (id: string, description: string, metric: IMetric, options: {
    threshold?: number; comparison?: ComparisonOperator; missing?: TreatMissingData; periods?: number;
  } = {}) => {
    const created = new Alarm(scope, id, {
      alarmDescription: description,
      metric,
      threshold: options.threshold ?? 1,
      comparisonOperator: options.comparison ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: options.periods ?? 1,
      datapointsToAlarm: options.periods ?? 1,
      treatMissingData: options.missing ?? TreatMissingData.NOT_BREACHING,
    });
    created.addAlarmAction(new SnsAction(topic));
    created.addOkAction(new SnsAction(topic));
    alarms[id] = created;
  };

  // The mailer logs the count of leads unsent for over 30 minutes on every run. No figure at all
  // means the mailer is not running or failing before it logs: that is as bad.
  alarm('UnsentAlarm',
    `A lead to ${site} is still not e-mailed 30 minutes after it arrived (or the retry mailer is not running). It is safe in the table: see it with ${list}; once the cause is fixed, ${resend} sends it at once.`,
    leadMetric(METRICS.stuck, 'Maximum', Duration.minutes(10)), { missing: TreatMissingData.BREACHING });

  alarm('StoreErrorsAlarm',
    `The leads table of ${site} refused a valid lead: the visitor was told to try again later (503) and nothing was stored or mailed, so unless they retry it is lost. Check the table in the DynamoDB console and the handler's log in ${logs(handler)}; ${list} shows what did arrive.`,
    leadMetric(METRICS.storeErrors));

  alarm('HandlerServerErrorsAlarm',
    `The form handler of ${site} answered a post with a server error (5xx): a visitor may have been turned away. Read ${logs(handler)}, then ${list} to see which leads did arrive.`,
    lambdaMetric(handler, 'Url5xxCount'));

  alarm('HandlerErrorsAlarm',
    `The form handler of ${site} failed (an exception or a timeout): that post got no proper answer. Read ${logs(handler)}; ${list} shows whether its lead was stored.`,
    lambdaMetric(handler, 'Errors'));

  alarm('HandlerThrottlesAlarm',
    `Lambda refused to run the form handler of ${site} (throttled): visitors' posts are being turned away, by a flood or by the account's concurrency limit. See the form handler's metrics in the Lambda console; ${list} shows what arrived.`,
    lambdaMetric(handler, 'Throttles'));

  alarm('MailerErrorsAlarm',
    `The retry mailer of ${site} failed (an exception or a timeout), so unsent leads are not being retried. Read ${logs(mailer)}; ${list} shows which leads are unsent, and ${resend} sends them.`,
    lambdaMetric(mailer, 'Errors'));

  alarm('MailerThrottlesAlarm',
    `Lambda refused to run the retry mailer of ${site} (throttled), so unsent leads are not being retried. ${list} shows which are unsent, and ${resend} sends them.`,
    lambdaMetric(mailer, 'Throttles'));

  alarm('MailerNotRunningAlarm',
    `The retry mailer of ${site} has not run for 15 minutes (it should run every ${MAILER_EVERY_MINUTES}): unsent leads and digests wait until it does. Check its EventBridge schedule and the function in the Lambda console; ${resend} sends the unsent leads meanwhile.`,
    lambdaMetric(mailer, 'Invocations', Duration.minutes(15)),
    { comparison: ComparisonOperator.LESS_THAN_THRESHOLD, missing: TreatMissingData.BREACHING });

  // Set aside every run while it is: a damaged record, or a lead SES refused twice for its content.
  alarm('SetAsideAlarm',
    `The retry mailer of ${site} set a lead aside: its record is damaged, or SES refused its e-mail twice for what it holds. It is stored, and not sent again on its own. The mailer's "resend" log lines in ${logs(mailer)} name each one (setAside: its submissionId and why); ${list} shows it. Once it is mended (or read there), erase it, or send it with ${resend} given --id and its submissionId in place of --unsent.`,
    leadMetric(METRICS.setAside, 'Maximum'));

  // One failed send is retried within minutes; failures in three runs in a row are an outage.
  alarm('MailFailuresAlarm',
    `SES has refused or failed the lead e-mails of ${site} for 15 minutes: leads are stored but not reaching the inbox. The handler's and mailer's logs name the kind of failure (throttled, account: SES refused the account's sending or set-up, refused: one e-mail's content, unavailable, connection …); ${list} shows each lead's last error, and ${resend} sends them once SES is fixed.`,
    leadMetric(METRICS.mailFailures), { periods: 3 });

  alarm('DigestAlarm',
    `Leads of ${site} were held for the digest: more lead e-mails than the hourly cap arrived, or more posts than the limit named one e-mail address. They are stored and will come together in digest e-mails every ${MAILER_EVERY_MINUTES} minutes, real leads oldest first and the likely spam last, flagged, each with a link to reply; ${list} shows them all.`,
    leadMetric(METRICS.digested, 'Sum', Duration.minutes(MAILER_EVERY_MINUTES)));

  alarm('BouncesAlarm',
    `A lead e-mail of ${site} bounced: the inbox ${settings.mailTo} (or its mail server) refused it, and later ones may be refused too. ${list} shows the leads marked bounced with the reason; fix the inbox, then read them there or resend them.`,
    leadMetric(METRICS.bounces));

  alarm('ComplaintsAlarm',
    `A lead e-mail of ${site} was reported as spam by the inbox ${settings.mailTo}: SES counts complaints against the sending account, and the inbox may be filtering leads away. Mark lead e-mails as not spam; ${list} shows the leads marked complained.`,
    leadMetric(METRICS.complaints));

  alarm('RateLimitedAlarm',
    `More than ${RATE_LIMITED_ALARM_THRESHOLD} posts to the forms of ${site} were refused for volume in 5 minutes: a flood is in progress. Real visitors are unaffected unless it comes from their own address; ${list} shows what was accepted.`,
    leadMetric(METRICS.rateLimited), { threshold: RATE_LIMITED_ALARM_THRESHOLD, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD });

  // Refused posts as a share of all posts, counted only once there are enough refusals to mean
  // something; an hour without posts (no data) is 0.
  const posts = leadMetric(METRICS.formPosts, 'Sum', REFUSED_POSTS_ALARM.period);
  const refused = leadMetric(METRICS.formPostsRefused, 'Sum', REFUSED_POSTS_ALARM.period);
  alarm('RefusedPostsAlarm',
    `At least ${REFUSED_POSTS_ALARM.atLeast} form posts to ${site}, ${REFUSED_POSTS_ALARM.percent}% or more of the hour's, were refused with a 4xx: visitors are being turned away and their leads lost. `
      + `The handler's request lines in ${logs(handler)} give each refusal's reason: 'origin' for every post means ALLOWED_ORIGINS (the allowedOrigins setting) does not name the site's address; 'origin-secret' means CloudFront's secret header does not match the handler's (redeploy the Site stack); 'invalid' or 'malformed-json' from one address is a script. ${list} shows what did arrive.`,
    new MathExpression({
      expression: `IF(FILL(refused, 0) >= ${REFUSED_POSTS_ALARM.atLeast}, 100 * FILL(refused, 0) / FILL(posts, 1), 0)`,
      usingMetrics: { posts, refused },
      period: REFUSED_POSTS_ALARM.period,
      label: 'Form posts refused with a 4xx (%)',
    }),
    { threshold: REFUSED_POSTS_ALARM.percent });

  alarm('HoneypotAlarm',
    `${HONEYPOT_ALARM_THRESHOLD} or more posts to the forms of ${site} in an hour filled the hidden honeypot field: a bot has found the forms (or browsers are filling it). Each lead was answered as any other and stored flagged LIKELY SPAM, mailed only in a digest: ${list} shows them, in case a person's is among them. Nothing to do unless it keeps on (WAF limits each address); the handler's request lines with "spam": true in ${logs(handler)} give their times and forms.`,
    leadMetric(METRICS.honeypotHits, 'Sum', Duration.hours(1)),
    { threshold: HONEYPOT_ALARM_THRESHOLD });

  // Set by mail-events.ts, which points both the SNS subscription and the Lambda at it.
  const deadLetters = sesEvents.deadLetterQueue;
  if (!deadLetters) throw new Error('The SES events Lambda has no dead-letter queue to alarm on (mail-events.ts)');
  alarm('SesEventsDeadLettersAlarm',
    `An SES report on a lead e-mail of ${site} (a bounce, complaint or delivery) could not be written on its lead: SNS could not invoke the Lambda that records them, or it failed or was throttled past its retries, or the lead its send tag names was still not found after them (erased meanwhile, or the index of send ids far behind: a Reject among them means a lead recorded as sent never arrived). A bounce among them may have raised no bounce alarm. The reports are kept 14 days in the SQS queue ${deadLetters.queueName} (region ${settings.region}): read them there (Send and receive messages, Poll), fix the cause from ${logs(sesEvents)}, then delete them. ${list} shows the leads with no delivery report.`,
    deadLetters.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: FIVE_MINUTES }));

  // Throttled, SES's reports wait in Lambda's queue for up to six hours before they reach the
  // dead letters: this says so at once.
  alarm('SesEventsThrottlesAlarm',
    `Lambda refused to run the Lambda that writes SES reports on the leads of ${site} (throttled): bounces, complaints and deliveries are waiting, and after six hours go to its dead-letter queue. See its metrics in the Lambda console and ${logs(sesEvents)}; ${list} shows the leads with no delivery report yet.`,
    lambdaMetric(sesEvents, 'Throttles'));

  alarm('SesEventsErrorsAlarm',
    `The Lambda that writes SES bounces and complaints on the leads of ${site} failed: a bounce or complaint may not be shown on its lead in ${list} (its own alarm still fires). Read ${logs(sesEvents)}.`,
    lambdaMetric(sesEvents, 'Errors'));

  return alarms;
}
