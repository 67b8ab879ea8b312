// Where the leads live and what watches them: the DynamoDB table every form submission is stored
// in before it is e-mailed, the scheduled retry mailer, and the alarm for a lead still unsent after
// 30 minutes (lambda/leads/: record.ts, resend.ts, resend-job.ts).
//
// The table: on-demand (a few leads a day), TTL on expiresAt (the retention period of
// content/site.yaml), point-in-time recovery, encrypted with the AWS-managed KMS key, kept if the
// stack is deleted. The form handler may put and update its own records and nothing else; reading,
// scanning and deleting are for the retry mailer and the owner's `site leads`.
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { EMAIL_INDEX, LEAD_KEY, TTL_ATTRIBUTE } from '../../lambda/leads/record.ts';
import { STUCK_METRIC } from '../../lambda/leads/resend-job.ts';
import { METRIC_NAMESPACE } from '../../lambda/metrics.ts';
import type { SiteSettings } from './settings.ts';

export interface LeadsProps {
  settings: SiteSettings;
  /** Folder with the esbuild bundle, index.mjs: the retry mailer is its `resend` export. */
  lambdaDir: string;
}

/** How often the retry mailer runs. */
export const RESEND_EVERY = Duration.minutes(5);

export class Leads extends Construct {
  readonly table: Table;
  readonly mailer: LambdaFunction;
  readonly alarm: Alarm;
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: LeadsProps) {
    super(scope, id);
    const { settings } = props;

    this.table = new Table(this, 'Table', {
      partitionKey: { name: LEAD_KEY, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: EMAIL_INDEX,
      partitionKey: { name: 'emailKey', type: AttributeType.STRING },
      projectionType: ProjectionType.KEYS_ONLY,
    });

    const logGroup = new LogGroup(this, 'MailerLogs', { retention: settings.logRetentionDays as RetentionDays });
    this.mailer = new LambdaFunction(this, 'Mailer', {
      description: `Retries the e-mail of leads of ${settings.domainName} that SES has not yet accepted`,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      handler: 'index.resend',
      code: Code.fromAsset(props.lambdaDir, { exclude: ['*.zip'] }),
      memorySize: 256,
      timeout: Duration.minutes(1),
      // One run at a time; each lead is also claimed before it is sent (LeadStore.claim).
      reservedConcurrentExecutions: 1,
      environment: {
        ...leadsEnvironment(settings, this.table),
        ALLOWED_ORIGINS: settings.allowedOrigins.join(','),
      },
      logGroup,
    });
    this.mailer.addToRolePolicy(new PolicyStatement({
      actions: ['dynamodb:Scan', 'dynamodb:GetItem', 'dynamodb:UpdateItem'],
      resources: [this.table.tableArn],
    }));
    this.mailer.addToRolePolicy(sendEmailStatement(this, settings));
    new Rule(this, 'Schedule', {
      description: 'Runs the leads retry mailer',
      schedule: Schedule.rate(RESEND_EVERY),
      targets: [new LambdaTarget(this.mailer, { retryAttempts: 0 })],
    });

    this.topic = new Topic(this, 'AlarmTopic', { displayName: `Leads of ${settings.domainName} not e-mailed` });
    this.topic.addSubscription(new EmailSubscription(settings.alarmEmail));
    // The mailer logs the count of leads unsent for over 30 minutes on every run (embedded metric
    // format). No figure at all means the mailer is not running or failing before it logs: that
    // is as bad, so missing data counts as breaching.
    this.alarm = new Alarm(this, 'UnsentAlarm', {
      alarmDescription: `A lead to ${settings.domainName} is still not e-mailed 30 minutes after it arrived (or the retry mailer is not running). See it with \`site leads list --table ${'<table>'} --region ${settings.region}\`.`,
      metric: new Metric({ namespace: METRIC_NAMESPACE, metricName: STUCK_METRIC, statistic: 'Maximum', period: Duration.minutes(10) }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.BREACHING,
    });
    this.alarm.addAlarmAction(new SnsAction(this.topic));
    this.alarm.addOkAction(new SnsAction(this.topic));
  }

  /** Lets the form handler store leads: PutItem and UpdateItem on this table, and nothing more. */
  allowHandler(handler: LambdaFunction, settings: SiteSettings): void {
    handler.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], resources: [this.table.tableArn] }));
    for (const [name, value] of Object.entries(leadsEnvironment(settings, this.table))) handler.addEnvironment(name, value);
  }
}

function leadsEnvironment(settings: SiteSettings, table: Table): Record<string, string> {
  return {
    MAIL_TO: settings.mailTo,
    MAIL_FROM: settings.mailFrom,
    LEADS_TABLE: table.tableName,
    LEAD_RETENTION_MONTHS: String(settings.leadRetentionMonths),
  };
}

/** ses:SendEmail, only as the verified identities (the same statement as the form handler's). */
export function sendEmailStatement(scope: Construct, settings: SiteSettings): PolicyStatement {
  return new PolicyStatement({
    actions: ['ses:SendEmail'],
    resources: settings.sesIdentity.map((identity) => Stack.of(scope).formatArn({ service: 'ses', resource: 'identity', resourceName: identity })),
  });
}
