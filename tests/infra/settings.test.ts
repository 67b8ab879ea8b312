// The deployment settings and the header mapping, without synthesising anything.
import { describe, expect, test } from 'vitest';
import { headersPolicyParts } from '../../infra/lib/headers-policy.ts';
import { readSettings, SettingsError } from '../../infra/lib/settings.ts';

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
const REQUIRED = { domainName: 'www.example.co.uk', certificateArn: CERT, mailTo: 'leads@example.co.uk', mailFrom: 'Website <web@example.co.uk>' };
const fromContext = (values: Record<string, unknown>) => (key: string) => values[key];

function problems(context: Record<string, unknown>, env: Record<string, string> = {}): string[] {
  try {
    readSettings(fromContext(context), env);
  } catch (error) {
    if (error instanceof SettingsError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('readSettings', () => {
  test('the required settings missing are reported together, each with its flag and variable', () => {
    const found = problems({});
    expect(found).toHaveLength(4);
    expect(found[0]).toMatch(/^domainName \(-c domainName=… or SITE_DOMAIN\) is missing/);
    expect(found.join('\n')).toMatch(/certificateArn .*SITE_CERTIFICATE_ARN.*us-east-1/);
    expect(found.join('\n')).toMatch(/mailTo .*SITE_MAIL_TO/);
    expect(found.join('\n')).toMatch(/mailFrom .*SITE_MAIL_FROM/);
    expect(() => readSettings(fromContext({}), {})).toThrow(/Set each with `-c name=value`/);
  });

  test("previews: a domain of their own, a us-east-1 certificate (the site's unless set), and no site host that a preview's name would take", () => {
    expect(readSettings(fromContext({ ...REQUIRED, previewDomain: 'Preview.example.co.uk' }), {})).toMatchObject({ previewDomain: 'preview.example.co.uk', previewCertificateArn: CERT });
    expect(readSettings(fromContext(REQUIRED), {})).not.toHaveProperty('previewDomain');
    const other = CERT.replace('0f1e2d3c', '1a2b3c4d');
    expect(readSettings(fromContext(REQUIRED), { SITE_PREVIEW_DOMAIN: 'preview.example.co.uk', SITE_PREVIEW_CERTIFICATE_ARN: other })).toMatchObject({ previewCertificateArn: other });
    expect(problems({ ...REQUIRED, previewDomain: 'www.example.co.uk' })).toEqual([expect.stringMatching(/^previewDomain \(-c previewDomain=… or SITE_PREVIEW_DOMAIN\) is 'www\.example\.co\.uk': expected a host name of its own/)]);
    expect(problems({ ...REQUIRED, previewDomain: 'preview.example.co.uk', previewCertificateArn: CERT.replace('us-east-1', 'eu-west-2') })).toEqual([expect.stringMatching(/previewCertificateArn .* is in eu-west-2: CloudFront only accepts certificates issued in us-east-1/)]);
    expect(problems({ ...REQUIRED, domainName: 'pr-1.example.co.uk' })).toEqual([expect.stringMatching(/^domainName .* is 'pr-1\.example\.co\.uk': expected a host name that does not begin as a pull request's preview does \(pr-1\.\)/)]);
  });

  test('defaults: eu-west-2, the sender domain as SES identity, the site origin allowed, WAF on with 20 posts per address, no reserved concurrency, 90 days of logs, no content manager sign-in', () => {
    expect(readSettings(fromContext(REQUIRED), {})).toEqual({
      ...REQUIRED,
      region: 'eu-west-2',
      sesIdentity: ['example.co.uk'],
      allowedOrigins: ['https://www.example.co.uk'],
      waf: true,
      wafApiRateLimit: 20,
      wafSiteRateLimit: 2000,
      logRetentionDays: 90,
      priceClass: '100',
      alarmTo: 'leads@example.co.uk',
      leadRetentionMonths: 24,
      // No content manager sign-in (no cmsClientId); its secret's parameter name, were there one.
      cmsSecretParameter: '/site/cms/github-client-secret',
      cmsRepoVisibility: 'public',
    });
  });

  test("the content manager's repository is public unless said private; anything else is refused", () => {
    expect(readSettings(fromContext({ ...REQUIRED, cmsRepoVisibility: 'private' }), {}).cmsRepoVisibility).toBe('private');
    expect(readSettings(fromContext(REQUIRED), { SITE_CMS_REPO_VISIBILITY: 'private' }).cmsRepoVisibility).toBe('private');
    expect(problems({ ...REQUIRED, cmsRepoVisibility: 'internal' }).join('\n')).toMatch(/cmsRepoVisibility .*'internal': expected public or private/);
  });

  test('the alarm address and retention period: the retention is content/site.yaml\'s, and a setting that disagrees is refused', () => {
    expect(readSettings(fromContext({ ...REQUIRED, alarmTo: 'ops@example.co.uk' }), {}, { leadRetentionMonths: 36 })).toMatchObject({ alarmTo: 'ops@example.co.uk', leadRetentionMonths: 36 });
    expect(readSettings(fromContext(REQUIRED), { SITE_ALARM_TO: 'ops@example.co.uk' }).alarmTo).toBe('ops@example.co.uk');
    expect(readSettings(fromContext(REQUIRED), { SITE_LEAD_RETENTION_MONTHS: '36' }, { leadRetentionMonths: 36 }).leadRetentionMonths).toBe(36);
    const refused = (() => {
      try { readSettings(fromContext(REQUIRED), { SITE_LEAD_RETENTION_MONTHS: '12' }, { leadRetentionMonths: 36 }); } catch (error) { return error as SettingsError; }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(SettingsError);
    expect(refused!.problems).toEqual([expect.stringMatching(/^leadRetentionMonths \(-c leadRetentionMonths=… or SITE_LEAD_RETENTION_MONTHS\) is 12 but content\/site\.yaml's leadRetentionMonths is 36: .*one figure/)]);
    expect(problems({ ...REQUIRED, leadRetentionMonths: '12' })).toEqual([]);
    expect(problems({ ...REQUIRED, alarmTo: 'ops', leadRetentionMonths: '121' }).join('\n')).toMatch(/alarmTo .*'ops': expected an e-mail address[^]*leadRetentionMonths .*'121'/);
  });

  test("the alarm address's old name (alarmEmail, SITE_ALARM_EMAIL) is refused with the new one, never quietly ignored", () => {
    expect(problems({ ...REQUIRED, alarmEmail: 'ops@example.co.uk' })).toEqual([
      'alarmEmail (-c alarmEmail=… or SITE_ALARM_EMAIL) is now called alarmTo: set alarmTo (-c alarmTo=… or SITE_ALARM_TO) instead',
    ]);
    expect(problems(REQUIRED, { SITE_ALARM_EMAIL: 'ops@example.co.uk' })).toHaveLength(1);
    expect(problems({ ...REQUIRED, alarmTo: 'ops@example.co.uk' })).toEqual([]);
  });

  test("distributionId (the Site stack's DistributionId, SITE_DISTRIBUTION_ID as site deploy reads it): unset by default, checked when set", () => {
    expect(readSettings(fromContext(REQUIRED), {}).distributionId).toBeUndefined();
    expect(readSettings(fromContext(REQUIRED), { SITE_DISTRIBUTION_ID: 'E2QWRUHAPOMQZL' }).distributionId).toBe('E2QWRUHAPOMQZL');
    for (const wrong of ['d111111abcdef8.cloudfront.net', 'arn:aws:cloudfront::123456789012:distribution/E2QWRUHAPOMQZL', 'e2qwruhapomqzl']) {
      expect(problems({ ...REQUIRED, distributionId: wrong }), wrong).toEqual([expect.stringMatching(/^distributionId \(-c distributionId=… or SITE_DISTRIBUTION_ID\) is '.*': expected a CloudFront distribution id/)]);
    }
  });

  test('the environment supplies what the context does not; the context wins', () => {
    const env = {
      SITE_DOMAIN: 'site.example.org', SITE_CERTIFICATE_ARN: CERT, SITE_MAIL_TO: 'a@example.org', SITE_MAIL_FROM: 'b@mail.example.org',
      SITE_REGION: 'eu-west-1', SITE_RESERVED_CONCURRENCY: 'off', SITE_WAF: 'off', CDK_DEFAULT_ACCOUNT: '123456789012',
    };
    const settings = readSettings(fromContext({ domainName: 'www.example.net' }), env);
    expect(settings).toMatchObject({
      domainName: 'www.example.net', region: 'eu-west-1', sesIdentity: ['mail.example.org'], waf: false,
      allowedOrigins: ['https://www.example.net'], account: '123456789012',
    });
    expect(settings.reservedConcurrency).toBeUndefined();
    expect(readSettings(fromContext({ ...REQUIRED, reservedConcurrency: '50' }), {}).reservedConcurrency).toBe(50);
  });

  test('a certificate or web ACL outside us-east-1 is refused: CloudFront only uses those', () => {
    expect(problems({ ...REQUIRED, certificateArn: CERT.replace('us-east-1', 'eu-west-2') })).toEqual([
      expect.stringMatching(/certificateArn .* is in eu-west-2: CloudFront only accepts certificates issued in us-east-1/),
    ]);
    expect(problems({ ...REQUIRED, webAclArn: 'arn:aws:wafv2:eu-west-2:123456789012:global/webacl/site/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b' })).toEqual([
      expect.stringMatching(/webAclArn .* is in eu-west-2/),
    ]);
  });

  test('malformed values are named with what was expected', () => {
    const found = problems({
      ...REQUIRED, domainName: 'https://www.example.co.uk/', mailTo: 'nobody', allowedOrigins: 'http://www.example.co.uk, https://ok.example.com',
      logRetentionDays: '45', priceClass: '50', wafApiRateLimit: '5', region: 'London',
    });
    expect(found.join('\n')).toMatch(/domainName .*'https:\/\/www\.example\.co\.uk\/': expected a host name/);
    expect(found.join('\n')).toMatch(/mailTo .*'nobody': expected an e-mail address/);
    expect(found.join('\n')).toMatch(/allowedOrigins .*'http:\/\/www\.example\.co\.uk': expected an https origin/);
    expect(found.join('\n')).toMatch(/logRetentionDays .*'45'/);
    expect(found.join('\n')).toMatch(/priceClass .*'50'/);
    expect(found.join('\n')).toMatch(/wafApiRateLimit .*'5': expected a whole number of at least 10/);
    expect(found.join('\n')).toMatch(/region .*'London'/);
    expect(found).toHaveLength(7);
  });
});

describe('headersPolicyParts', () => {
  const headers = {
    'content-security-policy': "default-src 'self'; form-action 'self'",
    'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  };

  test('security headers become typed fields, the rest custom headers that override the origin', () => {
    const parts = headersPolicyParts(headers);
    expect(parts.securityHeadersBehavior.contentSecurityPolicy).toEqual({ contentSecurityPolicy: headers['content-security-policy'], override: true });
    expect(parts.securityHeadersBehavior.strictTransportSecurity).toMatchObject({ includeSubdomains: true, preload: true, override: true });
    expect(parts.securityHeadersBehavior.strictTransportSecurity?.accessControlMaxAge.toSeconds()).toBe(63072000);
    expect(parts.securityHeadersBehavior.frameOptions).toEqual({ frameOption: 'DENY', override: true });
    expect(parts.customHeaders).toEqual([{ header: 'cross-origin-opener-policy', value: 'same-origin', override: true }]);
  });

  test('values CloudFront cannot send as written are refused, not changed', () => {
    expect(() => headersPolicyParts({ ...headers, 'x-frame-options': 'ALLOW-FROM https://a.example' })).toThrow(/x-frame-options/);
    expect(() => headersPolicyParts({ ...headers, 'strict-transport-security': 'max-age=60; includeSubDomains; bogus' })).toThrow(/strict-transport-security/);
    expect(() => headersPolicyParts({ ...headers, 'referrer-policy': 'no-referrer, strict-origin' })).toThrow(/referrer-policy/);
    expect(() => headersPolicyParts({ ...headers, 'content-security-policy': `default-src 'self'; script-src ${"'sha256-x' ".repeat(200)}` })).toThrow(/at most 1783/);
  });

  test("a CSP whose form-action does not allow 'self' is refused: the forms post to /api/* on the site's origin", () => {
    expect(() => headersPolicyParts({ ...headers, 'content-security-policy': "default-src 'self'; form-action https://forms.example" })).toThrow(/form-action/);
  });
});
