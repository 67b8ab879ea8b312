// Pull requests' previews, each at pr-<n>.<previewDomain>: a bucket, a KeyValueStore and a
// distribution of their own, routed by the very functions the site is (the build's files, the
// request function reading this store, where `site deploy --preview <n>` puts each preview's
// entries behind 'pr-<n>:'; src/url-resolution/rule.ts). Of their own, not the site's with a
// wildcard name added:
//   - no preview's file is ever in the site's bucket, so none can be answered on the site's host;
//   - the previews' keys never count against the site's 5 MB store, and the site's deploy (which
//     takes out every key its build lacks) never sees them;
//   - every answer is `noindex` (X-Robots-Tag), CloudFront's own error answers too, from this
//     distribution's headers policy: the functions mark what they see, this marks the rest;
//   - the publishing job's previews can be given rights on these alone (DeployPolicy).
// Pages are cached as the files say (HTML revalidated on every request), so a preview is updated
// with no invalidation. There is no /api/*: a preview's forms send nothing.
import { Duration } from 'aws-cdk-lib';
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
  type PriceClass,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Effect, ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { BuildOutputs } from './build-outputs.ts';
import { responseHeadersPolicy } from './headers-policy.ts';

export interface PreviewsProps {
  /** pr-<n>.<domain> is pull request n's preview. */
  domain: string;
  /** us-east-1, covering *.<domain>. */
  certificateArn: string;
  build: BuildOutputs;
  priceClass: PriceClass;
  webAclArn?: string;
}

export class Previews extends Construct {
  readonly bucket: Bucket;
  readonly store: KeyValueStore;
  readonly distribution: Distribution;
  /** What `site deploy --preview` and `--remove-preview` need, and nothing of the site's. */
  readonly deployPolicy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: PreviewsProps) {
    super(scope, id);
    const { build, domain } = props;
    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
    });
    this.store = new KeyValueStore(this, 'Routes', { comment: "Pull requests' previews: site deploy --preview <n> puts each one's routing entries behind pr-<n>:" });
    const viewerRequest = new CloudFrontFunction(this, 'ViewerRequest', {
      comment: "The site's routing (src/url-resolution/rule.ts), for pr-<n> hosts over the previews' store",
      code: FunctionCode.fromFile({ filePath: build.viewerRequestPath }),
      runtime: FunctionRuntime.JS_2_0,
      keyValueStore: this.store,
    });
    const viewerResponse = new CloudFrontFunction(this, 'ViewerResponse', {
      comment: 'Gives error pages the status their object carries; marks every preview answer noindex',
      code: FunctionCode.fromFile({ filePath: build.viewerResponsePath }),
      runtime: FunctionRuntime.JS_2_0,
    });
    const noindex = { 'x-robots-tag': 'noindex' };
    const cachePolicy = new CachePolicy(this, 'Cache', {
      comment: "Previews: as each file's Cache-Control says (HTML revalidated every time), so no deploy invalidates",
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const behaviour = {
      origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachedMethods: CachedMethods.CACHE_GET_HEAD,
      compress: true,
      cachePolicy,
      responseHeadersPolicy: responseHeadersPolicy(this, 'Headers', "The site's headers of .site/deploy/headers.json, and noindex", { ...build.headers.default, ...noindex }),
      functionAssociations: [
        { function: viewerRequest, eventType: FunctionEventType.VIEWER_REQUEST },
        { function: viewerResponse, eventType: FunctionEventType.VIEWER_RESPONSE },
      ],
    };
    const ownHeaders = Object.fromEntries(build.headers.paths.flatMap((entry, i) => {
      const policy = responseHeadersPolicy(this, `PathHeaders${i + 1}`, `Previews: ${entry.patterns.join(' ')}: ${entry.why}`.slice(0, 128), { ...entry.headers, ...noindex });
      return entry.patterns.map((pattern) => [pattern, { ...behaviour, responseHeadersPolicy: policy }]);
    }));
    this.distribution = new Distribution(this, 'Cdn', {
      comment: `Pull requests' previews: pr-<n>.${domain}`,
      domainNames: [`*.${domain}`],
      certificate: Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
      minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      httpVersion: HttpVersion.HTTP2_AND_3,
      enableIpv6: true,
      priceClass: props.priceClass,
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      defaultBehavior: behaviour,
      additionalBehaviors: ownHeaders,
    });
    this.deployPolicy = new ManagedPolicy(this, 'DeployPolicy', {
      description: "site deploy --preview and --remove-preview: the previews' bucket (pr-* alone) and store, nothing of the site's",
      statements: [
        new PolicyStatement({ effect: Effect.ALLOW, actions: ['s3:ListBucket'], resources: [this.bucket.bucketArn], conditions: { StringLike: { 's3:prefix': 'pr-*' } } }),
        new PolicyStatement({ effect: Effect.ALLOW, actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], resources: [this.bucket.arnForObjects('pr-*')] }),
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['cloudfront-keyvaluestore:DescribeKeyValueStore', 'cloudfront-keyvaluestore:ListKeys', 'cloudfront-keyvaluestore:UpdateKeys'],
          resources: [this.store.keyValueStoreArn],
        }),
      ],
    });
  }
}
