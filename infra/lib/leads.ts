// Where the leads live and what keeps them moving: the DynamoDB table every form submission is
// stored in before it is e-mailed, the small table of volume-limit counters, the scheduled retry
// mailer, and the owner's alarm topic (lambda/leads/: record.ts, resend.ts, resend-job.ts; the
// alarms themselves are in alarms.ts).
//
// The leads table: on-demand (a few leads a day), TTL on expiresAt (the retention period of
// content/site.yaml), point-in-time recovery, encrypted with the AWS-managed KMS key, kept if the
// stack is deleted. The form handler may put and update its own records and nothing else; reading
// and deleting are for the retry mailer and the owner's `site leads`. Nothing the Lambdas do reads
// the whole table: the mailer queries the sparse index of unsent leads, SES's events the index on
// their send's id (lambda/leads/record.ts).
//
// The limits table (lambda/limits/): one counter per window and key, each deleted by TTL soon after
// its window, so it holds minutes of data and nothing worth keeping: on-demand, no backups, removed
// with the stack. The handler and the mailer read the previous window's counter (GetItem: the
// windows slide) and add to the current one (UpdateItem with ADD, which creates it), and nothing more.
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { LEAD_KEY, LEAD_TABLE_SCHEMA, TTL_ATTRIBUTE, UNSENT_INDEX } from '../../lambda/leads/record.ts';
import { MAILER_EVERY_MINUTES } from '../../lambda/limits/settings.ts';
import { LIMIT_TTL_ATTRIBUTE, LIMITS_TABLE_ENV, LIMITS_TABLE_SCHEMA } from '../../lambda/limits/table.ts';
import type { SiteSettings } from './settings.ts';

export interface LeadsProps {
  settings: SiteSettings;
  /** Folder with the esbuild bundle, index.mjs: the retry mailer is its `resend` export. */
  lambdaDir: string;
}

/** How often the retry mailer runs (and so how often a digest may go out). */
export const RESEND_EVERY = Duration.minutes(MAILER_EVERY_MINUTES);

export class Leads extends Construct {
  readonly table: Table;
  readonly limits: Table;
  readonly mailer: LambdaFunction;
  /** Where every alarm of the leads is sent (alarms.ts): an e-mail subscription for alarmTo. */
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
    // The indexes of LEAD_TABLE_SCHEMA (lambda/leads/record.ts), which dynalite's tables are made with too.
    for (const index of LEAD_TABLE_SCHEMA.GlobalSecondaryIndexes) {
      const [partition, sort] = index.KeySchema;
      this.table.addGlobalSecondaryIndex({
        indexName: index.IndexName,
        partitionKey: { name: partition.AttributeName, type: AttributeType.STRING },
        ...(sort ? { sortKey: { name: sort.AttributeName, type: AttributeType.STRING } } : {}),
        projectionType: index.Projection.ProjectionType === 'ALL' ? ProjectionType.ALL : ProjectionType.KEYS_ONLY,
      });
    }

    const [limitKey] = LIMITS_TABLE_SCHEMA.KeySchema;
    this.limits = new Table(this, 'Limits', {
      partitionKey: { name: limitKey.AttributeName, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: LIMIT_TTL_ATTRIBUTE,
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.DESTROY,
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
        [LIMITS_TABLE_ENV]: this.limits.tableName,
        ALLOWED_ORIGINS: settings.allowedOrigins.join(','),
      },
      logGroup,
    });
    // It reads the unsent leads from their sparse index (a Query, never a Scan), and claims and marks each.
    this.mailer.addToRolePolicy(new PolicyStatement({
      actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
      resources: [this.table.tableArn],
    }));
    this.mailer.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${this.table.tableArn}/index/${UNSENT_INDEX}`] }));
    // It counts the lead e-mails of each hour too (VOLUME_LIMITS.mailsPerHour).
    this.mailer.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [this.limits.tableArn] }));
    new Rule(this, 'Schedule', {
      description: 'Runs the leads retry mailer',
      schedule: Schedule.rate(RESEND_EVERY),
      targets: [new LambdaTarget(this.mailer, { retryAttempts: 0 })],
    });

    this.topic = new Topic(this, 'AlarmTopic', { displayName: `Leads of ${settings.domainName}: something needs you` });
    this.topic.addSubscription(new EmailSubscription(settings.alarmTo));
  }

  /** Lets the form handler store leads (PutItem and UpdateItem) and count posts (GetItem and UpdateItem on the limits), and nothing more. */
  allowHandler(handler: LambdaFunction, settings: SiteSettings): void {
    handler.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], resources: [this.table.tableArn] }));
    handler.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [this.limits.tableArn] }));
    const environment = { ...leadsEnvironment(settings, this.table), [LIMITS_TABLE_ENV]: this.limits.tableName };
    for (const [name, value] of Object.entries(environment)) handler.addEnvironment(name, value);
  }
}

/** What every Lambda of the bundle reads at cold start about the leads (lambda/config.ts). */
export function leadsEnvironment(settings: SiteSettings, table: Table): Record<string, string> {
  return {
    MAIL_TO: settings.mailTo,
    MAIL_FROM: settings.mailFrom,
    LEADS_TABLE: table.tableName,
    LEAD_RETENTION_MONTHS: String(settings.leadRetentionMonths),
  };
}
