// Behind CloudFront, the Lambda's own URL is public: only requests carrying the distribution's
// secret header may reach the form, so WAF and the CDN cannot be bypassed.
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import { ORIGIN_VERIFY_HEADER } from '../../lambda/cloudfront-request-headers.ts';
import { readConfig } from '../../lambda/config.ts';
import { jsonPost, memoryLogger, sesClientFor, storedEmails, testConfig, useLeadBackends, validContact } from './support.ts';

const backends = useLeadBackends();

const SECRET = 'a-long-random-secret-value-1234';

const handler = () => createHandler({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, config: testConfig({ originSecret: SECRET }), log: memoryLogger() });

describe('origin secret', () => {
  it('refuses a post without the secret header and sends nothing', async () => {
    const res = await handler()(jsonPost(validContact()));
    expect(res.statusCode).toBe(403);
    expect(await storedEmails(backends.ses)).toHaveLength(0);
  });

  it('refuses a wrong secret, and a preflight without it', async () => {
    const wrong = jsonPost(validContact());
    wrong.headers = { ...wrong.headers, [ORIGIN_VERIFY_HEADER]: `${SECRET}x` };
    expect((await handler()(wrong)).statusCode).toBe(403);
    const preflight = jsonPost(undefined, { method: 'OPTIONS' });
    expect((await handler()(preflight)).statusCode).toBe(403);
  });

  it('accepts a post that came through CloudFront with the secret', async () => {
    const ok = jsonPost(validContact());
    ok.headers = { ...ok.headers, [ORIGIN_VERIFY_HEADER]: SECRET };
    expect((await handler()(ok)).statusCode).toBe(200);
    expect(await storedEmails(backends.ses)).toHaveLength(1);
  });

  it('reads the secret from ORIGIN_VERIFY_SECRET and refuses one too short to be secret', () => {
    const env = { MAIL_TO: 'leads@example.com', MAIL_FROM: 'site@example.com', ALLOWED_ORIGINS: 'https://www.example.com', AWS_REGION: 'eu-west-2', LEADS_TABLE: 'site-leads', LIMITS_TABLE: 'site-limits' };
    expect(readConfig({ ...env, ORIGIN_VERIFY_SECRET: SECRET }).originSecret).toBe(SECRET);
    expect(readConfig(env).originSecret).toBeUndefined();
    expect(() => readConfig({ ...env, ORIGIN_VERIFY_SECRET: 'short' })).toThrow(/ORIGIN_VERIFY_SECRET is too short/);
  });
});
