// CDK assertions on the synthesised stacks, built from a fresh `site build` and Lambda bundle, as
// `cdk synth` builds them (infra/lib/define-app.ts), and `cdk synth` itself, offline.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { App, Stack } from 'aws-cdk-lib';
import { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildLambda } from '../../lambda/bundle-lambda.ts';
import { buildSite } from '../../src/pipeline/build.ts';
import { deployDirFor } from '../../src/output/layout.ts';
import { BuildOutputsError } from '../../infra/lib/build-outputs.ts';
import { defineApp, type DefinedApp } from '../../infra/lib/define-app.ts';
import { readSettings, SettingsError } from '../../infra/lib/settings.ts';
import { CmsAuth } from '../../infra/lib/cms-auth.ts';
import { runApp } from '../../infra/lib/run-app.ts';
import { formActionSources } from '../../infra/lib/headers-policy.ts';
import { LIMITS_TABLE_SCHEMA } from '../../lambda/limits/table.ts';
import { LEAD_TABLE_SCHEMA, MESSAGE_INDEX, SEND_INDEX, UNSENT_INDEX } from '../../lambda/leads/record.ts';
import { METRICS } from '../../lambda/metrics.ts';
import { ConfigError, readConfig } from '../../lambda/config.ts';
import { parseHeadersFile, SEARCH_PATHS, type HeadersFile } from '../../src/response-headers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
const WEB_ACL = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/site/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
const SETTINGS = { domainName: 'www.example.co.uk', certificateArn: CERT, mailTo: 'leads@example.co.uk', mailFrom: 'Website <web@example.co.uk>' };
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';

let work: string;
let deployDir: string;
let headers: HeadersFile;

function synth(context: Record<string, unknown> = {}): DefinedApp & { app: App } {
  const app = new App({ context: { ...SETTINGS, deployDir, ...context } });
  return { app, ...defineApp(app, {}) };
}

type Resource = { Type: string; Properties: Record<string, any> };
const resources = (template: Template, type: string) => Object.values(template.findResources(type)) as Resource[];
const only = (template: Template, type: string) => {
  const found = resources(template, type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};

/** The Lambda function with this handler (index.handler: the forms; index.resend: the retry mailer; index.sesEvents: SES reports). */
const lambdaWith = (template: Template, handler: string) => {
  const found = resources(template, 'AWS::Lambda::Function').filter((f) => f.Properties.Handler === handler);
  expect(found, handler).toHaveLength(1);
  return found[0]!;
};
/** Every statement of the policies attached to that function's role. */
const statementsOf = (template: Template, fn: Resource) => {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  return resources(template, 'AWS::IAM::Policy')
    .filter((p) => (p.Properties.Roles as Array<{ Ref: string }>).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Array<Record<string, any>>);
};
/** The logical id of the table keyed by this attribute (submissionId: the leads; limitKey: the limits' counters). */
const tableId = (template: Template, key = 'submissionId') =>
  Object.entries(template.findResources('AWS::DynamoDB::Table')).find(([, t]) => (t as Resource).Properties.KeySchema[0].AttributeName === key)![0];
const idOf = (template: Template, type: string, fn: (r: Resource) => boolean) =>
  Object.entries(template.findResources(type)).find(([, r]) => fn(r as Resource))![0];
const lambdaId = (template: Template, handler: string) => idOf(template, 'AWS::Lambda::Function', (f) => f.Properties.Handler === handler);
/**
 * Every alarm, by the metric it watches (`<namespace>/<metric>` or `<metric>@<function id>`), or
 * for a metric-math alarm the metrics it combines (`<namespace>/<metric> <namespace>/<metric>`).
 */
function alarmsByMetric(template: Template): Record<string, Record<string, any>> {
  const out: Record<string, Record<string, any>> = {};
  for (const alarm of resources(template, 'AWS::CloudWatch::Alarm')) {
    const p = alarm.Properties;
    const fn = (p.Dimensions as Array<{ Name: string; Value: { Ref: string } }> | undefined)?.find((d) => d.Name === 'FunctionName');
    const combined = (p.Metrics as Array<{ MetricStat?: { Metric: { Namespace: string; MetricName: string } } }> | undefined)
      ?.flatMap((m) => (m.MetricStat ? [`${m.MetricStat.Metric.Namespace}/${m.MetricStat.Metric.MetricName}`] : [])).join(' ');
    const key = combined !== undefined ? combined : fn ? `${p.MetricName}@${fn.Value.Ref}` : `${p.Namespace}/${p.MetricName}`;
    expect(out[key], key).toBeUndefined();
    out[key] = p;
  }
  return out;
}

/** The headers a synthesised response-headers policy sends, written as CloudFront writes them. */
function headersFromPolicy(config: Record<string, any>): Record<string, string> {
  const out: Record<string, string> = {};
  const s = config.SecurityHeadersConfig ?? {};
  if (s.ContentSecurityPolicy) out['content-security-policy'] = s.ContentSecurityPolicy.ContentSecurityPolicy;
  if (s.StrictTransportSecurity) {
    const h = s.StrictTransportSecurity;
    out['strict-transport-security'] = [`max-age=${h.AccessControlMaxAgeSec}`, ...(h.IncludeSubdomains ? ['includeSubDomains'] : []), ...(h.Preload ? ['preload'] : [])].join('; ');
  }
  if (s.ContentTypeOptions) out['x-content-type-options'] = 'nosniff';
  if (s.FrameOptions) out['x-frame-options'] = s.FrameOptions.FrameOption;
  if (s.ReferrerPolicy) out['referrer-policy'] = s.ReferrerPolicy.ReferrerPolicy;
  for (const item of config.CustomHeadersConfig?.Items ?? []) out[String(item.Header).toLowerCase()] = item.Value;
  return out;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'site-infra-'));
  await buildSite({ root: ROOT, outDir: path.join(work, 'dist') });
  deployDir = deployDirFor(path.join(work, 'dist'));
  await buildLambda({ outDir: path.join(deployDir, 'lambda') });
  headers = parseHeadersFile(await readFile(path.join(deployDir, 'headers.json'), 'utf8'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  // Each app's cloud assembly, which CDK makes in the system's temporary folder and leaves to a test runner to remove.
  CloudAssembly.cleanupTemporaryDirectories();
});

// Synthesis copies and hashes the Lambda asset: seconds normally, more on a loaded CI machine.
describe('the Site stack', () => {
  let template: Template;
  let defined: ReturnType<typeof synth>;
  beforeAll(() => {
    defined = synth();
    template = Template.fromStack(defined.site);
  });

  test('gives every function of the Lambda bundle what the bundle\'s cold start reads (readConfig), so none fails to start', () => {
    const env = resources(template, 'AWS::Lambda::Function').filter((f) => /^index\./.test(String(f.Properties.Handler)))
      .map((f) => [f.Properties.Handler as string, Object.keys(f.Properties.Environment?.Variables ?? {}).sort()] as const);
    expect(env.map(([handler]) => handler).sort()).toEqual(['index.handler', 'index.resend', 'index.sesEvents']);
    for (const [handler, names] of env) {
      let problems: string[] = [];
      const fake = Object.fromEntries(names.map((n) => [n, n.includes('MAIL') ? 'x@example.co.uk' : n === 'ALLOWED_ORIGINS' ? 'https://www.example.co.uk' : n === 'LEAD_RETENTION_MONTHS' ? '24' : n === 'MAILS_PER_HOUR' ? '30' : 'value-of-sixteen-plus']));
      try { readConfig({ ...fake, AWS_REGION: 'eu-west-2' }); } catch (error) { problems = [...(error as ConfigError).problems]; }
      expect(problems, handler).toEqual([]);
    }
  });

  test('holds exactly these resources: no custom-resource Lambdas, nothing public', () => {
    const counts: Record<string, number> = {};
    for (const r of Object.values(template.toJSON().Resources as Record<string, Resource>)) counts[r.Type] = (counts[r.Type] ?? 0) + 1;
    expect(counts).toEqual({
      'AWS::S3::Bucket': 1,
      'AWS::S3::BucketPolicy': 1,
      'AWS::CloudFront::OriginAccessControl': 1,
      'AWS::CloudFront::Function': 2,
      // The routing entries the viewer-request function reads.
      'AWS::CloudFront::KeyValueStore': 1,
      // Every answer's, and the search paths' ('wasm-unsafe-eval').
      'AWS::CloudFront::ResponseHeadersPolicy': 2,
      'AWS::CloudFront::CachePolicy': 1,
      'AWS::CloudFront::OriginRequestPolicy': 1,
      'AWS::CloudFront::Distribution': 1,
      'AWS::SecretsManager::Secret': 1,
      // The form handler, the retry mailer and the SES events Lambda.
      'AWS::Logs::LogGroup': 3,
      'AWS::IAM::Role': 3,
      'AWS::IAM::Policy': 3,
      'AWS::Lambda::Function': 3,
      'AWS::Lambda::Url': 1,
      'AWS::Lambda::Permission': 4,
      // The SES events Lambda's retries of a report it failed on (a lead the index does not show yet).
      'AWS::Lambda::EventInvokeConfig': 1,
      // The leads and the limits' counters, the retry mailer's schedule, the alarms and their topic.
      'AWS::DynamoDB::Table': 2,
      'AWS::Events::Rule': 1,
      'AWS::CloudWatch::Alarm': 19,
      // The dead letters of SES's reports, and the policy that lets their topic (and nobody without TLS) use it.
      'AWS::SQS::Queue': 1,
      'AWS::SQS::QueuePolicy': 1,
      // The alarm topic with its e-mail subscription; the SES events topic with its Lambda subscription.
      'AWS::SNS::Topic': 2,
      'AWS::SNS::Subscription': 2,
      'AWS::SNS::TopicPolicy': 1,
      'AWS::SES::ConfigurationSet': 1,
      'AWS::SES::ConfigurationSetEventDestination': 1,
    });
  });

  test('the bucket is private: all public access blocked, no website hosting, readable only by this distribution', () => {
    const bucket = only(template, 'AWS::S3::Bucket');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(bucket.Properties.WebsiteConfiguration).toBeUndefined();
    const statements = only(template, 'AWS::S3::BucketPolicy').Properties.PolicyDocument.Statement as Array<Record<string, any>>;
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({ Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject', Condition: { StringEquals: { 'AWS:SourceArn': expect.anything() } } });
    // Plain http to the bucket is refused.
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
  });

  test('CloudFront reaches the bucket through origin access control (signed), not an origin access identity', () => {
    expect(only(template, 'AWS::CloudFront::OriginAccessControl').Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4',
    });
    const origins = only(template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig.Origins as Array<Record<string, any>>;
    const s3Origin = origins.find((o) => o.S3OriginConfig)!;
    expect(s3Origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/OriginAccessControl/), 'Id'] });
    expect(s3Origin.S3OriginConfig.OriginAccessIdentity).toBe('');
  });

  test('the routing functions are the build files, on cloudfront-js-2.0, the request function reading the KeyValueStore, attached to the default behaviour', async () => {
    const code = {
      request: await readFile(path.join(deployDir, 'cloudfront/viewer-request.js'), 'utf8'),
      response: await readFile(path.join(deployDir, 'cloudfront/viewer-response.js'), 'utf8'),
    };
    const functions = template.findResources('AWS::CloudFront::Function') as Record<string, Resource>;
    const byCode = Object.fromEntries(Object.entries(functions).map(([id, r]) => [r.Properties.FunctionCode, { id, runtime: r.Properties.FunctionConfig.Runtime, publish: r.Properties.AutoPublish }]));
    expect(byCode[code.request]).toMatchObject({ runtime: 'cloudfront-js-2.0', publish: true });
    expect(byCode[code.response]).toMatchObject({ runtime: 'cloudfront-js-2.0', publish: true });
    // Created empty (no ImportSource, which CloudFormation cannot update), and associated with the
    // request function; the response function reads the error status from the object, no store.
    const storeId = Object.keys(template.findResources('AWS::CloudFront::KeyValueStore'))[0]!;
    expect(only(template, 'AWS::CloudFront::KeyValueStore').Properties.ImportSource).toBeUndefined();
    expect(functions[byCode[code.request]!.id]!.Properties.FunctionConfig.KeyValueStoreAssociations).toEqual([{ KeyValueStoreARN: { 'Fn::GetAtt': [storeId, 'Arn'] } }]);
    expect(functions[byCode[code.response]!.id]!.Properties.FunctionConfig.KeyValueStoreAssociations).toBeUndefined();
    expect(template.toJSON().Outputs.KeyValueStoreArn.Value).toEqual({ 'Fn::GetAtt': [storeId, 'Arn'] });
    expect(JSON.stringify(template.toJSON().Outputs.DeployCommand.Value)).toContain('--kvs-arn ');

    const config = only(template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig;
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [byCode[code.request]!.id, 'FunctionARN'] } },
      { EventType: 'viewer-response', FunctionARN: { 'Fn::GetAtt': [byCode[code.response]!.id, 'FunctionARN'] } },
    ]);
  });

  test('a missing object (S3 answers 403 or 404) is the not-found page with status 404', () => {
    const config = only(template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig;
    expect(config.CustomErrorResponses).toEqual([403, 404].map((code) => ({ ErrorCode: code, ResponseCode: 404, ResponsePagePath: '/404.html', ErrorCachingMinTTL: 60 })));
  });

  test('each response-headers policy sends exactly its headers of .site/deploy/headers.json: the search paths theirs, every other behaviour the default', () => {
    const policies = template.findResources('AWS::CloudFront::ResponseHeadersPolicy');
    const sorted = (set: Record<string, string>) => JSON.stringify(Object.entries(set).sort(([a], [b]) => a.localeCompare(b)));
    const byHeaders = (set: Record<string, string>) => Object.keys(policies).find((id) => sorted(headersFromPolicy(policies[id]!.Properties.ResponseHeadersPolicyConfig)) === sorted(set));
    expect(headers.paths).toHaveLength(1);
    const site = byHeaders(headers.default);
    const search = byHeaders(headers.paths[0]!.headers);
    expect(site).toBeDefined();
    expect(search).toBeDefined();
    expect(search).not.toBe(site);
    for (const id of Object.keys(policies)) {
      for (const item of policies[id]!.Properties.ResponseHeadersPolicyConfig.CustomHeadersConfig?.Items ?? []) expect(item.Override).toBe(true);
    }
    const config = only(template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig;
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: site });
    const policyOf = Object.fromEntries(config.CacheBehaviors.map((b: Record<string, unknown>) => [b.PathPattern, b.ResponseHeadersPolicyId]));
    expect(policyOf).toEqual({ ...Object.fromEntries(SEARCH_PATHS.map((p) => [p, { Ref: search }])), '/api/*': { Ref: site } });
  });

  test('the search paths are the site itself (same bucket, routing functions and edge cache) with only their headers changed', () => {
    const config = only(template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig;
    const { ResponseHeadersPolicyId: _default, ...site } = config.DefaultCacheBehavior;
    for (const pattern of SEARCH_PATHS) {
      const { ResponseHeadersPolicyId: _own, PathPattern, ...behaviour } = config.CacheBehaviors.find((b: Record<string, unknown>) => b.PathPattern === pattern);
      expect(PathPattern).toBe(pattern);
      expect(behaviour).toEqual(site);
    }
  });

  test("the CSP lets the forms post to /api/* on the site's own origin", () => {
    expect(formActionSources(headers.default['content-security-policy']!)).toContain("'self'");
  });

  test('HTTPS only, TLS 1.2+, HTTP/2 and HTTP/3, compression, the domain and its us-east-1 certificate', () => {
    const config = only(template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig;
    expect(config).toMatchObject({
      Aliases: ['www.example.co.uk'],
      HttpVersion: 'http2and3',
      Enabled: true,
      ViewerCertificate: { AcmCertificateArn: CERT, SslSupportMethod: 'sni-only', MinimumProtocolVersion: 'TLSv1.2_2021' },
      DefaultCacheBehavior: { ViewerProtocolPolicy: 'redirect-to-https', Compress: true, AllowedMethods: ['GET', 'HEAD'] },
    });
    expect(config.CacheBehaviors.find((b: Record<string, unknown>) => b.PathPattern === '/api/*')).toMatchObject({ ViewerProtocolPolicy: 'https-only', Compress: true });
    expect(config.WebACLId).toBeUndefined();
  });

  test('/api/* goes uncached, with every method, to the form Lambda URL, with the secret origin header and no routing functions', () => {
    const config = only(template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig;
    expect(config.CacheBehaviors.map((b: Record<string, unknown>) => b.PathPattern)).toEqual([...SEARCH_PATHS, '/api/*']);
    const api = config.CacheBehaviors.find((b: Record<string, unknown>) => b.PathPattern === '/api/*');
    const policyId = Object.keys(template.findResources('AWS::CloudFront::OriginRequestPolicy'))[0];
    expect(api).toMatchObject({ PathPattern: '/api/*', CachePolicyId: CACHING_DISABLED, OriginRequestPolicyId: { Ref: policyId } });
    expect([...api.AllowedMethods].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    expect(api.FunctionAssociations).toBeUndefined();

    const origin = (config.Origins as Array<Record<string, any>>).find((o) => o.Id === api.TargetOriginId)!;
    const urlId = Object.keys(template.findResources('AWS::Lambda::Url'))[0];
    expect(JSON.stringify(origin.DomainName)).toContain(urlId);
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
    // The header's value is resolved from Secrets Manager at deploy time: never a literal in the template.
    const secretId = Object.keys(template.findResources('AWS::SecretsManager::Secret'))[0];
    expect(origin.OriginCustomHeaders).toEqual([{ HeaderName: 'x-origin-verify', HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] } }]);
    expect(only(template, 'AWS::Lambda::Url').Properties.AuthType).toBe('NONE');
  });

  test('the origin request policy of /api/* passes the handler exactly Origin, Referer, Content-Type and the viewer address CloudFront sets, never Host or cookies', () => {
    const policy = only(template, 'AWS::CloudFront::OriginRequestPolicy').Properties.OriginRequestPolicyConfig;
    expect(policy.HeadersConfig.HeaderBehavior).toBe('whitelist');
    expect([...policy.HeadersConfig.Headers].map((h: string) => h.toLowerCase()).sort()).toEqual(['cloudfront-viewer-address', 'content-type', 'origin', 'referer']);
    expect(policy.CookiesConfig).toEqual({ CookieBehavior: 'none' });
    expect(policy.QueryStringsConfig).toEqual({ QueryStringBehavior: 'none' });
  });

  test('the form Lambda: nodejs22.x, the esbuild bundle, its environment, no reserved concurrency (the account pool) and logs kept 90 days', async () => {
    const fn = lambdaWith(template, 'index.handler').Properties;
    expect(fn).toMatchObject({ Runtime: 'nodejs22.x', Handler: 'index.handler', Timeout: 15 });
    expect(fn.ReservedConcurrentExecutions).toBeUndefined();
    expect(fn.Environment.Variables).toMatchObject({
      LEADS_TABLE: { Ref: tableId(template) },
      LIMITS_TABLE: { Ref: tableId(template, 'limitKey') },
      SES_CONFIGURATION_SET: { Ref: Object.keys(template.findResources('AWS::SES::ConfigurationSet'))[0] },
      LEAD_RETENTION_MONTHS: '24',
      MAIL_TO: 'leads@example.co.uk',
      MAIL_FROM: 'Website <web@example.co.uk>',
      ALLOWED_ORIGINS: 'https://www.example.co.uk',
      ORIGIN_VERIFY_SECRET: { 'Fn::Join': ['', [expect.stringContaining('{{resolve:secretsmanager:'), expect.anything(), expect.any(String)]] },
    });
    const logGroupId = fn.LoggingConfig.LogGroup.Ref as string;
    expect((template.findResources('AWS::Logs::LogGroup')[logGroupId] as Resource).Properties.RetentionInDays).toBe(90);

    // The code asset is the .site/deploy/lambda folder: the bundle, without the zip beside it.
    const assembly = defined.app.synth();
    const assetDir = path.join(assembly.directory, `asset.${String(fn.Code.S3Key).replace(/\.zip$/, '')}`);
    expect(readdirSync(assetDir)).toEqual(['index.mjs']);
    expect(await readFile(path.join(assetDir, 'index.mjs'))).toEqual(await readFile(path.join(deployDir, 'lambda/index.mjs')));
  });

  test('the form Lambda may only send e-mail as the SES identity through the configuration set, put and update leads (no scan, no delete) and read and update the limits', () => {
    const handler = lambdaWith(template, 'index.handler');
    const configSet = Object.keys(template.findResources('AWS::SES::ConfigurationSet'))[0];
    const statements = statementsOf(template, handler);
    expect(statements).toHaveLength(3);
    expect(statements).toEqual(expect.arrayContaining([{
      Effect: 'Allow',
      Action: 'ses:SendEmail',
      Resource: [
        { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:eu-west-2:', { Ref: 'AWS::AccountId' }, ':identity/example.co.uk']] },
        { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:eu-west-2:', { Ref: 'AWS::AccountId' }, ':configuration-set/', { Ref: configSet }]] },
      ],
    }, {
      Effect: 'Allow',
      Action: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
      Resource: { 'Fn::GetAtt': [tableId(template), 'Arn'] },
    }, {
      Effect: 'Allow',
      Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
      Resource: { 'Fn::GetAtt': [tableId(template, 'limitKey'), 'Arn'] },
    }]));
    const roleId = handler.Properties.Role['Fn::GetAtt'][0] as string;
    const role = (template.findResources('AWS::IAM::Role')[roleId] as Resource).Properties;
    // Besides that, only the managed policy that lets it write its own logs.
    expect(JSON.stringify(role.ManagedPolicyArns)).toContain('service-role/AWSLambdaBasicExecutionRole');
    expect(role.ManagedPolicyArns).toHaveLength(1);
  });

  test('the leads table: on demand, keyed by submissionId, TTL on expiresAt, PITR, KMS encryption, an email index, kept on stack deletion', () => {
    const id = tableId(template);
    const table = template.findResources('AWS::DynamoDB::Table')[id] as Resource & { DeletionPolicy: string };
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'submissionId', KeyType: 'HASH' }],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      // SSEEnabled without a key: the AWS-managed KMS key (aws/dynamodb).
      SSESpecification: { SSEEnabled: true },
      DeletionProtectionEnabled: true,
      // The indexes dynalite's tables are made with too: by e-mail address, the sparse one of unsent leads, by send and by message id.
      GlobalSecondaryIndexes: LEAD_TABLE_SCHEMA.GlobalSecondaryIndexes,
    });
    template.hasOutput('LeadsTable', { Value: { Ref: id } });
    template.hasOutput('SesConfigurationSet', { Value: { Ref: Object.keys(template.findResources('AWS::SES::ConfigurationSet'))[0] } });
    template.hasOutput('LimitsTable', { Value: { Ref: tableId(template, 'limitKey') } });
  });

  test('the limits table: keyed as lambda/limits/table.ts says, on demand, TTL on expiresAt, and nothing but counters to lose', () => {
    const table = template.findResources('AWS::DynamoDB::Table')[tableId(template, 'limitKey')] as Resource & { DeletionPolicy: string };
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: LIMITS_TABLE_SCHEMA.KeySchema,
      AttributeDefinitions: LIMITS_TABLE_SCHEMA.AttributeDefinitions,
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
    expect(table.Properties.GlobalSecondaryIndexes).toBeUndefined();
    expect(table.DeletionPolicy).toBe('Delete');
  });

  test('the retry mailer: the same bundle (index.resend), every 5 minutes, one at a time, reading and updating leads, counting e-mails and sending through the configuration set', () => {
    const mailer = lambdaWith(template, 'index.resend');
    expect(mailer.Properties).toMatchObject({ Runtime: 'nodejs22.x', Timeout: 60, ReservedConcurrentExecutions: 1 });
    expect(mailer.Properties.Environment.Variables).toMatchObject({
      LEADS_TABLE: { Ref: tableId(template) }, LIMITS_TABLE: { Ref: tableId(template, 'limitKey') },
      SES_CONFIGURATION_SET: { Ref: Object.keys(template.findResources('AWS::SES::ConfigurationSet'))[0] },
      MAIL_TO: 'leads@example.co.uk', ALLOWED_ORIGINS: 'https://www.example.co.uk',
    });
    const byResource = statementsOf(template, mailer).map((s) => [JSON.stringify(s.Resource), [s.Action].flat().sort()]);
    // No Scan: the unsent leads come from their sparse index, by Query on that index alone.
    expect(byResource).toEqual(expect.arrayContaining([
      [JSON.stringify({ 'Fn::GetAtt': [tableId(template), 'Arn'] }), ['dynamodb:GetItem', 'dynamodb:UpdateItem']],
      [JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId(template), 'Arn'] }, `/index/${UNSENT_INDEX}`]] }), ['dynamodb:Query']],
      // The limits: counted (UpdateItem), and the previous window read for the sliding count (GetItem).
      [JSON.stringify({ 'Fn::GetAtt': [tableId(template, 'limitKey'), 'Arn'] }), ['dynamodb:GetItem', 'dynamodb:UpdateItem']],
    ]));
    expect(byResource.flatMap(([, actions]) => actions).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:UpdateItem', 'ses:SendEmail']);
    const rule = only(template, 'AWS::Events::Rule').Properties;
    expect(rule.ScheduleExpression).toBe('rate(5 minutes)');
    const mailerId = Object.entries(template.findResources('AWS::Lambda::Function')).find(([, f]) => (f as Resource).Properties.Handler === 'index.resend')![0];
    expect(rule.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [mailerId, 'Arn'] });
  });

  test('an alarm for every way a lead can be lost or late, each e-mailed to the owner through the alarm topic, and again when it clears', () => {
    const handler = lambdaId(template, 'index.handler');
    const mailer = lambdaId(template, 'index.resend');
    const sesEvents = lambdaId(template, 'index.sesEvents');
    const alarms = alarmsByMetric(template);
    const atLeastOne = { Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1, DatapointsToAlarm: 1, TreatMissingData: 'notBreaching' };
    const sum5 = { Statistic: 'Sum', Period: 300 };
    expect(alarms).toEqual({
      // Must keep arriving: missing data is the alarm.
      'Site/Leads/UnsentLeadsOver30Min': expect.objectContaining({ Statistic: 'Maximum', Period: 600, Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'breaching' }),
      [`Invocations@${mailer}`]: expect.objectContaining({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Period: 900, Threshold: 1, ComparisonOperator: 'LessThanThreshold', TreatMissingData: 'breaching' }),
      [`Site/Leads/${METRICS.storeErrors}`]: expect.objectContaining({ ...sum5, ...atLeastOne }),
      [`Url5xxCount@${handler}`]: expect.objectContaining({ Namespace: 'AWS/Lambda', ...sum5, ...atLeastOne }),
      [`Errors@${handler}`]: expect.objectContaining({ Namespace: 'AWS/Lambda', ...sum5, ...atLeastOne }),
      [`Throttles@${handler}`]: expect.objectContaining({ Namespace: 'AWS/Lambda', ...sum5, ...atLeastOne }),
      [`Errors@${mailer}`]: expect.objectContaining({ Namespace: 'AWS/Lambda', ...sum5, ...atLeastOne }),
      [`Throttles@${mailer}`]: expect.objectContaining({ Namespace: 'AWS/Lambda', ...sum5, ...atLeastOne }),
      [`Errors@${sesEvents}`]: expect.objectContaining({ Namespace: 'AWS/Lambda', ...sum5, ...atLeastOne }),
      [`Throttles@${sesEvents}`]: expect.objectContaining({ Namespace: 'AWS/Lambda', ...sum5, ...atLeastOne }),
      // Sustained: failed sends in three 5-minute periods running.
      [`Site/Leads/${METRICS.mailFailures}`]: expect.objectContaining({ ...sum5, ...atLeastOne, EvaluationPeriods: 3, DatapointsToAlarm: 3 }),
      [`Site/Leads/${METRICS.digested}`]: expect.objectContaining({ ...sum5, ...atLeastOne }),
      // A lead set aside (a damaged record, or one SES refused twice), every run while it is.
      [`Site/Leads/${METRICS.setAside}`]: expect.objectContaining({ Statistic: 'Maximum', Period: 300, ...atLeastOne }),
      [`Site/Leads/${METRICS.bounces}`]: expect.objectContaining({ ...sum5, ...atLeastOne }),
      [`Site/Leads/${METRICS.complaints}`]: expect.objectContaining({ ...sum5, ...atLeastOne }),
      [`Site/Leads/${METRICS.rateLimited}`]: expect.objectContaining({ ...sum5, Threshold: 20, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching' }),
      // Visitors turned away, a bot at the honeypot, SES reports that never reached their lead (tests/infra/alarms.test.ts).
      [`Site/Leads/${METRICS.formPosts} Site/Leads/${METRICS.formPostsRefused}`]: expect.objectContaining({ Threshold: 50, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' }),
      [`Site/Leads/${METRICS.honeypotHits}`]: expect.objectContaining({ Statistic: 'Sum', Period: 3600, Threshold: 10, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' }),
      'AWS/SQS/ApproximateNumberOfMessagesVisible': expect.objectContaining({ Statistic: 'Maximum', Period: 300, ...atLeastOne }),
    });

    const topics = template.findResources('AWS::SNS::Topic') as Record<string, Resource>;
    const alarmTopic = Object.keys(topics).find((id) => /AlarmTopic/.test(id))!;
    for (const [key, alarm] of Object.entries(alarms)) {
      expect({ key, actions: alarm.AlarmActions, ok: alarm.OKActions }).toEqual({ key, actions: [{ Ref: alarmTopic }], ok: [{ Ref: alarmTopic }] });
      // Each tells the owner what to run, on the real table and region.
      expect({ key, says: JSON.stringify(alarm.AlarmDescription) }).toEqual({ key, says: expect.stringMatching(/site leads (list|resend)[^]*--table [^]*LeadsTable[^]*--region eu-west-2/) });
    }
    const subscriptions = resources(template, 'AWS::SNS::Subscription').map((r) => r.Properties);
    expect(subscriptions).toContainEqual(expect.objectContaining({ Protocol: 'email', Endpoint: 'leads@example.co.uk', TopicArn: { Ref: alarmTopic } }));
  });

  test('SES reports bounces, complaints and deliveries of the configuration set to a topic that only SES (for that set) may publish to, read by index.sesEvents', () => {
    const configSet = Object.keys(template.findResources('AWS::SES::ConfigurationSet'))[0]!;
    const destination = only(template, 'AWS::SES::ConfigurationSetEventDestination').Properties;
    expect(destination.ConfigurationSetName).toEqual({ Ref: configSet });
    expect([...destination.EventDestination.MatchingEventTypes].sort()).toEqual(['bounce', 'complaint', 'delivery', 'reject', 'send']);
    const eventsTopic = destination.EventDestination.SnsDestination.TopicARN.Ref as string;
    expect(eventsTopic).toMatch(/MailEvents/);

    const policy = only(template, 'AWS::SNS::TopicPolicy').Properties;
    expect(policy.Topics).toEqual([{ Ref: eventsTopic }]);
    expect(policy.PolicyDocument.Statement).toEqual([expect.objectContaining({
      Action: 'sns:Publish', Principal: { Service: 'ses.amazonaws.com' },
      Condition: { StringEquals: { 'AWS:SourceAccount': { Ref: 'AWS::AccountId' }, 'AWS:SourceArn': expect.objectContaining({ 'Fn::Join': expect.anything() }) } },
    })]);
    // Only this configuration set's events.
    expect(JSON.stringify(policy.PolicyDocument.Statement[0].Condition.StringEquals['AWS:SourceArn'])).toMatch(new RegExp(`configuration-set/.*${configSet}`));

    const sesEvents = lambdaWith(template, 'index.sesEvents');
    expect(sesEvents.Properties).toMatchObject({ Runtime: 'nodejs22.x', Handler: 'index.sesEvents' });
    expect(sesEvents.Properties.Environment.Variables).toMatchObject({ LEADS_TABLE: { Ref: tableId(template) }, MAIL_TO: 'leads@example.co.uk', ALLOWED_ORIGINS: 'https://www.example.co.uk' });
    expect(resources(template, 'AWS::SNS::Subscription').map((r) => r.Properties)).toContainEqual(expect.objectContaining({
      Protocol: 'lambda', TopicArn: { Ref: eventsTopic }, Endpoint: { 'Fn::GetAtt': [lambdaId(template, 'index.sesEvents'), 'Arn'] },
    }));
    // It finds leads through the indexes on send and message id (Query on those alone, never a Scan)
    // and marks them (UpdateItem); and it may put what it fails on in its dead-letter queue. Nothing else.
    const deadLetters = Object.keys(template.findResources('AWS::SQS::Queue'))[0]!;
    const index = (name: string) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId(template), 'Arn'] }, `/index/${name}`]] });
    expect(statementsOf(template, sesEvents)).toEqual([
      { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': [deadLetters, 'Arn'] } },
      { Effect: 'Allow', Action: 'dynamodb:UpdateItem', Resource: { 'Fn::GetAtt': [tableId(template), 'Arn'] } },
      { Effect: 'Allow', Action: 'dynamodb:Query', Resource: [index(SEND_INDEX), index(MESSAGE_INDEX)] },
    ]);
  });

  test('synthesises offline: no context lookups, and the WAF stack is defined by default (its ARN not yet given, the site stack says so)', () => {
    const assembly = defined.app.synth();
    expect(assembly.manifest.missing ?? []).toEqual([]);
    expect(defined.waf?.region).toBe('us-east-1');
    expect(defined.site.region).toBe('eu-west-2');
    Annotations.fromStack(defined.site).hasWarning('/Site', Match.stringLikeRegexp('webAclArn is not set'));
  });
});

describe('settings that change the stacks', () => {
  test('waf (on by default): a us-east-1 stack with a CloudFront-scoped web ACL, rate-limiting /api/* per IP, 20 per 5 minutes unless set', () => {
    const defaults = only(Template.fromStack(synth().waf!), 'AWS::WAFv2::WebACL').Properties;
    expect((defaults.Rules as Array<Record<string, any>>).find((r) => r.Name === 'api-rate-limit')!.Statement.RateBasedStatement.Limit).toBe(20);
    const { waf, site } = synth({ wafApiRateLimit: '50' });
    expect(waf!.region).toBe('us-east-1');
    const acl = only(Template.fromStack(waf!), 'AWS::WAFv2::WebACL').Properties;
    expect(acl.Scope).toBe('CLOUDFRONT');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    const api = (acl.Rules as Array<Record<string, any>>).find((r) => r.Name === 'api-rate-limit')!;
    expect(api.Action).toEqual({ Block: {} });
    expect(api.Statement.RateBasedStatement).toMatchObject({
      Limit: 50, AggregateKeyType: 'IP', EvaluationWindowSec: 300,
      ScopeDownStatement: { ByteMatchStatement: { SearchString: '/api/', PositionalConstraint: 'STARTS_WITH', FieldToMatch: { UriPath: {} } } },
    });
    Template.fromStack(waf!).hasOutput('WebAclArn', {});
    // Until its ARN is given, the site stack says the ACL is not attached.
    Annotations.fromStack(site).hasWarning('/Site', Match.stringLikeRegexp('webAclArn is not set'));
  });

  test('webAclArn attaches the web ACL to the distribution', () => {
    const { site } = synth({ waf: 'on', webAclArn: WEB_ACL, alarmTo: 'alarms@example.co.uk', distributionId: 'E2QWRUHAPOMQZL' });
    expect(only(Template.fromStack(site), 'AWS::CloudFront::Distribution').Properties.DistributionConfig.WebACLId).toBe(WEB_ACL);
    expect(Annotations.fromStack(site).findWarning('*', Match.anyValue())).toEqual([]);
  });

  test('waf off leaves the WAF stack out, and the site stack warns of nothing', () => {
    const { waf, site } = synth({ waf: 'off', alarmTo: 'alarms@example.co.uk', distributionId: 'E2QWRUHAPOMQZL' });
    expect(waf).toBeUndefined();
    expect(Annotations.fromStack(site).findWarning('*', Match.anyValue())).toEqual([]);
  });

  test('reservedConcurrency reserves that many for the form Lambda; region and sesIdentity move the SES permission', () => {
    const { site } = synth({ reservedConcurrency: '40', region: 'eu-west-1', sesIdentity: 'web@example.co.uk, leads@example.co.uk' });
    const template = Template.fromStack(site);
    const handler = lambdaWith(template, 'index.handler');
    expect(handler.Properties.ReservedConcurrentExecutions).toBe(40);
    const statement = statementsOf(template, handler).find((s) => s.Action === 'ses:SendEmail')!;
    expect(statement.Action).toBe('ses:SendEmail');
    expect(JSON.stringify(statement.Resource)).toMatch(/:ses:eu-west-1:.*:identity\/web@example\.co\.uk.*:ses:eu-west-1:.*:identity\/leads@example\.co\.uk/);
  });

  test('a lead retention setting that disagrees with content/site.yaml stops synth with both figures; the same figure is accepted', async () => {
    const yaml = await readFile(path.join(ROOT, 'content/site.yaml'), 'utf8');
    const months = Number(/^leadRetentionMonths:\s*(\d+)/m.exec(yaml)![1]);
    const other = months === 12 ? 18 : 12;
    expect(() => synth({ leadRetentionMonths: String(other) })).toThrow(SettingsError);
    expect(() => synth({ leadRetentionMonths: String(other) }))
      .toThrow(new RegExp(`leadRetentionMonths .* is ${other} but content/site\\.yaml's leadRetentionMonths is ${months}`));
    const app = new App({ context: { ...SETTINGS, deployDir } });
    expect(() => defineApp(app, { SITE_LEAD_RETENTION_MONTHS: String(other) })).toThrow(/SITE_LEAD_RETENTION_MONTHS\) is \d+ but content\/site\.yaml/);
    const agreed = Template.fromStack(synth({ leadRetentionMonths: String(months) }).site);
    expect(lambdaWith(agreed, 'index.handler').Properties.Environment.Variables.LEAD_RETENTION_MONTHS).toBe(String(months));
  });

  test("cmsClientId deploys the content manager's sign-in: its own bundle behind a public Function URL, the secret read from SSM through the extension, never in the template", async () => {
    const without = Template.fromStack(synth().site);
    expect(resources(without, 'AWS::Lambda::Function').some((f) => f.Properties.Environment?.Variables?.CMS_CLIENT_ID)).toBe(false);
    expect(Object.keys(without.findOutputs('CmsAuthUrl'))).toEqual([]);

    const template = Template.fromStack(synth({ cmsClientId: 'Ov23liAbCdEf12345678' }).site);
    const [fn, ...others] = resources(template, 'AWS::Lambda::Function').filter((f) => f.Properties.Environment?.Variables?.CMS_CLIENT_ID);
    expect(others).toEqual([]);
    expect(fn!.Properties).toMatchObject({ Handler: 'index.handler', Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 15 });
    // Its settings, and no secret among them: only the parameter's name.
    const variables = fn!.Properties.Environment.Variables as Record<string, string>;
    expect(Object.fromEntries(Object.entries(variables).filter(([k]) => !/^(PARAMETERS_SECRETS_EXTENSION|SSM_PARAMETER_STORE|SECRETS_MANAGER)_/.test(k)))).toEqual({
      CMS_CLIENT_ID: 'Ov23liAbCdEf12345678', CMS_SECRET_PARAMETER: '/site/cms/github-client-secret', SITE_ORIGIN: 'https://www.example.co.uk', CMS_SCOPE: 'public_repo',
    });
    // A private repository's sign-in asks for `repo` (the construct alone: the rest of the stack is as above).
    const stack = new Stack(new App(), 'CmsOnly');
    const settings = readSettings((key) => ({ ...SETTINGS, cmsClientId: 'Ov23liAbCdEf12345678', cmsRepoVisibility: 'private' } as Record<string, unknown>)[key], {});
    new CmsAuth(stack, 'Cms', { settings: settings as typeof settings & { cmsClientId: string }, codeDir: path.join(deployDir, 'lambda-cms-auth'), adminOrigin: 'https://www.example.co.uk' });
    expect(resources(Template.fromStack(stack), 'AWS::Lambda::Function').flatMap((f) => f.Properties.Environment?.Variables?.CMS_SCOPE ?? [])).toEqual(['repo']);
    // The extension's own settings: its port, which lambda/cms-auth/secret.ts reads, and a cache of five minutes.
    expect(variables).toMatchObject({ PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: '2773', SSM_PARAMETER_STORE_TTL: '300' });
    // Its code is the sign-in bundle (no form handler in it), and reads the parameter through the extension's layer.
    const bundle = await readFile(path.join(deployDir, 'lambda-cms-auth', 'index.mjs'), 'utf8');
    expect(bundle).toContain('/systemsmanager/parameters/get');
    expect(bundle).not.toContain('SendEmail');
    expect(JSON.stringify(fn!.Properties.Layers)).toMatch(/AWS-Parameters-and-Secrets-Lambda-Extension-Arm64/);
    // Allowed to read that one parameter, nothing else of SSM, and no other service.
    const statements = statementsOf(template, fn!);
    expect(statements.map((st) => st.Action)).toEqual(['ssm:GetParameter']);
    expect(JSON.stringify(statements[0]!.Resource)).toMatch(/:ssm:.*:parameter\/site\/cms\/github-client-secret"/);
    // A public Function URL (GitHub redirects the sign-in window to it), given as an output for site.yaml and the OAuth app.
    const fnId = idOf(template, 'AWS::Lambda::Function', (f) => Boolean(f.Properties.Environment?.Variables?.CMS_CLIENT_ID));
    const urls = resources(template, 'AWS::Lambda::Url').filter((u) => u.Properties.TargetFunctionArn['Fn::GetAtt'][0] === fnId);
    expect(urls.map((u) => u.Properties.AuthType)).toEqual(['NONE']);
    expect(Object.keys(template.findOutputs('CmsAuthUrl'))).toEqual(['CmsAuthUrl']);
    expect(JSON.stringify(template.toJSON())).not.toMatch(/client_secret|clientSecret/i);

    expect(() => synth({ cmsClientId: 'no good!' })).toThrow(/cmsClientId .* is 'no good!'/);
    expect(() => synth({ cmsClientId: 'Ov23liAbCdEf12345678', cmsSecretParameter: 'relative' })).toThrow(/cmsSecretParameter/);
  });

  test("a content manager on a host of its own (cms.host): the distribution answers to both names, the sign-in posts its token to the manager's origin alone, and a build for another site is refused", async () => {
    // The build's routing table as site build writes it with cms.host set (tests/infra/cloudfront-functions routes by it).
    const ownHost = path.join(work, 'deploy-cms-host');
    await cp(deployDir, ownHost, { recursive: true, dereference: true }); // its own files, not links into the build
    const table = JSON.parse(await readFile(path.join(deployDir, 'routing.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(ownHost, 'routing.json'), JSON.stringify({ ...table, hosts: { site: 'www.example.co.uk', cms: 'cms.example.co.uk' } }));
    const template = Template.fromStack(synth({ deployDir: ownHost, cmsClientId: 'Ov23liAbCdEf12345678' }).site);
    const [cdn] = resources(template, 'AWS::CloudFront::Distribution');
    expect(cdn!.Properties.DistributionConfig.Aliases).toEqual(['www.example.co.uk', 'cms.example.co.uk']);
    const [fn] = resources(template, 'AWS::Lambda::Function').filter((f) => f.Properties.Environment?.Variables?.CMS_CLIENT_ID);
    expect(fn!.Properties.Environment.Variables.SITE_ORIGIN).toBe('https://cms.example.co.uk');
    // Without cms.host: one name, and the token goes to the site's own origin, where /admin is.
    expect(resources(Template.fromStack(synth().site), 'AWS::CloudFront::Distribution')[0]!.Properties.DistributionConfig.Aliases).toEqual(['www.example.co.uk']);

    await writeFile(path.join(ownHost, 'routing.json'), JSON.stringify({ ...table, hosts: { site: 'www.other.example', cms: 'cms.example.co.uk' } }));
    expect(() => synth({ deployDir: ownHost })).toThrow(/was built for www\.other\.example, with the content manager at cms\.example\.co\.uk, but the stack deploys www\.example\.co\.uk: run `npx site build --site-url https:\/\/www\.example\.co\.uk`/);
    await writeFile(path.join(ownHost, 'routing.json'), JSON.stringify({ ...table, hosts: { site: 'www.example.co.uk' } }));
    expect(() => synth({ deployDir: ownHost })).toThrow(/routing\.json is not the routing table site build writes \(its hosts are not a site and a cms host name\)/);
  });

  test("previewDomain defines the previews: a bucket, store and distribution of their own on *.<previewDomain>, routed by the site's functions over their store, every answer noindex, a deploy policy reaching nothing of the site's", async () => {
    const template = Template.fromStack(synth({ previewDomain: 'preview.example.co.uk' }).site);
    const code = {
      request: await readFile(path.join(deployDir, 'cloudfront/viewer-request.js'), 'utf8'),
      response: await readFile(path.join(deployDir, 'cloudfront/viewer-response.js'), 'utf8'),
    };
    const ids = (type: string) => Object.keys(template.findResources(type));
    const [siteBucket, previewBucket] = [ids('AWS::S3::Bucket').find((id) => !id.startsWith('Previews'))!, ids('AWS::S3::Bucket').find((id) => id.startsWith('Previews'))!];
    const [siteStore, previewStore] = [ids('AWS::CloudFront::KeyValueStore').find((id) => !id.startsWith('Previews'))!, ids('AWS::CloudFront::KeyValueStore').find((id) => id.startsWith('Previews'))!];
    expect([siteBucket, previewBucket, siteStore, previewStore].every(Boolean)).toBe(true);
    const distributions = template.findResources('AWS::CloudFront::Distribution') as Record<string, Resource>;
    expect(Object.keys(distributions)).toHaveLength(2);
    const [site, preview] = [Object.values(distributions).find((d) => d.Properties.DistributionConfig.Aliases[0] === 'www.example.co.uk')!, Object.values(distributions).find((d) => d.Properties.DistributionConfig.Aliases[0] === '*.preview.example.co.uk')!];
    const config = preview.Properties.DistributionConfig;
    expect(config.Aliases).toEqual(['*.preview.example.co.uk']);
    // certificateArn unless previewCertificateArn is set: it must cover the wildcard (docs/owners.md).
    expect(config.ViewerCertificate).toMatchObject({ AcmCertificateArn: CERT, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' });

    // Each distribution reads its own bucket alone: no preview file is ever in reach of the site's host.
    const bucketOf = (d: Resource) => (d.Properties.DistributionConfig.Origins as Array<Record<string, any>>).filter((o) => o.S3OriginConfig).map((o) => o.DomainName['Fn::GetAtt'][0]);
    expect(bucketOf(preview)).toEqual([previewBucket]);
    expect(bucketOf(site)).toEqual([siteBucket]);
    expect(config.CacheBehaviors.map((b: Record<string, unknown>) => b.PathPattern)).not.toContain('/api/*');

    // The very functions the build wrote; the preview's request function reads the previews' store.
    const functions = template.findResources('AWS::CloudFront::Function') as Record<string, Resource>;
    const fnOf = (association: Array<{ EventType: string; FunctionARN: { 'Fn::GetAtt': [string, string] } }>, type: string) => functions[association.find((a) => a.EventType === type)!.FunctionARN['Fn::GetAtt'][0]]!;
    const request = fnOf(config.DefaultCacheBehavior.FunctionAssociations, 'viewer-request');
    expect(request.Properties.FunctionCode).toBe(code.request);
    expect(request.Properties.FunctionConfig.KeyValueStoreAssociations).toEqual([{ KeyValueStoreARN: { 'Fn::GetAtt': [previewStore, 'Arn'] } }]);
    expect(fnOf(config.DefaultCacheBehavior.FunctionAssociations, 'viewer-response').Properties.FunctionCode).toBe(code.response);
    expect(fnOf(site.Properties.DistributionConfig.DefaultCacheBehavior.FunctionAssociations, 'viewer-request').Properties.FunctionConfig.KeyValueStoreAssociations)
      .toEqual([{ KeyValueStoreARN: { 'Fn::GetAtt': [siteStore, 'Arn'] } }]);

    // Every behaviour sends the site's headers and noindex; the site's own never noindex.
    const policies = template.findResources('AWS::CloudFront::ResponseHeadersPolicy') as Record<string, Resource>;
    const sent = (ref: { Ref: string }) => headersFromPolicy(policies[ref.Ref]!.Properties.ResponseHeadersPolicyConfig);
    expect(sent(config.DefaultCacheBehavior.ResponseHeadersPolicyId)).toEqual({ ...headers.default, 'x-robots-tag': 'noindex' });
    for (const b of config.CacheBehaviors) expect(sent(b.ResponseHeadersPolicyId)).toEqual({ ...headers.paths[0]!.headers, 'x-robots-tag': 'noindex' });
    expect(sent(site.Properties.DistributionConfig.DefaultCacheBehavior.ResponseHeadersPolicyId)['x-robots-tag']).toBeUndefined();
    // Cached as each file says, so that a preview deploy needs no invalidation.
    const cache = (template.findResources('AWS::CloudFront::CachePolicy') as Record<string, Resource>)[config.DefaultCacheBehavior.CachePolicyId.Ref]!;
    expect(cache.Properties.CachePolicyConfig).toMatchObject({ MinTTL: 0, DefaultTTL: 0 });

    // The deploy policy: the previews' bucket (pr-* alone) and store, nothing of the site's.
    const policy = only(template, 'AWS::IAM::ManagedPolicy').Properties.PolicyDocument.Statement as Array<Record<string, any>>;
    const text = JSON.stringify(policy);
    expect(text).not.toContain(siteBucket);
    expect(text).not.toContain(siteStore);
    expect(policy).toEqual([
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: { 'Fn::GetAtt': [previewBucket, 'Arn'] }, Condition: { StringLike: { 's3:prefix': 'pr-*' } } },
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [previewBucket, 'Arn'] }, '/pr-*']] } },
      { Effect: 'Allow', Action: ['cloudfront-keyvaluestore:DescribeKeyValueStore', 'cloudfront-keyvaluestore:ListKeys', 'cloudfront-keyvaluestore:UpdateKeys'], Resource: { 'Fn::GetAtt': [previewStore, 'Arn'] } },
    ]);
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.PreviewBucketName!.Value).toEqual({ Ref: previewBucket });
    expect(outputs.PreviewKeyValueStoreArn!.Value).toEqual({ 'Fn::GetAtt': [previewStore, 'Arn'] });
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['PreviewDeployPolicyArn', 'PreviewDistributionDomainName']));
  });

  test('missing build outputs are named, with the command that makes them', () => {
    const app = new App({ context: { ...SETTINGS, deployDir: path.join(work, 'nowhere') } });
    expect(() => defineApp(app, {})).toThrow(BuildOutputsError);
    expect(() => defineApp(new App({ context: { ...SETTINGS, deployDir: path.join(work, 'nowhere') } }), {}))
      .toThrow(/viewer-request\.js does not exist: run `npx site build[\s\S]*headers\.json[\s\S]*lambda\/index\.mjs does not exist: run `npm run build:lambda`/);
  });
});

describe('the app cdk runs (infra/bin/app.ts)', () => {
  test('without settings it stops with the list of what to set, and synthesises nothing', () => {
    const env: NodeJS.ProcessEnv = { SITE_DEPLOY_DIR: deployDir };
    const said: string[] = [];
    const app = new App();
    expect(runApp(app, env, (text) => said.push(text))).toBe(1);
    expect(said.join('\n')).toMatch(/The deployment settings are incomplete:\n {2}- domainName/);
    expect(app.node.children).toHaveLength(0);
  });

  // The one run of the real command: `cdk` starting infra/cdk.json's app, offline. It starts the
  // CLI and then the app in a process of its own, 15 s on a quiet two-core machine; its timeout
  // is a hang guard.
  test('`npx cdk synth --no-notices` in infra/ writes the three templates, offline, from the settings in the environment', async () => {
    const out = path.join(work, 'cdk.out');
    const env = {
      ...process.env,
      SITE_DOMAIN: 'www.example.co.uk', SITE_CERTIFICATE_ARN: CERT, SITE_MAIL_TO: 'leads@example.co.uk', SITE_MAIL_FROM: 'web@example.co.uk',
      SITE_WAF: 'on', SITE_DISTRIBUTION_ID: 'E2QWRUHAPOMQZL', SITE_DEPLOY_DIR: deployDir, CDK_DISABLE_VERSION_CHECK: '1',
    };
    const { stdout } = await promisify(execFile)('npx', ['cdk', 'synth', '--no-notices', '--quiet', '-o', out], { cwd: path.join(ROOT, 'infra'), env });
    expect(stdout).not.toMatch(/error/i);
    expect(existsSync(path.join(out, 'Site.template.json'))).toBe(true);
    const site = JSON.parse(await readFile(path.join(out, 'Site.template.json'), 'utf8')) as { Resources: Record<string, Resource> };
    expect(Object.values(site.Resources).filter((r) => r.Type === 'AWS::CloudFront::Distribution')).toHaveLength(1);
    const waf = JSON.parse(await readFile(path.join(out, 'SiteWaf.template.json'), 'utf8')) as { Resources: Record<string, Resource> };
    expect(Object.values(waf.Resources).map((r) => r.Type)).toContain('AWS::WAFv2::WebACL');
    const edge = JSON.parse(await readFile(path.join(out, 'SiteEdgeAlarms.template.json'), 'utf8')) as { Resources: Record<string, Resource> };
    expect(Object.values(edge.Resources).filter((r) => r.Type === 'AWS::CloudWatch::Alarm')).toHaveLength(3);
  }, 600_000);
});
