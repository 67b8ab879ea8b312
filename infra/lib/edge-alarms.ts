// CloudFront's alarms: the distribution's 5xx rate and the errors of its CloudFront Functions. Their
// figures are in us-east-1 whatever region the site is in, and a CloudWatch alarm can only watch,
// and notify an SNS topic in, its own region, so they are a us-east-1 stack of their own, with their
// own alarm topic for alarmTo.
//
// The stack needs the distribution's id, which only exists once the Site stack is deployed. It is
// given as a setting (distributionId, the Site stack's DistributionId output, SITE_DISTRIBUTION_ID
// as `site deploy` reads it), as the web ACL's ARN is given the other way: synth stays offline, with
// no cross-region reference and so no custom resource to carry one. Until it is set the stack is
// not defined and synth warns (define-app.ts). The functions' names need no setting: CDK derives
// them at synth from the Site stack's region and construct paths.
//
// Cost: $0.10 a month for each metric an alarm watches (CloudWatch list price, 2025): 2 for the
// error rate and 3 for each function, $0.80 a month with the two routing functions.
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';

/**
 * The 5xx alarm: in 5 minutes, at least this share of the distribution's answers were server
 * errors, over at least this many requests (one page view is a dozen or so). A static site's normal
 * is none: S3 does not fail, and the form handler's own 5xx have their alarm in the site's region.
 */
export const EDGE_5XX_ALARM = { percent: 5, minRequests: 10, period: Duration.minutes(5) } as const;

/** A CloudFront Function of the distribution: its construct id (for the alarm's id) and its name. */
export interface EdgeFunction {
  id: string;
  name: string;
}

export interface EdgeAlarmsStackProps extends StackProps {
  domainName: string;
  alarmTo: string;
  distributionId: string;
  functions: readonly EdgeFunction[];
}

export class EdgeAlarmsStack extends Stack {
  readonly alarmTopic: Topic;

  constructor(scope: Construct, id: string, props: EdgeAlarmsStackProps) {
    super(scope, id, props);
    const { domainName, distributionId } = props;
    this.alarmTopic = new Topic(this, 'AlarmTopic', { displayName: `CloudFront of ${domainName}: something needs you` });
    this.alarmTopic.addSubscription(new EmailSubscription(props.alarmTo));

    const cloudFront = (metricName: string, statistic: string, dimensionsMap: Record<string, string>) =>
      new Metric({ namespace: 'AWS/CloudFront', metricName, statistic, period: EDGE_5XX_ALARM.period, dimensionsMap: { ...dimensionsMap, Region: 'Global' } });
    const alarm = (alarmId: string, description: string, metric: IMetric, threshold: number) => {
      const created = new Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        datapointsToAlarm: 1,
        // CloudFront reports nothing for a quiet 5 minutes: nothing went wrong in them.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(new SnsAction(this.alarmTopic));
      created.addOkAction(new SnsAction(this.alarmTopic));
    };

    const monitoring = `the CloudFront console (distribution ${distributionId}, Monitoring; its figures are in us-east-1)`;
    const distribution = { DistributionId: distributionId };
    alarm('ServerErrorRateAlarm',
      `CloudFront answered ${EDGE_5XX_ALARM.percent}% or more of the requests to ${domainName} in 5 minutes with a server error (5xx): visitors are getting error pages instead of the site. `
        + `If the form handler's own alarms fired too, it is the forms; a failing CloudFront Function has its own alarm here; otherwise see ${monitoring}, and the bucket and the function URL origin.`,
      new MathExpression({
        expression: `IF(FILL(requests, 0) >= ${EDGE_5XX_ALARM.minRequests}, FILL(errorRate, 0), 0)`,
        usingMetrics: { requests: cloudFront('Requests', 'Sum', distribution), errorRate: cloudFront('5xxErrorRate', 'Average', distribution) },
        period: EDGE_5XX_ALARM.period,
        label: 'Server errors (% of requests)',
      }),
      EDGE_5XX_ALARM.percent);

    // One alarm per function for its three ways to fail a request: it threw, it returned something
    // CloudFront cannot use, or it ran over its compute limit. Each answers the visitor with a 503.
    for (const fn of props.functions) {
      const named = { FunctionName: fn.name };
      alarm(`${fn.id}FunctionErrorsAlarm`,
        `The CloudFront Function ${fn.name} of ${domainName} failed requests in the last 5 minutes (an exception, an invalid result or its compute limit): each one was answered with a 503 instead of a page. `
          + `The function is built by \`site build\` (.site/deploy/cloudfront/) and deployed with the Site stack; see its Monitoring tab in the CloudFront console (Functions, ${fn.name}), and deploy the last good build with \`cdk deploy Site\` if a new one broke it.`,
        new MathExpression({
          expression: 'FILL(executionErrors, 0) + FILL(validationErrors, 0) + FILL(throttles, 0)',
          usingMetrics: {
            executionErrors: cloudFront('FunctionExecutionErrors', 'Sum', named),
            validationErrors: cloudFront('FunctionValidationErrors', 'Sum', named),
            throttles: cloudFront('FunctionThrottles', 'Sum', named),
          },
          period: EDGE_5XX_ALARM.period,
          label: `Failed runs of ${fn.name}`,
        }),
        1);
    }
  }
}
