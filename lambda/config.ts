import { VOLUME_LIMITS } from './limits/settings.ts';
import { LIMITS_TABLE_ENV } from './limits/table.ts';

// Handler configuration, read once at cold start. Every problem is reported together so a
// misconfigured deployment is fixed in one go rather than one variable at a time.

export interface HandlerConfig {
  /** Inbox that receives the leads. */
  mailTo: string;
  /** SES-verified sender, a bare address or 'Name <address>'. */
  mailFrom: string;
  /** Origins (scheme://host[:port]) allowed to post and to read answers. */
  allowedOrigins: readonly string[];
  region: string;
  /** Only for a local SES-compatible server. */
  sesEndpoint?: string;
  /**
   * The secret CloudFront sends in `x-origin-verify` on every /api/* request. When set, a request
   * without it did not come through the distribution (and its WAF rule) and is refused.
   */
  originSecret?: string;
  /** The DynamoDB table every lead is stored in before it is e-mailed. */
  leadsTable: string;
  /** Only for a local DynamoDB-compatible server (dynalite). */
  dynamodbEndpoint?: string;
  /** Months a lead is kept (its TTL): content/site.yaml's leadRetentionMonths, passed on by the stack. */
  retentionMonths: number;
  /** The DynamoDB table of the volume limits' counters (lambda/limits/). */
  limitsTable: string;
  /** Lead e-mails an hour before the rest wait for the digest. */
  mailsPerHour: number;
  /** The SES configuration set whose events mark a lead bounced or complained about. */
  sesConfigurationSet?: string;
}

/** The retention period when none is configured, in months (content/site.yaml's default). */
export const DEFAULT_RETENTION_MONTHS = 24;

/** A whole number of months from 1 to 120, or undefined. */
export function retentionMonthsOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 120 ? n : undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`send-contact-form is misconfigured: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

const ADDRESS = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;
const NAMED_ADDRESS = /^[^<>\r\n]*<([^<>\s]+)>$/;

function isMailbox(value: string): boolean {
  const named = NAMED_ADDRESS.exec(value);
  return ADDRESS.test(named?.[1] ?? value);
}

/** Normalises 'https://Example.com/' to 'https://example.com'; undefined for anything not a bare origin. */
export function toOrigin(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username;
    return (url.protocol === 'https:' || url.protocol === 'http:') && bare ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export function readConfig(env: Readonly<Record<string, string | undefined>>): HandlerConfig {
  const problems: string[] = [];
  const get = (name: string): string => {
    const value = env[name]?.trim() ?? '';
    if (!value) problems.push(`${name} is not set`);
    return value;
  };

  const mailTo = get('MAIL_TO');
  if (mailTo && !ADDRESS.test(mailTo)) problems.push(`MAIL_TO is not an e-mail address: '${mailTo}'`);
  const mailFrom = get('MAIL_FROM');
  if (mailFrom && !isMailbox(mailFrom)) problems.push(`MAIL_FROM is not an e-mail address: '${mailFrom}'`);
  const region = get('AWS_REGION');

  const allowedOrigins: string[] = [];
  const originList = get('ALLOWED_ORIGINS');
  const items = originList.split(',').filter((s) => s.trim());
  if (originList && items.length === 0) problems.push('ALLOWED_ORIGINS lists no origins');
  for (const item of items) {
    const origin = toOrigin(item);
    if (origin) allowedOrigins.push(origin);
    else problems.push(`ALLOWED_ORIGINS entry is not an origin like https://example.com: '${item.trim()}'`);
  }

  const sesEndpoint = env.SES_ENDPOINT?.trim() || undefined;
  if (sesEndpoint && !URL.canParse(sesEndpoint)) problems.push(`SES_ENDPOINT is not a URL: '${sesEndpoint}'`);

  const originSecret = env.ORIGIN_VERIFY_SECRET?.trim() || undefined;
  if (originSecret && originSecret.length < 16) problems.push('ORIGIN_VERIFY_SECRET is too short to be a secret (16 characters at least)');

  const leadsTable = get('LEADS_TABLE');
  const dynamodbEndpoint = env.DYNAMODB_ENDPOINT?.trim() || undefined;
  if (dynamodbEndpoint && !URL.canParse(dynamodbEndpoint)) problems.push(`DYNAMODB_ENDPOINT is not a URL: '${dynamodbEndpoint}'`);
  const rawMonths = env.LEAD_RETENTION_MONTHS?.trim();
  const retentionMonths = rawMonths ? retentionMonthsOf(rawMonths) : DEFAULT_RETENTION_MONTHS;
  if (retentionMonths === undefined) problems.push(`LEAD_RETENTION_MONTHS is not a whole number of months from 1 to 120: '${rawMonths}'`);

  const limitsTable = get(LIMITS_TABLE_ENV);
  const rawCap = env.MAILS_PER_HOUR?.trim();
  const mailsPerHour = rawCap ? Number(rawCap) : VOLUME_LIMITS.mailsPerHour.max;
  if (!Number.isInteger(mailsPerHour) || mailsPerHour < 1) problems.push(`MAILS_PER_HOUR is not a whole number of e-mails, 1 or more: '${rawCap}'`);
  const sesConfigurationSet = env.SES_CONFIGURATION_SET?.trim() || undefined;

  if (problems.length > 0 || retentionMonths === undefined) throw new ConfigError(problems);
  return {
    mailTo, mailFrom, allowedOrigins, region,
    ...(sesEndpoint ? { sesEndpoint } : {}),
    ...(originSecret ? { originSecret } : {}),
    leadsTable,
    ...(dynamodbEndpoint ? { dynamodbEndpoint } : {}),
    retentionMonths,
    limitsTable,
    mailsPerHour,
    ...(sesConfigurationSet ? { sesConfigurationSet } : {}),
  };
}
