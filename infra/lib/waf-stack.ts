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
import { CfnOutput, Stack, Token, type StackProps } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';

export interface WafStackProps extends StackProps {
  /** Requests per IP per 5 minutes to /api/* (the form handler) before blocking. */
  apiRateLimit: number;
  /** Requests per IP per 5 minutes to anything before blocking. */
  siteRateLimit: number;
}

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

export class WafStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: WafStackProps) {
    super(scope, id, props);
    if (!Token.isUnresolved(this.region) && this.region !== 'us-east-1') {
      throw new Error(`The WAF stack must be in us-east-1 (CloudFront's web ACLs live there), not ${this.region}`);
    }

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('site'),
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

    new CfnOutput(this, 'WebAclArn', {
      value: this.webAcl.attrArn,
      description: 'Give this to the site stack: -c webAclArn=<value> (or SITE_WEB_ACL_ARN)',
    });
  }
}
