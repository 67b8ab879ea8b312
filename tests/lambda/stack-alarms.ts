// The stack's own alarms, as `cdk synth` defines them (infra/lib/define-app.ts, with placeholder
// build outputs: the alarms read none of them), and CloudWatch's evaluation of one over the figures
// the Lambdas logged in embedded metric format. The lead model judges "alarmed" by these, so an
// alarm it relies on that is removed from infra/, or whose metric, statistic or threshold changes,
// changes what the model sees.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { defineApp } from '../../infra/lib/define-app.ts';
import type { LogEntry, Logger } from '../../lambda/log.ts';
import { CMS_AUTH_DIR } from '../../src/output/layout.ts';

/** One single-metric alarm of the stack, as its template gives it. */
export interface AlarmRule {
  id: string;
  namespace: string;
  metricName: string;
  statistic: string;
  /** Seconds. */
  period: number;
  threshold: number;
  comparison: string;
  evaluationPeriods: number;
  datapointsToAlarm: number;
  treatMissingData: string;
}

/** The figure SQS reports for a queue's depth (the dead letters waiting): AWS/SQS ApproximateNumberOfMessagesVisible. */
export const QUEUE_DEPTH = { namespace: 'AWS/SQS', name: 'ApproximateNumberOfMessagesVisible' } as const;

/** One figure a Lambda logged (or, for SQS, the queue's depth at that moment). */
export interface Datapoint { namespace: string; name: string; at: number; value: number }

const SETTINGS = { domainName: 'www.example.co.uk', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b', mailTo: 'leads@example.co.uk', mailFrom: 'Website <web@example.co.uk>' };

/** The Site stack's single-metric alarms (metric-math ones aside), synthesised in-process. */
export function stackAlarms(): AlarmRule[] {
  const deployDir = mkdtempSync(path.join(tmpdir(), 'stack-alarms-'));
  try {
    for (const dir of ['cloudfront', 'lambda', CMS_AUTH_DIR]) mkdirSync(path.join(deployDir, dir));
    for (const file of ['cloudfront/viewer-request.js', 'cloudfront/viewer-response.js']) writeFileSync(path.join(deployDir, file), 'function handler(event) { return event.request; }\n');
    for (const file of ['lambda/index.mjs', `${CMS_AUTH_DIR}/index.mjs`]) writeFileSync(path.join(deployDir, file), 'export {};\n');
    writeFileSync(path.join(deployDir, 'headers.json'), JSON.stringify({ default: {}, paths: [] }));
    writeFileSync(path.join(deployDir, 'routing.json'), JSON.stringify({ pageUrls: ['/'], redirects: {}, fallbacks: [], notFound: '/404.html' }));
    const app = new App({ context: { ...SETTINGS, deployDir, waf: 'off' }, outdir: path.join(deployDir, 'out') });
    const { site } = defineApp(app, {});
    const alarms = Template.fromStack(site).findResources('AWS::CloudWatch::Alarm') as Record<string, { Properties: Record<string, any> }>;
    return Object.entries(alarms).filter(([, a]) => a.Properties.MetricName).map(([id, { Properties: p }]) => ({
      id,
      namespace: p.Namespace,
      metricName: p.MetricName,
      statistic: p.Statistic,
      period: p.Period,
      threshold: p.Threshold,
      comparison: p.ComparisonOperator,
      evaluationPeriods: p.EvaluationPeriods,
      datapointsToAlarm: p.DatapointsToAlarm ?? p.EvaluationPeriods,
      treatMissingData: p.TreatMissingData ?? 'missing',
    }));
  } finally {
    rmSync(deployDir, { recursive: true, force: true });
  }
}

/** The alarms watching this metric (none when infra/ defines none). */
export const watching = (rules: readonly AlarmRule[], namespace: string, metricName: string) =>
  rules.filter((r) => r.namespace === namespace && r.metricName === metricName);

function statistic(name: string, values: readonly number[]): number {
  if (name === 'Sum') return values.reduce((a, b) => a + b, 0);
  if (name === 'Maximum') return Math.max(...values);
  if (name === 'Minimum') return Math.min(...values);
  if (name === 'SampleCount') return values.length;
  if (name === 'Average') return values.reduce((a, b) => a + b, 0) / values.length;
  throw new Error(`no evaluation for the statistic ${name}`);
}

function breaches(comparison: string, value: number, threshold: number): boolean {
  switch (comparison) {
    case 'GreaterThanOrEqualToThreshold': return value >= threshold;
    case 'GreaterThanThreshold': return value > threshold;
    case 'LessThanThreshold': return value < threshold;
    case 'LessThanOrEqualToThreshold': return value <= threshold;
    default: throw new Error(`no evaluation for the comparison ${comparison}`);
  }
}

/**
 * Whether the alarm is in ALARM at `at` (epoch ms): of its last `evaluationPeriods` periods
 * (aligned to the period, the one holding `at` last), at least `datapointsToAlarm` breach. A period
 * with no datapoint breaches only when missing data is treated as breaching.
 */
export function inAlarm(rule: AlarmRule, datapoints: readonly Datapoint[], at: number): boolean {
  const ms = rule.period * 1000;
  const last = Math.floor(at / ms) * ms;
  let breaching = 0;
  for (let i = 0; i < rule.evaluationPeriods; i += 1) {
    const start = last - i * ms;
    const values = datapoints.filter((d) => d.namespace === rule.namespace && d.name === rule.metricName && d.at >= start && d.at < start + ms).map((d) => d.value);
    if (values.length === 0 ? rule.treatMissingData === 'breaching' : breaches(rule.comparison, statistic(rule.statistic, values), rule.threshold)) breaching += 1;
  }
  return breaching >= rule.datapointsToAlarm;
}

/** True when some alarm of the stack on this metric is in ALARM at `at`. */
export const alarmOn = (rules: readonly AlarmRule[], namespace: string, metricName: string, datapoints: readonly Datapoint[], at: number) =>
  watching(rules, namespace, metricName).some((rule) => inAlarm(rule, datapoints, at));

/** The figures of a log line in embedded metric format (none for any other line). */
export function datapointsOf(entry: LogEntry): Datapoint[] {
  const aws = entry._aws as { Timestamp: number; CloudWatchMetrics: { Namespace: string; Metrics: { Name: string }[] }[] } | undefined;
  if (!aws) return [];
  return aws.CloudWatchMetrics.flatMap((set) => set.Metrics.map(({ Name }) => ({ namespace: set.Namespace, name: Name, at: aws.Timestamp, value: Number(entry[Name]) })));
}

/** A logger that keeps the figures of every line, as CloudWatch Logs turns them into metrics. */
export function metricsLogger(into: Datapoint[]): Logger {
  return (entry) => { into.push(...datapointsOf(entry)); };
}
