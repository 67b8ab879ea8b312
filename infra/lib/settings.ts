// The deployment's settings: each from CDK context (`-c name=value`) or, failing that, from an
// environment variable, so a CI job can use variables and a person can type flags. Every problem
// is reported at once, naming both ways to set the value, so a first synth fails only once.
import { previewOf } from '../../src/url-resolution/rule.ts';

export interface SiteSettings {
  /** The site's host name, e.g. www.example.co.uk. */
  domainName: string;
  /** ACM certificate for domainName; CloudFront only takes certificates from us-east-1. */
  certificateArn: string;
  mailTo: string;
  mailFrom: string;
  /** Region of the bucket, the form Lambda and SES (the Lambda sends through SES in its own region). */
  region: string;
  /** The SES identities the Lambda may send as (verified domains or addresses); usually one. */
  sesIdentity: string[];
  allowedOrigins: string[];
  /** Define the us-east-1 WAF stack (the web ACL with the rate-based rules); on unless set off. */
  waf: boolean;
  /** Requests from one IP to /api/* allowed per 5 minutes before WAF blocks it. */
  wafApiRateLimit: number;
  /** Requests from one IP to the whole site allowed per 5 minutes before WAF blocks it. */
  wafSiteRateLimit: number;
  /** ARN of a CloudFront-scoped (us-east-1) WAF web ACL to attach to the distribution. */
  webAclArn?: string;
  /** Reserved concurrency of the form Lambda; undefined (the default) leaves it in the account's pool (form-backend.ts says why). */
  reservedConcurrency?: number;
  logRetentionDays: number;
  priceClass: '100' | '200' | 'All';
  /** Where every alarm is e-mailed (an SNS e-mail subscription in each region that has alarms); mailTo unless set, which synth warns of. */
  alarmTo: string;
  /** The Site stack's distribution (its DistributionId output): defines the us-east-1 stack of CloudFront's alarms (edge-alarms.ts). */
  distributionId?: string;
  /** Months a lead is kept (the table's TTL); content/site.yaml's leadRetentionMonths unless overridden. */
  leadRetentionMonths: number;
  /** The GitHub OAuth app's client id: when set, the content manager's sign-in handler is deployed (cms-auth.ts). */
  cmsClientId?: string;
  /** The SSM Parameter Store SecureString holding that app's client secret (put there by hand, never in the repository). */
  cmsSecretParameter: string;
  /** 'private' when the repository the content manager commits to is private: its sign-in then asks GitHub for `repo` rather than `public_repo`. */
  cmsRepoVisibility: 'public' | 'private';
  /** The domain under which each pull request's preview answers, as pr-<n>.<previewDomain> (previews.ts): when set, the previews' distribution is defined. */
  previewDomain?: string;
  /** ACM certificate (us-east-1) covering *.<previewDomain>; certificateArn unless set. */
  previewCertificateArn?: string;
  /** AWS account to deploy to; the CDK CLI sets CDK_DEFAULT_ACCOUNT from the credentials in use. */
  account?: string;
}

/** Where the GitHub OAuth app's client secret is kept, unless SITE_CMS_SECRET_PARAMETER says otherwise. */
export const DEFAULT_CMS_SECRET_PARAMETER = '/site/cms/github-client-secret';

/** Requests per IP per 5 minutes to /api/* before WAF blocks: a person sends one enquiry, perhaps corrects it; a script is stopped in minutes. */
export const DEFAULT_WAF_API_RATE_LIMIT = 20;

interface SettingSpec {
  key: keyof SiteSettings;
  env: string;
  what: string;
}

/** Context key, environment variable and meaning of each setting, for errors and the README. */
export const SETTINGS: readonly SettingSpec[] = [
  { key: 'domainName', env: 'SITE_DOMAIN', what: 'the host name visitors use, e.g. www.example.co.uk' },
  { key: 'certificateArn', env: 'SITE_CERTIFICATE_ARN', what: 'ARN of an ACM certificate for that name, issued in us-east-1' },
  { key: 'mailTo', env: 'SITE_MAIL_TO', what: 'the inbox that receives the form e-mails' },
  { key: 'mailFrom', env: 'SITE_MAIL_FROM', what: "the SES-verified sender, 'address' or 'Name <address>'" },
  { key: 'region', env: 'SITE_REGION', what: 'region of the bucket, the form Lambda and SES (default eu-west-2)' },
  { key: 'sesIdentity', env: 'SITE_SES_IDENTITY', what: "the verified SES identity to send as (default: the sender's domain); comma-separated for more" },
  { key: 'allowedOrigins', env: 'SITE_ALLOWED_ORIGINS', what: 'comma-separated origins allowed to post the forms (default https://<domain>)' },
  { key: 'waf', env: 'SITE_WAF', what: "'off' to leave out the us-east-1 WAF stack (default on)" },
  { key: 'wafApiRateLimit', env: 'SITE_WAF_API_RATE_LIMIT', what: `requests per IP per 5 minutes to /api/* (default ${DEFAULT_WAF_API_RATE_LIMIT})` },
  { key: 'wafSiteRateLimit', env: 'SITE_WAF_SITE_RATE_LIMIT', what: 'requests per IP per 5 minutes to the whole site (default 2000)' },
  { key: 'webAclArn', env: 'SITE_WEB_ACL_ARN', what: 'the WebAclArn output of the SiteWaf stack, to attach it' },
  { key: 'reservedConcurrency', env: 'SITE_RESERVED_CONCURRENCY', what: "reserved concurrency of the form Lambda (default off: the account's pool)" },
  { key: 'logRetentionDays', env: 'SITE_LOG_RETENTION_DAYS', what: 'days to keep the form Lambda logs (default 90)' },
  { key: 'alarmTo', env: 'SITE_ALARM_TO', what: 'the address every alarm is e-mailed to (default: mailTo, with a warning: a bouncing inbox would swallow its own bounce alarm)' },
  { key: 'distributionId', env: 'SITE_DISTRIBUTION_ID', what: "the Site stack's DistributionId output, for CloudFront's alarms in us-east-1 (the SiteEdgeAlarms stack)" },
  { key: 'leadRetentionMonths', env: 'SITE_LEAD_RETENTION_MONTHS', what: 'months each lead is kept before DynamoDB deletes it: must equal leadRetentionMonths in content/site.yaml, which is the default' },
  { key: 'cmsClientId', env: 'SITE_CMS_CLIENT_ID', what: "the GitHub OAuth app's client id, to deploy the content manager's sign-in handler (default: none deployed)" },
  { key: 'cmsSecretParameter', env: 'SITE_CMS_SECRET_PARAMETER', what: `the SSM SecureString parameter holding that app's client secret (default ${DEFAULT_CMS_SECRET_PARAMETER})` },
  { key: 'cmsRepoVisibility', env: 'SITE_CMS_REPO_VISIBILITY', what: "'private' when the content manager's repository is private, so its sign-in asks GitHub for the `repo` scope (default public: `public_repo`, public repositories only)" },
  { key: 'previewDomain', env: 'SITE_PREVIEW_DOMAIN', what: "the domain of pull requests' previews, each at pr-<n>.<previewDomain>, e.g. preview.example.co.uk (default: no previews)" },
  { key: 'previewCertificateArn', env: 'SITE_PREVIEW_CERTIFICATE_ARN', what: 'ARN of an ACM certificate for *.<previewDomain>, issued in us-east-1 (default: certificateArn, which must then cover it)' },
  { key: 'priceClass', env: 'SITE_PRICE_CLASS', what: "CloudFront price class: 100, 200 or All (default 100: Europe and North America)" },
];

export class SettingsError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`The deployment settings are incomplete:\n${problems.map((p) => `  - ${p}`).join('\n')}\n` +
      'Set each with `-c name=value` on the cdk command line or with the environment variable named; see README.md, Deploy.');
    this.name = 'SettingsError';
  }
}

// CloudWatch Logs accepts only these retention periods.
const RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653];
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const ADDRESS = /^[^\s@<>,]+@([^\s@<>,]+\.[^\s@<>,]+)$/;
const NAMED = /^[^<>\r\n]*<([^<>\s]+)>$/;
const CERTIFICATE = /^arn:aws:acm:([a-z0-9-]+):\d{12}:certificate\/[0-9a-f-]+$/;
const WEB_ACL = /^arn:aws:wafv2:([a-z0-9-]+):\d{12}:global\/webacl\/[\w-]+\/[0-9a-f-]+$/;
const REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;
const DISTRIBUTION_ID = /^E[A-Z0-9]{6,20}$/;

/** The address inside 'Name <address>', or the value itself. */
function bareAddress(mailbox: string): string {
  return NAMED.exec(mailbox)?.[1] ?? mailbox;
}

function describe(spec: SettingSpec): string {
  return `${spec.key} (-c ${spec.key}=… or ${spec.env})`;
}

/**
 * Reads and checks every setting. `lookup` answers a context key (CDK context wins) and `env`
 * the environment; both may be empty, in which case the defaults apply and the required ones fail.
 */
export function readSettings(
  context: (key: string) => unknown,
  env: Readonly<Record<string, string | undefined>>,
  defaults: { leadRetentionMonths?: number } = {},
): SiteSettings {
  const problems: string[] = [];
  const spec = (key: keyof SiteSettings) => SETTINGS.find((s) => s.key === key)!;
  const raw = (key: keyof SiteSettings): string | undefined => {
    const fromContext = context(key);
    const value = fromContext !== undefined && fromContext !== null ? String(fromContext) : env[spec(key).env];
    const trimmed = value?.trim();
    return trimmed ? trimmed : undefined;
  };
  const required = (key: keyof SiteSettings): string => {
    const value = raw(key);
    if (value === undefined) problems.push(`${describe(spec(key))} is missing: ${spec(key).what}`);
    return value ?? '';
  };
  const invalid = (key: keyof SiteSettings, value: string, expected: string) =>
    problems.push(`${describe(spec(key))} is '${value}': expected ${expected}`);
  const whole = (key: keyof SiteSettings, fallback: number, min: number): number => {
    const value = raw(key);
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) invalid(key, value, `a whole number of at least ${min}`);
    return n;
  };

  const domainName = required('domainName').toLowerCase();
  if (domainName && !HOST.test(domainName)) invalid('domainName', domainName, 'a host name such as www.example.co.uk');
  // The routing functions answer such a host as a pull request's preview (src/url-resolution/rule.ts).
  else if (previewOf(domainName)) invalid('domainName', domainName, `a host name that does not begin as a pull request's preview does (${previewOf(domainName)}.)`);

  const certificateArn = required('certificateArn');
  const certificate = CERTIFICATE.exec(certificateArn);
  if (certificateArn && !certificate) invalid('certificateArn', certificateArn, 'an ACM certificate ARN, arn:aws:acm:us-east-1:<account>:certificate/<id>');
  else if (certificate && certificate[1] !== 'us-east-1') {
    problems.push(`${describe(spec('certificateArn'))} is in ${certificate[1]}: CloudFront only accepts certificates issued in us-east-1`);
  }

  const mailTo = required('mailTo');
  if (mailTo && !ADDRESS.test(mailTo)) invalid('mailTo', mailTo, 'an e-mail address');
  const mailFrom = required('mailFrom');
  const fromAddress = ADDRESS.exec(bareAddress(mailFrom));
  if (mailFrom && !fromAddress) invalid('mailFrom', mailFrom, "an e-mail address or 'Name <address>'");

  const previewDomain = raw('previewDomain')?.toLowerCase();
  if (previewDomain && (!HOST.test(previewDomain) || previewDomain === domainName)) invalid('previewDomain', previewDomain, `a host name of its own, such as preview.example.co.uk, under which pr-<n>.${previewDomain} are the previews`);
  const previewCertificateArn = raw('previewCertificateArn');
  const previewCertificate = previewCertificateArn ? CERTIFICATE.exec(previewCertificateArn) : null;
  if (previewCertificateArn && !previewCertificate) invalid('previewCertificateArn', previewCertificateArn, 'an ACM certificate ARN, arn:aws:acm:us-east-1:<account>:certificate/<id>');
  else if (previewCertificate && previewCertificate[1] !== 'us-east-1') problems.push(`${describe(spec('previewCertificateArn'))} is in ${previewCertificate[1]}: CloudFront only accepts certificates issued in us-east-1`);

  const region = raw('region') ?? 'eu-west-2';
  if (!REGION.test(region)) invalid('region', region, 'an AWS region such as eu-west-2');

  const sesIdentity = (raw('sesIdentity') ?? fromAddress?.[1] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const identity of sesIdentity) {
    if (!HOST.test(identity.toLowerCase()) && !ADDRESS.test(identity)) invalid('sesIdentity', identity, 'a domain or e-mail address verified in SES');
  }

  const originList = raw('allowedOrigins') ?? (domainName ? `https://${domainName}` : '');
  const allowedOrigins: string[] = [];
  for (const item of originList.split(',').map((s) => s.trim()).filter(Boolean)) {
    try {
      const url = new URL(item);
      if (url.protocol !== 'https:' || url.pathname !== '/' || url.search || url.hash) throw new Error('not an origin');
      allowedOrigins.push(url.origin);
    } catch {
      invalid('allowedOrigins', item, 'an https origin such as https://www.example.co.uk');
    }
  }

  const wafValue = (raw('waf') ?? 'on').toLowerCase();
  if (!['on', 'off', 'true', 'false'].includes(wafValue)) invalid('waf', wafValue, "'on' or 'off'");
  const waf = wafValue === 'on' || wafValue === 'true';
  // WAF's smallest rate limit is 10 requests per evaluation window.
  const wafApiRateLimit = whole('wafApiRateLimit', DEFAULT_WAF_API_RATE_LIMIT, 10);
  const wafSiteRateLimit = whole('wafSiteRateLimit', 2000, 10);

  const webAclArn = raw('webAclArn');
  const webAcl = webAclArn ? WEB_ACL.exec(webAclArn) : null;
  if (webAclArn && !webAcl) invalid('webAclArn', webAclArn, 'a CloudFront web ACL ARN, arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>');
  else if (webAcl && webAcl[1] !== 'us-east-1') problems.push(`${describe(spec('webAclArn'))} is in ${webAcl[1]}: a web ACL for CloudFront lives in us-east-1`);

  const concurrency = raw('reservedConcurrency');
  const reservedConcurrency = concurrency === undefined || concurrency.toLowerCase() === 'off' ? undefined : whole('reservedConcurrency', 0, 1);

  const logRetentionDays = whole('logRetentionDays', 90, 1);
  if (!RETENTION_DAYS.includes(logRetentionDays)) invalid('logRetentionDays', String(logRetentionDays), `one of ${RETENTION_DAYS.join(', ')}`);

  const priceClass = raw('priceClass') ?? '100';
  if (priceClass !== '100' && priceClass !== '200' && priceClass !== 'All') invalid('priceClass', priceClass, '100, 200 or All');

  // mailTo is checked above; a separate alarm address is checked here.
  const alarmTo = raw('alarmTo') ?? mailTo;
  if (raw('alarmTo') && !ADDRESS.test(alarmTo)) invalid('alarmTo', alarmTo, 'an e-mail address');
  // The setting's old name, refused rather than ignored: ignored, the alarms would quietly go to mailTo.
  const oldAlarmName = context('alarmEmail') ?? env.SITE_ALARM_EMAIL;
  if (oldAlarmName !== undefined && oldAlarmName !== null && String(oldAlarmName).trim()) {
    problems.push(`alarmEmail (-c alarmEmail=… or SITE_ALARM_EMAIL) is now called alarmTo: set ${describe(spec('alarmTo'))} instead`);
  }

  const distributionId = raw('distributionId');
  if (distributionId && !DISTRIBUTION_ID.test(distributionId)) invalid('distributionId', distributionId, "a CloudFront distribution id such as E2QWRUHAPOMQZL (the Site stack's DistributionId output)");
  const leadRetentionMonths = whole('leadRetentionMonths', defaults.leadRetentionMonths ?? 24, 1);
  if (leadRetentionMonths > 120) invalid('leadRetentionMonths', String(leadRetentionMonths), 'a whole number of months from 1 to 120');
  // One figure: the privacy page the build writes states content/site.yaml's period, so a deployed
  // TTL that differed would keep leads longer (or shorter) than visitors are told.
  else if (Number.isInteger(leadRetentionMonths) && leadRetentionMonths >= 1 && raw('leadRetentionMonths') !== undefined && defaults.leadRetentionMonths !== undefined && leadRetentionMonths !== defaults.leadRetentionMonths) {
    problems.push(`${describe(spec('leadRetentionMonths'))} is ${leadRetentionMonths} but content/site.yaml's leadRetentionMonths is ${defaults.leadRetentionMonths}: `
      + 'the privacy page the build writes and the leads table\'s TTL must use one figure; change content/site.yaml (then rebuild) or unset this setting');
  }

  const cmsClientId = raw('cmsClientId');
  if (cmsClientId && !/^[\w.-]{8,100}$/.test(cmsClientId)) invalid('cmsClientId', cmsClientId, "a GitHub OAuth app's client id such as Ov23liAbCdEf12345678");
  const cmsSecretParameter = raw('cmsSecretParameter') ?? DEFAULT_CMS_SECRET_PARAMETER;
  if (!/^\/[\w.\/-]+$/.test(cmsSecretParameter)) invalid('cmsSecretParameter', cmsSecretParameter, 'an SSM parameter name such as /site/cms/github-client-secret');
  const cmsRepoVisibility = raw('cmsRepoVisibility') ?? 'public';
  if (cmsRepoVisibility !== 'public' && cmsRepoVisibility !== 'private') invalid('cmsRepoVisibility', cmsRepoVisibility, 'public or private');

  if (problems.length > 0) throw new SettingsError(problems);
  const account = env.CDK_DEFAULT_ACCOUNT?.trim() || undefined;
  return {
    domainName, certificateArn, mailTo, mailFrom, region, sesIdentity, allowedOrigins, waf, wafApiRateLimit, wafSiteRateLimit,
    logRetentionDays, priceClass: priceClass as SiteSettings['priceClass'], alarmTo, leadRetentionMonths, cmsSecretParameter,
    cmsRepoVisibility: cmsRepoVisibility as SiteSettings['cmsRepoVisibility'],
    ...(cmsClientId ? { cmsClientId } : {}),
    ...(previewDomain ? { previewDomain, previewCertificateArn: previewCertificateArn ?? certificateArn } : {}),
    ...(webAclArn ? { webAclArn } : {}),
    ...(distributionId ? { distributionId } : {}),
    ...(reservedConcurrency !== undefined ? { reservedConcurrency } : {}),
    ...(account ? { account } : {}),
  };
}
