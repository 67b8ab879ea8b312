// Shared fixtures for the handler tests: a real local SES server, requests shaped like
// API Gateway's, and a reader for what the server was asked to send.
import { ORIGIN_VERIFY_HEADER } from '../../lambda/cloudfront-request-headers.ts';
import type { HandlerConfig } from '../../lambda/config.ts';
import { ensureLeadTable, startLocalStore, type LocalStore } from '../../lambda/leads/local-store.ts';
import { leadStore, type LeadStore } from '../../lambda/leads/store.ts';
import type { HttpEvent } from '../../lambda/event.ts';
import type { LogEntry, Logger } from '../../lambda/log.ts';
import { createSesClient, type SesClientOptions } from '../../lambda/ses-client.ts';
import { startLocalSes, type LocalSes } from '../../lambda/local-ses.ts';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export const ORIGIN = 'https://www.example.co.uk';
export const OTHER_ORIGIN = 'https://evil.example.com';

export function testConfig(overrides: Partial<HandlerConfig> = {}): HandlerConfig {
  return {
    mailTo: 'leads@example.co.uk',
    mailFrom: 'Website <website@example.co.uk>',
    allowedOrigins: [ORIGIN, 'http://localhost:4321'],
    region: 'eu-west-2',
    leadsTable: 'site-leads',
    limitsTable: 'site-limits',
    mailsPerHour: 30,
    retentionMonths: 24,
    ...overrides,
  };
}

/** A real dynalite server (in memory) for one test file; `fresh()` makes a new, empty leads table on it. */
export interface TestStore {
  local: LocalStore;
  fresh(): Promise<LeadStore>;
  close(): Promise<void>;
}

let tables = 0;
export async function startTestStore(): Promise<TestStore> {
  const local = await startLocalStore();
  const client = local.client();
  return {
    local,
    async fresh() {
      tables += 1;
      const table = `leads-${tables}`;
      await ensureLeadTable(client, table);
      return leadStore(client, table);
    },
    async close() {
      client.destroy();
      await local.close();
    },
  };
}

export function sesClientFor(endpoint: string, options: Partial<SesClientOptions> = {}) {
  return createSesClient({
    region: 'eu-west-2',
    endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    ...options,
  });
}

export interface PostOptions {
  contentType?: string | undefined;
  origin?: string | undefined;
  referer?: string | undefined;
  base64?: boolean;
  method?: string;
}

export function event(body: string | undefined, options: PostOptions = {}): HttpEvent {
  const headers: Record<string, string> = {};
  const contentType = 'contentType' in options ? options.contentType : 'application/json';
  if (contentType) headers['content-type'] = contentType;
  const origin = 'origin' in options ? options.origin : ORIGIN;
  if (origin) headers.origin = origin;
  if (options.referer) headers.referer = options.referer;
  return {
    version: '2.0',
    rawPath: '/api/send-contact-form',
    headers,
    ...(body === undefined
      ? {}
      : options.base64
        ? { body: Buffer.from(body, 'utf8').toString('base64'), isBase64Encoded: true }
        : { body, isBase64Encoded: false }),
    requestContext: { requestId: 'test-request', http: { method: options.method ?? 'POST' } },
  };
}

/** The secret CloudFront sends the Function URL (testConfig's `originSecret` when a test puts CloudFront in front). */
export const ORIGIN_SECRET = 'a-secret-only-cloudfront-knows-0123456789';

/** A post as a Function URL receives it from CloudFront: the origin secret, and the viewer's address as CloudFront writes it. */
export function viaCloudFront(post: HttpEvent, viewer: string, extra: Record<string, string> = {}): HttpEvent {
  return { ...post, headers: { ...post.headers, [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET, 'cloudfront-viewer-address': viewer, ...extra }, requestContext: { ...post.requestContext, http: { ...post.requestContext?.http, sourceIp: '130.176.0.1' } } };
}

export const jsonPost = (value: unknown, options: PostOptions = {}) => event(JSON.stringify(value), options);

export const formPost = (fields: Record<string, string>, options: PostOptions = {}) =>
  event(new URLSearchParams(fields).toString(), {
    contentType: 'application/x-www-form-urlencoded',
    ...options,
  });

export function validContact(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Morag Campbell',
    email: 'morag@tayside-example.co.uk',
    company: 'Tayside Widgets Ltd',
    message: 'We have five spreadsheets that disagree.\nCan you help?',
    isHuman: true,
    timestamp: '2025-09-24T10:00:00.000Z',
    source: ORIGIN,
    ...overrides,
  };
}

export function validAssessment(
  overrides: Record<string, unknown> = {},
  answers: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: 'Ewan Fraser',
    email: 'ewan@example.org.uk',
    company: 'Fife Food Bank',
    message: 'Keen to start soon.',
    isHuman: true,
    formType: 'DIAlog Assessment',
    assessmentData: {
      dataApproach: 'occasional_reporting',
      dataChallenges: 'Data siloed across teams or systems',
      dataCulture: 'important_slow',
      dataOwnership: 'no_ownership',
      organisationType: 'nonprofit',
      timeframe: 'next_3_months',
      ...answers,
    },
    timestamp: '2025-09-24T10:00:00.000Z',
    source: ORIGIN,
    ...overrides,
  };
}

export interface StoredEmail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { text?: string; html?: string };
}

export async function storedEmails(ses: LocalSes): Promise<StoredEmail[]> {
  const response = await fetch(ses.storeUrl);
  const store = (await response.json()) as { emails: StoredEmail[] };
  return store.emails;
}

export async function clearStore(ses: LocalSes): Promise<void> {
  const response = await fetch(`${ses.endpoint}/clear-store`, { method: 'POST' });
  if (!response.ok) throw new Error(`clear-store answered ${response.status}`);
}

/** A logger that keeps entries, so tests can check what would reach CloudWatch. */
export function memoryLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const log = ((entry: LogEntry) => {
    entries.push(entry);
  }) as Logger & { entries: LogEntry[] };
  log.entries = entries;
  return log;
}

/** What a test file that posts leads runs against, filled in by the hooks `useLeadBackends` registers. */
export interface LeadBackends { ses: LocalSes; store: TestStore; leads: LeadStore }

/**
 * Registers the hooks of a test file that posts leads: a local SES (aws-ses-v2-local) and a local
 * DynamoDB (dynalite) started once for the file and stopped after it, and before each test a fresh
 * lead table and an empty mailbox.
 */
export function useLeadBackends(): LeadBackends {
  const backends = {} as LeadBackends;
  beforeAll(async () => {
    backends.ses = await startLocalSes();
    backends.store = await startTestStore();
  });
  afterAll(async () => { await backends.ses?.close(); await backends.store?.close(); });
  beforeEach(async () => {
    backends.leads = await backends.store.fresh();
    await clearStore(backends.ses);
  });
  return backends;
}
