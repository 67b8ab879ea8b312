// What SES says after it has taken a lead's e-mail: a configuration set every lead e-mail is sent
// with, publishing its bounces, complaints and deliveries to an SNS topic, and the small Lambda
// subscribed to it (the bundle's `sesEvents`, lambda/leads/ses-events.ts) that writes each on the
// lead (`mail.delivery`) and logs the bounce and complaint metrics the alarms watch. The e-mails go
// to the consultancy's own inbox, so a bounce means that inbox is refusing leads.
//
// Delivery reports are included: a few hundred SNS messages and Lambda runs a year are within the
// free tiers, and `site leads list` can then say which leads reached the inbox.
//
// A report that cannot be written is kept, not dropped: SNS hands each to the Lambda as an
// asynchronous invocation, so a report is lost either when SNS cannot invoke it at all (after its
// own retries) or when the Lambda fails or is throttled past its retries (two, within six hours).
// A report of a lead's send whose lead the eventually consistent index does not show yet fails on
// purpose (LeadNotFoundYet), so Lambda's retries, a minute or more apart, find it.
// Both go to one dead-letter queue, kept 14 days (SQS's longest), whose depth is alarmed
// (alarms.ts): a bounce that never reached its lead would otherwise also miss its own alarm, which
// the Lambda raises.
import { Duration, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ConfigurationSet, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { SES_CONFIGURATION_SET_ENV } from '../../lambda/leads/ses-events.ts';
import { MESSAGE_INDEX, SEND_INDEX } from '../../lambda/leads/record.ts';
import { leadsEnvironment } from './leads.ts';
import { LIMITS_TABLE_ENV } from '../../lambda/limits/table.ts';
import type { SiteSettings } from './settings.ts';

export interface MailEventsProps {
  settings: SiteSettings;
  /** Folder with the esbuild bundle, index.mjs: the events Lambda is its `sesEvents` export. */
  lambdaDir: string;
  /** The leads table, whose records the events are written on. */
  table: Table;
  /** The limits table: only named (the bundle's cold start reads every table's name), never touched. */
  limitsTable: Table;
}

export class MailEvents extends Construct {
  readonly configurationSet: ConfigurationSet;
  readonly topic: Topic;
  readonly handler: LambdaFunction;
  /** SES reports that never reached their lead: the subscription's and the Lambda's dead letters. */
  readonly deadLetters: Queue;

  constructor(scope: Construct, id: string, props: MailEventsProps) {
    super(scope, id);
    const { settings, table } = props;

    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {});
    this.topic = new Topic(this, 'Topic', { displayName: `SES reports on the lead e-mails of ${settings.domainName}` });
    // Also grants SES sns:Publish on the topic, for this configuration set only.
    this.configurationSet.addEventDestination('ToTopic', {
      destination: EventDestination.snsTopic(this.topic),
      // SEND and REJECT settle a send whose answer never came (lambda/leads/ses-events.ts).
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT, EmailSendingEvent.DELIVERY, EmailSendingEvent.SEND, EmailSendingEvent.REJECT],
    });

    this.deadLetters = new Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });

    const logGroup = new LogGroup(this, 'Logs', { retention: settings.logRetentionDays as RetentionDays });
    this.handler = new LambdaFunction(this, 'Handler', {
      description: `Writes SES bounces, complaints and deliveries on the leads of ${settings.domainName}`,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      handler: 'index.sesEvents',
      code: Code.fromAsset(props.lambdaDir, { exclude: ['*.zip'] }),
      memorySize: 256,
      timeout: Duration.seconds(30),
      // The bundle's cold start reads the whole lead configuration (lambda/handler.ts).
      environment: { ...leadsEnvironment(settings, table), [LIMITS_TABLE_ENV]: props.limitsTable.tableName, ALLOWED_ORIGINS: settings.allowedOrigins.join(',') },
      logGroup,
      // What it failed (or was throttled) on past its asynchronous retries: two, a minute or more apart (a lead the index did not show yet is found by then).
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      deadLetterQueue: this.deadLetters,
    });
    // Finds a report's leads through the index on their send's id (or SES's message id), never by
    // reading the table, and marks each.
    this.handler.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [table.tableArn] }));
    this.handler.addToRolePolicy(new PolicyStatement({
      actions: ['dynamodb:Query'],
      resources: [SEND_INDEX, MESSAGE_INDEX].map((index) => `${table.tableArn}/index/${index}`),
    }));
    // What SNS could not hand to the Lambda at all.
    this.topic.addSubscription(new LambdaSubscription(this.handler, { deadLetterQueue: this.deadLetters }));
  }

  /**
   * Lets a Lambda send the lead e-mails: ses:SendEmail as the verified identities and through this
   * configuration set (SES checks both when a send names a configuration set), whose name it is
   * given in SES_CONFIGURATION_SET.
   */
  allowSending(fn: LambdaFunction, settings: SiteSettings): void {
    const stack = Stack.of(this);
    fn.addToRolePolicy(new PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [
        ...settings.sesIdentity.map((identity) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity })),
        stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: this.configurationSet.configurationSetName }),
      ],
    }));
    fn.addEnvironment(SES_CONFIGURATION_SET_ENV, this.configurationSet.configurationSetName);
  }
}
