// The AWS WAF web ACL for the distribution, defined by default (waf=off leaves it out). A web ACL
// for CloudFront must be created in us-east-1 whatever region the site lives in, so it is a stack
// of its own; its ARN is then given to the site stack as a setting (webAclArn), which keeps synth
// offline: no cross-region lookups, and no custom resource to make them.
//
// It rate-limits each address that comes through CloudFront: tightly on /api/* (the form handler
// is the one thing here that costs money per request, and a person posts once or twice), loosely
// on the whole site. Direct hits on the Function URL never meet it: form-backend.ts says how those
// are kept from starving real visitors. Cost at us-east-1 list prices (2025): $5 a month for the
// web ACL, $1 a month for each of its 2 rules, and $0.60 per million requests it inspects (every
// request to the distribution): about $7 a month for a small site.
//
// Its alarm is here too: WAF's figures for a CloudFront web ACL are in us-east-1, and an alarm can
// only watch and notify its own region, so the stack has its own alarm topic for alarmTo. Any
// block is worth a look: it is either a script or a whole office behind one address (its people all
// turned away with a 403), and the web ACL's sampled requests tell which.
import { CfnOutput, Duration, Stack, Token, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';

/** The web ACL's metric name: the WebACL dimension of its figures in CloudWatch (AWS/WAFV2). */
export const WEB_ACL_METRIC_NAME = 'site';

export interface WafStackProps extends StackProps {
  /** Requests per IP per 5 minutes to /api/* (the form handler) before blocking. */
  apiRateLimit: number;
  /** Requests per IP per 5 minutes to anything before blocking. */
  siteRateLimit: number;
  /** The site's host name, for the alarm's words. */
  domainName: string;
  /** Where the blocked-requests alarm is e-mailed. */
  alarmTo: string;
}

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

export class WafStack extends Stack {
  readonly webAcl: CfnWebACL;
  readonly alarmTopic: Topic;

  constructor(scope: Construct, id: string, props: WafStackProps) {
    super(scope, id, props);
    if (!Token.isUnresolved(this.region) && this.region !== 'us-east-1') {
      throw new Error(`The WAF stack must be in us-east-1 (CloudFront's web ACLs live there), not ${this.region}`);
    }

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(WEB_ACL_METRIC_NAME),
      rules: [
        {
          name: 'api-rate-limit',
          priority: 0,
          action: { block: {} },
          visibilityConfig: visibility('api-rate-limit'),
          statement: {
            rateBasedStatement: {
              limit: props.apiRateLimit,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: 'STARTS_WITH',
                  searchString: '/api/',
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            },
          },
        },
        {
          name: 'site-rate-limit',
          priority: 1,
          action: { block: {} },
          visibilityConfig: visibility('site-rate-limit'),
          statement: { rateBasedStatement: { limit: props.siteRateLimit, evaluationWindowSec: 300, aggregateKeyType: 'IP' } },
        },
      ],
    });

    this.alarmTopic = new Topic(this, 'AlarmTopic', { displayName: `WAF of ${props.domainName}: something needs you` });
    this.alarmTopic.addSubscription(new EmailSubscription(props.alarmTo));
    // A Metrics Insights query: it sums the web ACL's blocks (Rule ALL) whatever other dimensions
    // CloudWatch files them under, so the alarm does not hang on whether a CloudFront web ACL's
    // figures carry a Region dimension (AWS's documentation says they do not).
    const blocked = new Alarm(this, 'BlockedRequestsAlarm', {
      alarmDescription: `AWS WAF blocked requests to ${props.domainName}: one address passed ${props.apiRateLimit} requests to /api/* or ${props.siteRateLimit} to the site in 5 minutes, and is refused with 403 for the rest of the window. `
        + 'It is a script, or an office or mobile network whose people share one address and are all being turned away. See which in the WAF console (region us-east-1, Web ACLs, this web ACL, Sampled requests: the address, path and user agent); if real people are blocked, raise wafApiRateLimit or wafSiteRateLimit and deploy SiteWaf.',
      metric: new MathExpression({
        expression: `SELECT SUM(BlockedRequests) FROM "AWS/WAFV2" WHERE WebACL = '${WEB_ACL_METRIC_NAME}' AND Rule = 'ALL'`,
        usingMetrics: {},
        period: Duration.minutes(5),
        label: 'Requests blocked by WAF',
      }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    blocked.addAlarmAction(new SnsAction(this.alarmTopic));
    blocked.addOkAction(new SnsAction(this.alarmTopic));

    new CfnOutput(this, 'WebAclArn', {
      value: this.webAcl.attrArn,
      description: 'Give this to the site stack: -c webAclArn=<value> (or SITE_WEB_ACL_ARN)',
    });
  }
}
