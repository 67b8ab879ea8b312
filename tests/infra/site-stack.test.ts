// CDK assertions on the synthesised stacks, built from a fresh `site build` and Lambda bundle, as
// `cdk synth` builds them (infra/lib/define-app.ts), and `cdk synth` itself, offline.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildLambda } from '../../lambda/build.ts';
import { buildSite } from '../../src/build.ts';
import { BuildOutputsError } from '../../infra/lib/build-outputs.ts';
import { defineApp, type DefinedApp } from '../../infra/lib/define-app.ts';
import { formActionSources } from '../../infra/lib/headers-policy.ts';
import { parseHeadersFile, SEARCH_PATHS, type HeadersFile } from '../../src/headers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
const WEB_ACL = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/site/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
const SETTINGS = { domainName: 'www.example.co.uk', certificateArn: CERT, mailTo: 'leads@example.co.uk', mailFrom: 'Website <web@example.co.uk>' };
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let work: string;
let buildDir: string;
let headers: HeadersFile;

function synth(context: Record<string, unknown> = {}): DefinedApp & { app: App } {
  const app = new App({ context: { ...SETTINGS, buildDir, ...context } });
  return { app, ...defineApp(app, {}) };
}

type Resource = { Type: string; Properties: Record<string, any> };
const resources = (template: Template, type: string) => Object.values(template.findResources(type)) as Resource[];
const only = (template: Template, type: string) => {
  const found = resources(template, type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};

/** The Lambda function with this handler (index.handler: the forms; index.resend: the retry mailer). */
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
const tableId = (template: Template) => Object.keys(template.findResources('AWS::DynamoDB::Table'))[0]!;

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
  buildDir = path.join(work, 'build');
  await buildLambda({ outDir: path.join(buildDir, 'lambda') });
  headers = parseHeadersFile(await readFile(path.join(buildDir, 'headers.json'), 'utf8'));
}, 60_000);
afterAll(async () => { await rm(work, { recursive: true, force: true }); });

// Synthesis copies and hashes the Lambda asset: seconds normally, more on a loaded CI machine.
describe('the Site stack', { timeout: 60_000 }, () => {
  let template: Template;
  let defined: ReturnType<typeof synth>;
  beforeAll(() => {
    defined = synth();
    template = Template.fromStack(defined.site);
  }, 60_000);

  test('holds exactly these resources: no custom-resource Lambdas, nothing public', () => {
    const counts: Record<string, number> = {};
    for (const r of Object.values(template.toJSON().Resources as Record<string, Resource>)) counts[r.Type] = (counts[r.Type] ?? 0) + 1;
    expect(counts).toEqual({
      'AWS::S3::Bucket': 1,
      'AWS::S3::BucketPolicy': 1,
      'AWS::CloudFront::OriginAccessControl': 1,
      'AWS::CloudFront::Function': 2,
      // Every answer's, and the search paths' ('wasm-unsafe-eval').
      'AWS::CloudFront::ResponseHeadersPolicy': 2,
      'AWS::CloudFront::CachePolicy': 1,
      'AWS::CloudFront::Distribution': 1,
      'AWS::SecretsManager::Secret': 1,
      'AWS::Logs::LogGroup': 2,
      'AWS::IAM::Role': 2,
      'AWS::IAM::Policy': 2,
      'AWS::Lambda::Function': 2,
      'AWS::Lambda::Url': 1,
      'AWS::Lambda::Permission': 3,
      // The leads: table, retry mailer schedule, alarm and its topic.
      'AWS::DynamoDB::Table': 1,
      'AWS::Events::Rule': 1,
      'AWS::CloudWatch::Alarm': 1,
      'AWS::SNS::Topic': 1,
      'AWS::SNS::Subscription': 1,
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

  test('the routing functions are the build files, on cloudfront-js-2.0, attached to the default behaviour', async () => {
    const code = {
      request: await readFile(path.join(buildDir, 'cloudfront/viewer-request.js'), 'utf8'),
      response: await readFile(path.join(buildDir, 'cloudfront/viewer-response.js'), 'utf8'),
    };
    const functions = template.findResources('AWS::CloudFront::Function') as Record<string, Resource>;
    const byCode = Object.fromEntries(Object.entries(functions).map(([id, r]) => [r.Properties.FunctionCode, { id, runtime: r.Properties.FunctionConfig.Runtime, publish: r.Properties.AutoPublish }]));
    expect(byCode[code.request]).toMatchObject({ runtime: 'cloudfront-js-2.0', publish: true });
    expect(byCode[code.response]).toMatchObject({ runtime: 'cloudfront-js-2.0', publish: true });

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

  test('each response-headers policy sends exactly its headers of build/headers.json: the search paths theirs, every other behaviour the default', () => {
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
    expect(api).toMatchObject({ PathPattern: '/api/*', CachePolicyId: CACHING_DISABLED, OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER });
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

  test('the form Lambda: nodejs22.x, the esbuild bundle, its environment, reserved concurrency and logs kept 90 days', async () => {
    const fn = lambdaWith(template, 'index.handler').Properties;
    expect(fn).toMatchObject({ Runtime: 'nodejs22.x', Handler: 'index.handler', Timeout: 15, ReservedConcurrentExecutions: 5 });
    expect(fn.Environment.Variables).toMatchObject({
      LEADS_TABLE: { Ref: tableId(template) },
      LEAD_RETENTION_MONTHS: '24',
      MAIL_TO: 'leads@example.co.uk',
      MAIL_FROM: 'Website <web@example.co.uk>',
      ALLOWED_ORIGINS: 'https://www.example.co.uk',
      ORIGIN_VERIFY_SECRET: { 'Fn::Join': ['', [expect.stringContaining('{{resolve:secretsmanager:'), expect.anything(), expect.any(String)]] },
    });
    const logGroupId = fn.LoggingConfig.LogGroup.Ref as string;
    expect((template.findResources('AWS::Logs::LogGroup')[logGroupId] as Resource).Properties.RetentionInDays).toBe(90);

    // The code asset is the build/lambda folder: the bundle, without the zip beside it.
    const assembly = defined.app.synth();
    const assetDir = path.join(assembly.directory, `asset.${String(fn.Code.S3Key).replace(/\.zip$/, '')}`);
    expect(readdirSync(assetDir)).toEqual(['index.mjs']);
    expect(await readFile(path.join(assetDir, 'index.mjs'))).toEqual(await readFile(path.join(buildDir, 'lambda/index.mjs')));
  });

  test('the form Lambda may only send e-mail as the SES identity, and put and update leads in its table (no scan, no delete)', () => {
    const handler = lambdaWith(template, 'index.handler');
    expect(statementsOf(template, handler)).toEqual([{
      Effect: 'Allow',
      Action: 'ses:SendEmail',
      Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:eu-west-2:', { Ref: 'AWS::AccountId' }, ':identity/example.co.uk']] },
    }, {
      Effect: 'Allow',
      Action: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
      Resource: { 'Fn::GetAtt': [tableId(template), 'Arn'] },
    }]);
    const roleId = handler.Properties.Role['Fn::GetAtt'][0] as string;
    const role = (template.findResources('AWS::IAM::Role')[roleId] as Resource).Properties;
    // Besides that, only the managed policy that lets it write its own logs.
    expect(JSON.stringify(role.ManagedPolicyArns)).toContain('service-role/AWSLambdaBasicExecutionRole');
    expect(role.ManagedPolicyArns).toHaveLength(1);
  });

  test('the leads table: on demand, keyed by submissionId, TTL on expiresAt, PITR, KMS encryption, an email index, kept on stack deletion', () => {
    const [id, table] = Object.entries(template.findResources('AWS::DynamoDB::Table'))[0] as [string, Resource & { DeletionPolicy: string }];
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'submissionId', KeyType: 'HASH' }],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      // SSEEnabled without a key: the AWS-managed KMS key (aws/dynamodb).
      SSESpecification: { SSEEnabled: true },
      DeletionProtectionEnabled: true,
      GlobalSecondaryIndexes: [{ IndexName: 'byEmail', KeySchema: [{ AttributeName: 'emailKey', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } }],
    });
    template.hasOutput('LeadsTable', { Value: { Ref: id } });
  });

  test('the retry mailer: the same bundle (index.resend), every 5 minutes, one at a time, reading and updating leads and sending as the SES identity', () => {
    const mailer = lambdaWith(template, 'index.resend');
    expect(mailer.Properties).toMatchObject({ Runtime: 'nodejs22.x', Timeout: 60, ReservedConcurrentExecutions: 1 });
    expect(mailer.Properties.Environment.Variables).toMatchObject({ LEADS_TABLE: { Ref: tableId(template) }, MAIL_TO: 'leads@example.co.uk', ALLOWED_ORIGINS: 'https://www.example.co.uk' });
    const actions = statementsOf(template, mailer).flatMap((s) => [s.Action].flat());
    expect(actions.sort()).toEqual(['dynamodb:GetItem', 'dynamodb:Scan', 'dynamodb:UpdateItem', 'ses:SendEmail']);
    const rule = only(template, 'AWS::Events::Rule').Properties;
    expect(rule.ScheduleExpression).toBe('rate(5 minutes)');
    const mailerId = Object.entries(template.findResources('AWS::Lambda::Function')).find(([, f]) => (f as Resource).Properties.Handler === 'index.resend')![0];
    expect(rule.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [mailerId, 'Arn'] });
  });

  test('an alarm when a lead is unsent after 30 minutes (or the mailer stops reporting), e-mailed through SNS', () => {
    const alarm = only(template, 'AWS::CloudWatch::Alarm').Properties;
    expect(alarm).toMatchObject({
      Namespace: 'Site/Leads', MetricName: 'UnsentLeadsOver30Min', Statistic: 'Maximum', Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'breaching',
    });
    const topicId = Object.keys(template.findResources('AWS::SNS::Topic'))[0];
    expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(only(template, 'AWS::SNS::Subscription').Properties).toMatchObject({ Protocol: 'email', Endpoint: 'leads@example.co.uk', TopicArn: { Ref: topicId } });
  });

  test('synthesises offline: no context lookups, no WAF stack unless asked', () => {
    const assembly = defined.app.synth();
    expect(assembly.manifest.missing ?? []).toEqual([]);
    expect(defined.waf).toBeUndefined();
    expect(defined.site.region).toBe('eu-west-2');
  });
});

describe('settings that change the stacks', { timeout: 60_000 }, () => {
  test('waf on: a us-east-1 stack with a CloudFront-scoped web ACL, rate-limiting /api/* per IP', () => {
    const { waf, site } = synth({ waf: 'on', wafApiRateLimit: '50' });
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
    const { site } = synth({ waf: 'on', webAclArn: WEB_ACL });
    expect(only(Template.fromStack(site), 'AWS::CloudFront::Distribution').Properties.DistributionConfig.WebACLId).toBe(WEB_ACL);
    expect(Annotations.fromStack(site).findWarning('*', Match.anyValue())).toEqual([]);
  });

  test("reservedConcurrency 'off' leaves the Lambda unreserved; region and sesIdentity move the SES permission", () => {
    const { site } = synth({ reservedConcurrency: 'off', region: 'eu-west-1', sesIdentity: 'web@example.co.uk, leads@example.co.uk' });
    const template = Template.fromStack(site);
    const handler = lambdaWith(template, 'index.handler');
    expect(handler.Properties.ReservedConcurrentExecutions).toBeUndefined();
    const statement = statementsOf(template, handler)[0]!;
    expect(statement.Action).toBe('ses:SendEmail');
    expect(JSON.stringify(statement.Resource)).toMatch(/:ses:eu-west-1:.*:identity\/web@example\.co\.uk.*:ses:eu-west-1:.*:identity\/leads@example\.co\.uk/);
  });

  test('missing build outputs are named, with the command that makes them', () => {
    const app = new App({ context: { ...SETTINGS, buildDir: path.join(work, 'nowhere') } });
    expect(() => defineApp(app, {})).toThrow(BuildOutputsError);
    expect(() => defineApp(new App({ context: { ...SETTINGS, buildDir: path.join(work, 'nowhere') } }), {}))
      .toThrow(/viewer-request\.js does not exist: run `npx site build[\s\S]*headers\.json[\s\S]*lambda\/index\.mjs does not exist: run `npm run build:lambda`/);
  });
});

describe('cdk synth', () => {
  test('`npx cdk synth --no-notices` in infra/ writes both templates, offline, from the settings in the environment', async () => {
    const out = path.join(work, 'cdk.out');
    const env = {
      ...process.env,
      SITE_DOMAIN: 'www.example.co.uk', SITE_CERTIFICATE_ARN: CERT, SITE_MAIL_TO: 'leads@example.co.uk', SITE_MAIL_FROM: 'web@example.co.uk',
      SITE_WAF: 'on', SITE_BUILD_DIR: buildDir, CDK_DISABLE_VERSION_CHECK: '1',
    };
    const { stdout } = await promisify(execFile)('npx', ['cdk', 'synth', '--no-notices', '--quiet', '-o', out], { cwd: path.join(ROOT, 'infra'), env });
    expect(stdout).not.toMatch(/error/i);
    expect(existsSync(path.join(out, 'Site.template.json'))).toBe(true);
    const site = JSON.parse(await readFile(path.join(out, 'Site.template.json'), 'utf8')) as { Resources: Record<string, Resource> };
    expect(Object.values(site.Resources).filter((r) => r.Type === 'AWS::CloudFront::Distribution')).toHaveLength(1);
    const waf = JSON.parse(await readFile(path.join(out, 'SiteWaf.template.json'), 'utf8')) as { Resources: Record<string, Resource> };
    expect(Object.values(waf.Resources).map((r) => r.Type)).toContain('AWS::WAFv2::WebACL');
  }, 120_000);

  test('without settings it stops with the list of what to set', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, SITE_BUILD_DIR: buildDir, CDK_DISABLE_VERSION_CHECK: '1' };
    for (const name of ['SITE_DOMAIN', 'SITE_CERTIFICATE_ARN', 'SITE_MAIL_TO', 'SITE_MAIL_FROM']) delete env[name];
    const run = promisify(execFile)('npx', ['tsx', 'bin/app.ts'], { cwd: path.join(ROOT, 'infra'), env });
    await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/The deployment settings are incomplete:\n {2}- domainName/) });
  }, 60_000);
});
