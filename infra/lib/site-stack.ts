// The site: a private bucket, the CloudFront distribution in front of it with the routing
// functions and security headers the build emitted, the KeyValueStore the functions route from
// (filled and kept in step by `site deploy`), and the form handler behind /api/*.
import { Annotations, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  KeyValueStore,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  PriceClass,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { BuildOutputs } from './build-outputs.ts';
import { defineLeadAlarms } from './alarms.ts';
import { FormBackend } from './form-backend.ts';
import { CmsAuth } from './cms-auth.ts';
import { VIEWER_ADDRESS_HEADER } from '../../lambda/cloudfront-request-headers.ts';
import { Leads } from './leads.ts';
import { MailEvents } from './mail-events.ts';
import { responseHeadersPolicy } from './headers-policy.ts';
import { Previews } from './previews.ts';
import type { SiteSettings } from './settings.ts';

export interface SiteStackProps extends StackProps {
  settings: SiteSettings;
  build: BuildOutputs;
}

const PRICE_CLASSES = { '100': PriceClass.PRICE_CLASS_100, '200': PriceClass.PRICE_CLASS_200, All: PriceClass.PRICE_CLASS_ALL } as const;

export class SiteStack extends Stack {
  readonly bucket: Bucket;
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: SiteStackProps) {
    super(scope, id, props);
    const { settings, build } = props;

    // Reached only through CloudFront: no public access, no website hosting, TLS only.
    this.bucket = new Bucket(this, 'Content', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
    });

    // The routing entries (a key per page and redirect), out of the functions' code so that
    // publishing needs no stack update. Created empty: until `site deploy` fills it the functions
    // answer every page by its file's name (src/url-resolution/cloudfront-functions.ts), so a first
    // deployment has no window of 404s. Not seeded through ImportSource, which CloudFormation
    // cannot update: each build's entries would make a new source and a failed stack update.
    const routes = new KeyValueStore(this, 'Routes', { comment: 'Routing entries of the site: site deploy keeps them in step with the build' });
    const viewerRequest = new CloudFrontFunction(this, 'ViewerRequest', {
      comment: 'Pretty URLs, redirects and not-found routing: src/url-resolution/rule.ts over the Routes store',
      code: FunctionCode.fromFile({ filePath: build.viewerRequestPath }),
      runtime: FunctionRuntime.JS_2_0,
      keyValueStore: routes,
    });
    // Reads no store: an error page's object carries its status in its metadata (site deploy sets it).
    const viewerResponse = new CloudFrontFunction(this, 'ViewerResponse', {
      comment: 'Gives error pages the status their object carries (x-amz-meta-site-status)',
      code: FunctionCode.fromFile({ filePath: build.viewerResponsePath }),
      runtime: FunctionRuntime.JS_2_0,
    });

    const policyOf = (id: string, comment: string, set: Record<string, string>) => responseHeadersPolicy(this, id, comment, set);
    const headersPolicy = policyOf('SecurityHeaders', 'The security headers of .site/deploy/headers.json, as site serve sends them', build.headers.default);

    // HTML is sent to browsers with max-age=0 (always revalidated); the edge may keep it a day
    // because `site deploy` invalidates every path it changes. Hashed assets keep their year.
    const cachePolicy = new CachePolicy(this, 'EdgeCache', {
      comment: 'Edge caches at least a day; site deploy invalidates what changes',
      minTtl: Duration.days(1),
      defaultTtl: Duration.days(1),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    const forms = new FormBackend(this, 'Forms', { settings, lambdaDir: build.lambdaDir });
    const leads = new Leads(this, 'Leads', { settings, lambdaDir: build.lambdaDir });
    leads.allowHandler(forms.handler, settings);
    const mailEvents = new MailEvents(this, 'MailEvents', { settings, lambdaDir: build.lambdaDir, table: leads.table, limitsTable: leads.limits });
    mailEvents.allowSending(forms.handler, settings);
    mailEvents.allowSending(leads.mailer, settings);
    // The content manager's sign-in, once the GitHub OAuth app's client id is set (cms-auth.ts says why a Function URL).
    if (settings.cmsClientId) new CmsAuth(this, 'CmsAuth', { settings: { ...settings, cmsClientId: settings.cmsClientId }, codeDir: build.cmsAuthDir, adminOrigin: `https://${build.hosts?.cms ?? settings.domainName}` });
    defineLeadAlarms(leads, { settings, topic: leads.topic, table: leads.table, limitsTable: leads.limits, configurationSet: mailEvents.configurationSet.configurationSetName, handler: forms.handler, mailer: leads.mailer, sesEvents: mailEvents.handler });

    // Only what the handler reads reaches it: its origin check's Origin and Referer, Content-Type,
    // and the viewer's address as CloudFront saw the connection, which CloudFront writes itself
    // (a viewer cannot forge it), for the per-address limit. Host is left to be the Function URL's
    // own. The managed AllViewerExceptHostHeader policy used before forwards every viewer header and
    // cookie, and names no CloudFront header, so nothing in the template said the address arrived.
    const apiRequests = new OriginRequestPolicy(this, 'ApiRequests', {
      comment: 'The form handler: Origin, Referer, Content-Type and the viewer address',
      headerBehavior: OriginRequestHeaderBehavior.allowList('Origin', 'Referer', 'Content-Type', VIEWER_ADDRESS_HEADER),
      cookieBehavior: OriginRequestCookieBehavior.none(),
      queryStringBehavior: OriginRequestQueryStringBehavior.none(),
    });

    const siteBehavior = {
      origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachedMethods: CachedMethods.CACHE_GET_HEAD,
      compress: true,
      cachePolicy,
      responseHeadersPolicy: headersPolicy,
      functionAssociations: [
        { function: viewerRequest, eventType: FunctionEventType.VIEWER_REQUEST },
        { function: viewerResponse, eventType: FunctionEventType.VIEWER_RESPONSE },
      ],
    };
    // Paths with headers of their own (the search page and its index: 'wasm-unsafe-eval'): the same
    // bucket, routing and caching, with their own response-headers policy. The cache key holds no
    // query string, so /search?q=… is one cached page, as it is one file.
    const ownHeaders = Object.fromEntries(build.headers.paths.flatMap((entry, i) => {
      const policy = policyOf(`PathHeaders${i + 1}`, `.site/deploy/headers.json for ${entry.patterns.join(' ')}: ${entry.why}`.slice(0, 128), entry.headers);
      return entry.patterns.map((pattern) => [pattern, { ...siteBehavior, responseHeadersPolicy: policy }]);
    }));

    this.distribution = new Distribution(this, 'Cdn', {
      comment: settings.domainName,
      // The content manager's own host (content/site.yaml's cms.host) is an alternate name of the same
      // distribution; the certificate must cover it too (docs/owners.md).
      domainNames: [settings.domainName, ...(build.hosts ? [build.hosts.cms] : [])],
      certificate: Certificate.fromCertificateArn(this, 'Certificate', settings.certificateArn),
      minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      httpVersion: HttpVersion.HTTP2_AND_3,
      enableIpv6: true,
      priceClass: PRICE_CLASSES[settings.priceClass],
      ...(settings.webAclArn ? { webAclId: settings.webAclArn } : {}),
      defaultBehavior: siteBehavior,
      additionalBehaviors: {
        ...ownHeaders,
        // No routing functions here: the path goes to the handler as posted.
        '/api/*': {
          origin: forms.origin,
          // A POST redirected from http would lose its body, so http is refused instead.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: apiRequests,
          responseHeadersPolicy: headersPolicy,
          compress: true,
        },
      },
      // A private bucket answers 403 for a missing key, so 403 and 404 both become the not-found
      // page with status 404. Paths the routing knows are not found are answered by the functions.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 404,
        responsePagePath: '/404.html',
        ttl: Duration.minutes(1),
      })),
    });

    // Pull requests' previews, once previewDomain is set (previews.ts says why a distribution of their own).
    if (settings.previewDomain) {
      const previews = new Previews(this, 'Previews', {
        domain: settings.previewDomain,
        certificateArn: settings.previewCertificateArn ?? settings.certificateArn,
        build,
        priceClass: PRICE_CLASSES[settings.priceClass],
        ...(settings.webAclArn ? { webAclArn: settings.webAclArn } : {}),
      });
      new CfnOutput(this, 'PreviewBucketName', { value: previews.bucket.bucketName, description: 'For site deploy --preview (SITE_PREVIEW_BUCKET)' });
      new CfnOutput(this, 'PreviewKeyValueStoreArn', { value: previews.store.keyValueStoreArn, description: 'For site deploy --preview (SITE_PREVIEW_KVS_ARN)' });
      new CfnOutput(this, 'PreviewDeployPolicyArn', { value: previews.deployPolicy.managedPolicyArn, description: "Attach to the previews' publishing role: their bucket and store, nothing of the site's" });
      new CfnOutput(this, 'PreviewDistributionDomainName', {
        value: previews.distribution.distributionDomainName,
        description: `Point *.${settings.previewDomain} here (a wildcard CNAME)`,
      });
    }

    if (settings.waf && !settings.webAclArn) {
      Annotations.of(this).addWarningV2('site:waf-not-attached',
        'waf is on but webAclArn is not set, so the distribution has no WAF: deploy the SiteWaf stack, then deploy this one with -c webAclArn=<its WebAclArn output> (or set waf=off).');
    }

    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'DistributionId', { value: this.distribution.distributionId });
    new CfnOutput(this, 'KeyValueStoreArn', { value: routes.keyValueStoreArn, description: 'For site deploy --kvs-arn (or SITE_KVS_ARN)' });
    new CfnOutput(this, 'LeadsTable', { value: leads.table.tableName, description: 'For site leads --table (with --region)' });
    new CfnOutput(this, 'LimitsTable', { value: leads.limits.tableName, description: 'For site leads resend --limits-table (the hourly cap on lead e-mails)' });
    new CfnOutput(this, 'SesConfigurationSet', { value: mailEvents.configurationSet.configurationSetName, description: "For site leads resend --configuration-set (or SES_CONFIGURATION_SET): SES's events of its sends" });
    new CfnOutput(this, 'DistributionDomainName', {
      value: this.distribution.distributionDomainName,
      description: `Point ${settings.domainName} here (a CNAME, or a Route 53 alias)`,
    });
    new CfnOutput(this, 'DeployCommand', {
      value: `npx site deploy --bucket ${this.bucket.bucketName} --distribution-id ${this.distribution.distributionId} --kvs-arn ${routes.keyValueStoreArn} --region ${this.region}`,
    });
  }
}
