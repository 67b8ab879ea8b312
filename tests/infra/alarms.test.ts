// CDK assertions on the alarms of the paths that used to fail silently: visitors refused by the
// form handler, honeypot hits, WAF blocks, CloudFront's 5xx and function errors, SES reports that
// never reached their lead; and where every alarm is e-mailed (alarmTo). Synthesised as `cdk synth`
// does it (infra/lib/define-app.ts), from a fresh `site build` and Lambda bundle.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { leadFieldValues } from '../../forms/fields.ts';
import { ensureLeadTable, ensureLimitsTable, startLocalStore } from '../../lambda/leads/local-store.ts';
import { leadStore } from '../../lambda/leads/store.ts';
import { startLocalSes } from '../../lambda/local-ses.ts';
import { main } from '../../src/cli.ts';
import { buildLambda } from '../../lambda/bundle-lambda.ts';
import { METRIC_NAMESPACE, METRICS } from '../../lambda/metrics.ts';
import { buildSite } from '../../src/pipeline/build.ts';
import { deployDirFor } from '../../src/output/layout.ts';
import { HONEYPOT_ALARM_THRESHOLD, REFUSED_POSTS_ALARM } from '../../infra/lib/alarms.ts';
import { defineApp } from '../../infra/lib/define-app.ts';
import { EDGE_5XX_ALARM } from '../../infra/lib/edge-alarms.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A command line split as a POSIX shell splits it (plain words and single-quoted ones, which is all the alarms print). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const [, quoted, plain] of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(quoted !== undefined ? quoted.replaceAll(`'\\''`, "'") : plain!);
  return words;
}
const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
const SETTINGS = { domainName: 'www.example.co.uk', certificateArn: CERT, mailTo: 'leads@example.co.uk', mailFrom: 'Website <web@example.co.uk>' };
const DISTRIBUTION = 'E2QWRUHAPOMQZL';

type Resource = { Type: string; Properties: Record<string, any> };
const entries = (template: Template, type: string) => Object.entries(template.findResources(type)) as Array<[string, Resource]>;

let work: string;
let deployDir: string;

function synth(context: Record<string, unknown> = {}) {
  const app = new App({ context: { ...SETTINGS, deployDir, ...context } });
  return defineApp(app, {});
}

/** The alarm with this construct id (its logical id starts with the path of ids, without slashes). */
function alarm(template: Template, idPrefix: string): Record<string, any> {
  const found = entries(template, 'AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith(idPrefix));
  expect(found.map(([id]) => id), idPrefix).toHaveLength(1);
  return found[0]![1].Properties;
}

/** The metrics a metric-math alarm combines, by their id in its expression. */
function mathInputs(props: Record<string, any>): Record<string, { namespace: string; name: string; stat: string; period: number; dimensions: Record<string, unknown> }> {
  return Object.fromEntries((props.Metrics as Array<Record<string, any>>).filter((m) => m.MetricStat).map((m) => [m.Id, {
    namespace: m.MetricStat.Metric.Namespace,
    name: m.MetricStat.Metric.MetricName,
    stat: m.MetricStat.Stat,
    period: m.MetricStat.Period,
    dimensions: Object.fromEntries(((m.MetricStat.Metric.Dimensions ?? []) as Array<{ Name: string; Value: unknown }>).map((d) => [d.Name, d.Value])),
  }]));
}
const expressionOf = (props: Record<string, any>) => (props.Metrics as Array<Record<string, any>>).find((m) => m.ReturnData !== false)!.Expression as string;

/** The stack's one alarm topic, which must e-mail `address`, and the logical id alarms name it by. */
function alarmTopic(template: Template, address: string): string {
  const topics = entries(template, 'AWS::SNS::Topic').filter(([id]) => /AlarmTopic/.test(id));
  expect(topics).toHaveLength(1);
  const [topic] = topics[0]!;
  const emails = entries(template, 'AWS::SNS::Subscription').map(([, s]) => s.Properties).filter((s) => s.Protocol === 'email');
  expect(emails).toEqual([expect.objectContaining({ Endpoint: address, TopicArn: { Ref: topic } })]);
  return topic;
}

/** Every alarm of the stack tells this topic of the stack when it fires and when it clears: a CloudWatch alarm can only notify its own region. */
function expectEveryAlarmTells(template: Template, topic: string) {
  const alarms = entries(template, 'AWS::CloudWatch::Alarm');
  expect(alarms.length).toBeGreaterThan(0);
  for (const [id, a] of alarms) {
    expect({ id, actions: a.Properties.AlarmActions, ok: a.Properties.OKActions }).toEqual({ id, actions: [{ Ref: topic }], ok: [{ Ref: topic }] });
  }
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'site-alarms-'));
  await buildSite({ root: ROOT, outDir: path.join(work, 'dist') });
  deployDir = deployDirFor(path.join(work, 'dist'));
  await buildLambda({ outDir: path.join(deployDir, 'lambda') });
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  CloudAssembly.cleanupTemporaryDirectories();
});

describe('the alarms of the site region (the Site stack)', () => {
  let template: Template;
  beforeAll(() => { template = Template.fromStack(synth({ alarmTo: 'alarms@example.co.uk' }).site); });

  test("the refused-posts alarm: in an hour, at least 3 form posts refused with a 4xx that are at least half of the hour's posts, from the handler's own figures", () => {
    const props = alarm(template, 'LeadsRefusedPostsAlarm');
    expect(mathInputs(props)).toEqual({
      posts: { namespace: METRIC_NAMESPACE, name: METRICS.formPosts, stat: 'Sum', period: 3600, dimensions: {} },
      refused: { namespace: METRIC_NAMESPACE, name: METRICS.formPostsRefused, stat: 'Sum', period: 3600, dimensions: {} },
    });
    expect(REFUSED_POSTS_ALARM).toMatchObject({ atLeast: 3, percent: 50 });
    // The share in percent, once there are at least 3 refusals; an hour with none, or no posts at all, is 0.
    expect(expressionOf(props)).toBe('IF(FILL(refused, 0) >= 3, 100 * FILL(refused, 0) / FILL(posts, 1), 0)');
    expect(props).toMatchObject({ Threshold: 50, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    // It names the two configuration mistakes by the reasons the handler logs.
    expect(JSON.stringify(props.AlarmDescription)).toMatch(/'origin'[^]*ALLOWED_ORIGINS[^]*'origin-secret'/);
  });

  test('the honeypot alarm: 10 or more hits in an hour is a bot at the forms', () => {
    expect(HONEYPOT_ALARM_THRESHOLD).toBe(10);
    expect(alarm(template, 'LeadsHoneypotAlarm')).toMatchObject({
      Namespace: METRIC_NAMESPACE, MetricName: METRICS.honeypotHits, Statistic: 'Sum', Period: 3600,
      Threshold: 10, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching',
    });
  });

  test("SES's reports have a dead-letter queue, for SNS (the subscription) and for the Lambda (past its retries), kept 14 days, and its depth is alarmed", () => {
    const [[queue, { Properties: q }]] = entries(template, 'AWS::SQS::Queue') as [[string, Resource]];
    expect(q).toMatchObject({ MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });
    const queueArn = { 'Fn::GetAtt': [queue, 'Arn'] };

    const [sesEventsId, sesEvents] = entries(template, 'AWS::Lambda::Function').find(([, f]) => f.Properties.Handler === 'index.sesEvents')!;
    const subscription = entries(template, 'AWS::SNS::Subscription').map(([, s]) => s.Properties).find((s) => s.Protocol === 'lambda')!;
    expect(subscription).toMatchObject({ Endpoint: { 'Fn::GetAtt': [sesEventsId, 'Arn'] }, RedrivePolicy: { deadLetterTargetArn: queueArn } });
    expect(sesEvents.Properties.DeadLetterConfig).toEqual({ TargetArn: queueArn });
    // A report whose lead the index does not show yet fails on purpose: Lambda runs it twice more, minutes apart, before dead-lettering it.
    const invokeConfig = entries(template, 'AWS::Lambda::EventInvokeConfig').map(([, c]) => c.Properties).find((c) => c.FunctionName?.Ref === sesEventsId);
    expect(invokeConfig).toMatchObject({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 6 * 3600 });

    // Only the SES reports' topic may put messages there, and nobody without TLS.
    const [[, policy]] = entries(template, 'AWS::SQS::QueuePolicy') as [[string, Resource]];
    expect(policy.Properties.Queues).toEqual([{ Ref: queue }]);
    expect(policy.Properties.PolicyDocument.Statement).toEqual([
      expect.objectContaining({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      expect.objectContaining({ Effect: 'Allow', Action: 'sqs:SendMessage', Principal: { Service: 'sns.amazonaws.com' }, Condition: { ArnEquals: { 'aws:SourceArn': { Ref: subscription.TopicArn.Ref } } } }),
    ]);

    expect(alarm(template, 'LeadsSesEventsDeadLettersAlarm')).toMatchObject({
      Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible', Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queue, 'QueueName'] } }],
      Statistic: 'Maximum', Period: 300, Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching',
    });
  });

  test('every `site leads` command an alarm names runs as printed, once CloudFormation has put in the names: on the tables and through the configuration set the stack made', async () => {
    // What CloudFormation makes of each description: a table's or the configuration set's Ref is its name.
    const physical = (id: string) => {
      const type = (template.toJSON().Resources[id] as Resource).Type;
      return type === 'AWS::DynamoDB::Table' ? `table-${id}` : type === 'AWS::SES::ConfigurationSet' ? `set-${id}` : `name-${id}`;
    };
    const resolve = (value: unknown): string => {
      if (typeof value === 'string') return value;
      const node = value as Record<string, any>;
      if (node['Fn::Join']) return (node['Fn::Join'][1] as unknown[]).map(resolve).join(node['Fn::Join'][0]);
      if (node.Ref) return physical(node.Ref);
      if (node['Fn::GetAtt']) return `attribute-${node['Fn::GetAtt'].join('-')}`;
      throw new Error(`an alarm description holds ${JSON.stringify(value)}`);
    };
    const commands = new Set<string>();
    for (const [, a] of entries(template, 'AWS::CloudWatch::Alarm')) {
      for (const [, command] of resolve(a.Properties.AlarmDescription).matchAll(/`(site leads [^`]+)`/g)) commands.add(command!);
    }
    expect([...commands].map((c) => c.split(' ').slice(0, 3).join(' ')).sort()).toEqual(['site leads list', 'site leads resend']);

    // The tables the commands name, in dynalite, and SES, both reached as the AWS SDK reaches a service's own endpoint.
    const local = await startLocalStore();
    const ses = await startLocalSes();
    const client = local.client();
    const leadsTable = physical(Object.keys(template.findResources('AWS::DynamoDB::Table')).find((id) => !/Limits/.test(id))!);
    const limitsTable = physical(Object.keys(template.findResources('AWS::DynamoDB::Table')).find((id) => /Limits/.test(id))!);
    const root = await mkdtemp(path.join(tmpdir(), 'site-alarm-commands-'));
    try {
      await ensureLeadTable(client, leadsTable);
      await ensureLimitsTable(client, limitsTable);
      await leadStore(client, leadsTable).putRaw({
        submissionId: 'alarm-command-lead', form: 'contact', receivedAt: new Date(Date.now() - 40 * 60_000).toISOString(),
        ...leadFieldValues({ name: 'Morag Campbell', email: 'morag@tayside-example.co.uk', message: 'Hello' }), emailKey: 'morag@tayside-example.co.uk',
        source: 'https://www.example.co.uk/contact', mail: { state: 'pending', attempts: 1, lastError: 'throttled', lastAttemptAt: new Date(Date.now() - 39 * 60_000).toISOString() }, expiresAt: 2_000_000_000,
      });
      for (const [name, value] of Object.entries({ AWS_ENDPOINT_URL_DYNAMODB: local.endpoint, AWS_ENDPOINT_URL_SES: ses.endpoint, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' })) vi.stubEnv(name, value);
      for (const name of ['LIMITS_TABLE', 'SES_CONFIGURATION_SET', 'SITE_MAIL_TO', 'SITE_MAIL_FROM', 'AWS_SESSION_TOKEN', 'AWS_PROFILE']) vi.stubEnv(name, undefined);
      for (const command of commands) {
        const out: string[] = [];
        const [site, ...args] = shellWords(command);
        expect(site).toBe('site');
        const code = await main(['node', 'site', '--root', root, ...args], { out: (line) => out.push(line), err: (line) => out.push(line) });
        expect({ command, code, out }).toMatchObject({ code: 0 });
      }
      // The resend sent the unsent lead, through the stack's configuration set.
      expect((await leadStore(client, leadsTable).get('alarm-command-lead'))?.mail.state).toBe('sent');
      expect([...commands].find((c) => c.includes('resend'))).toContain(`--configuration-set set-${Object.keys(template.findResources('AWS::SES::ConfigurationSet'))[0]}`);
    } finally {
      vi.unstubAllEnvs();
      client.destroy();
      await ses.close();
      await local.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  test('every alarm of the site region tells the leads alarm topic, which e-mails alarmTo', () => {
    expectEveryAlarmTells(template, alarmTopic(template, 'alarms@example.co.uk'));
  });
});

describe('the alarms of us-east-1, where CloudFront and WAF report', () => {
  test("WAF blocks: an alarm in the WAF stack (us-east-1), on any request its web ACL blocked, with the stack's own topic for alarmTo", () => {
    const { waf } = synth({ alarmTo: 'alarms@example.co.uk' });
    expect(waf!.region).toBe('us-east-1');
    const template = Template.fromStack(waf!);
    const [[, acl]] = entries(template, 'AWS::WAFv2::WebACL') as [[string, Resource]];
    const props = alarm(template, 'BlockedRequestsAlarm');
    // The web ACL's blocks across all its rules, by the metric name the web ACL reports under.
    expect(expressionOf(props)).toBe(`SELECT SUM(BlockedRequests) FROM "AWS/WAFV2" WHERE WebACL = '${acl.Properties.VisibilityConfig.MetricName}' AND Rule = 'ALL'`);
    expect(props.Metrics[0]).toMatchObject({ Period: 300 });
    expect(props).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    expect(props.AlarmDescription).toMatch(/20 requests to \/api\/\*[^]*Sampled requests/);
    expectEveryAlarmTells(template, alarmTopic(template, 'alarms@example.co.uk'));
  });

  test("CloudFront's alarms are a us-east-1 stack of their own once distributionId is given: the 5xx rate of that distribution and each routing function's errors, by the names the Site stack gives them", () => {
    const { site, edge } = synth({ alarmTo: 'alarms@example.co.uk', distributionId: DISTRIBUTION });
    expect(edge!.region).toBe('us-east-1');
    // Deployed after the site; no cross-region reference (so no custom resource), only its own resources.
    expect(edge!.dependencies).toContain(site);
    const template = Template.fromStack(edge!);
    expect(new Set(Object.values(template.toJSON().Resources as Record<string, Resource>).map((r) => r.Type)))
      .toEqual(new Set(['AWS::SNS::Topic', 'AWS::SNS::Subscription', 'AWS::CloudWatch::Alarm']));
    expect(JSON.stringify(template.toJSON())).not.toMatch(/Fn::ImportValue|Custom::/);

    const rate = alarm(template, 'ServerErrorRateAlarm');
    const distribution = { DistributionId: DISTRIBUTION, Region: 'Global' };
    expect(mathInputs(rate)).toEqual({
      requests: { namespace: 'AWS/CloudFront', name: 'Requests', stat: 'Sum', period: 300, dimensions: distribution },
      errorRate: { namespace: 'AWS/CloudFront', name: '5xxErrorRate', stat: 'Average', period: 300, dimensions: distribution },
    });
    expect(EDGE_5XX_ALARM).toMatchObject({ percent: 5, minRequests: 10 });
    expect(expressionOf(rate)).toBe('IF(FILL(requests, 0) >= 10, FILL(errorRate, 0), 0)');
    expect(rate).toMatchObject({ Threshold: 5, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });

    // One alarm for each CloudFront Function the Site stack deploys, watching it by its deployed name.
    const functions = entries(Template.fromStack(site), 'AWS::CloudFront::Function').map(([, f]) => f.Properties.Name as string);
    expect(functions).toHaveLength(2);
    const watched = entries(template, 'AWS::CloudWatch::Alarm').filter(([id]) => /FunctionErrorsAlarm/.test(id)).map(([, a]) => {
      const inputs = mathInputs(a.Properties);
      expect(expressionOf(a.Properties)).toBe('FILL(executionErrors, 0) + FILL(validationErrors, 0) + FILL(throttles, 0)');
      expect(Object.values(inputs).map((m) => `${m.namespace}/${m.name}/${m.stat}/${m.period}`)).toEqual(
        ['FunctionExecutionErrors', 'FunctionValidationErrors', 'FunctionThrottles'].map((n) => `AWS/CloudFront/${n}/Sum/300`));
      const names = new Set(Object.values(inputs).map((m) => m.dimensions.FunctionName));
      expect(Object.values(inputs).every((m) => m.dimensions.Region === 'Global')).toBe(true);
      expect(names.size).toBe(1);
      expect(a.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
      return [...names][0];
    });
    expect(watched.sort()).toEqual([...functions].sort());

    expectEveryAlarmTells(template, alarmTopic(template, 'alarms@example.co.uk'));
  });

  test('without distributionId there is no such stack, and synth says how to define it', () => {
    const { site, edge } = synth({ alarmTo: 'alarms@example.co.uk' });
    expect(edge).toBeUndefined();
    Annotations.fromStack(site).hasWarning('/Site', Match.stringLikeRegexp('distributionId is not set[^]*cdk deploy SiteEdgeAlarms -c distributionId='));
  });
});

describe('alarmTo', () => {
  const topicsOf = (stacks: Array<Stack | undefined>) => stacks.map((stack) => {
    const template = Template.fromStack(stack!);
    return entries(template, 'AWS::SNS::Subscription').map(([, s]) => s.Properties).filter((s) => s.Protocol === 'email').map((s) => s.Endpoint);
  });

  test('every alarm topic, in each region, e-mails alarmTo and nothing else', () => {
    const { site, waf, edge } = synth({ alarmTo: 'alarms@example.co.uk', distributionId: DISTRIBUTION });
    expect(topicsOf([site, waf, edge])).toEqual([['alarms@example.co.uk'], ['alarms@example.co.uk'], ['alarms@example.co.uk']]);
    expect(Annotations.fromStack(site).findWarning('*', Match.stringLikeRegexp('alarmTo'))).toEqual([]);
  });

  test('unset, it is mailTo, and synth warns that a bouncing inbox would swallow its own bounce alarm', () => {
    const { site, waf, edge } = synth({ distributionId: DISTRIBUTION });
    expect(topicsOf([site, waf, edge])).toEqual([['leads@example.co.uk'], ['leads@example.co.uk'], ['leads@example.co.uk']]);
    Annotations.fromStack(site).hasWarning('/Site', Match.stringLikeRegexp('alarms are e-mailed to mailTo \\(leads@example\\.co\\.uk\\)[^]*bounce alarm bounces'));
    // Set to the same inbox, it is the same risk, and the same warning.
    Annotations.fromStack(synth({ alarmTo: 'Leads@Example.co.uk' }).site).hasWarning('/Site', Match.stringLikeRegexp('alarms are e-mailed to mailTo'));
  });
});
