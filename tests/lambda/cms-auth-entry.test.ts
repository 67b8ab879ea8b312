// The sign-in handler's Lambda entry (lambda/cms-auth/index.ts) as the stack configures it: its
// settings from the environment, the secret from a stand-in of the Parameters and Secrets extension
// (which, like the real one, wants the session token and answers only for the parameter it holds;
// `held` is the value it has read from Parameter Store, as after its TTL), and the callback address
// the function's own URL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PARAMETER = '/site/cms/github-client-secret';
let extension: http.Server;
const asked: string[] = [];
let held = 'the-oauth-secret';

beforeAll(async () => {
  extension = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    asked.push(url.searchParams.get('name') ?? '');
    const good = req.method === 'GET' && url.pathname === '/systemsmanager/parameters/get' && req.headers['x-aws-parameters-secrets-token'] === 'session-token'
      && url.searchParams.get('name') === PARAMETER && url.searchParams.get('withDecryption') === 'true';
    res.writeHead(good ? 200 : 400, { 'content-type': 'application/json' });
    res.end(JSON.stringify(good ? { Parameter: { Name: PARAMETER, Type: 'SecureString', Value: held } } : { message: 'bad request' }));
  });
  await new Promise<void>((ok) => extension.listen(0, 'localhost', ok));
  Object.assign(process.env, {
    CMS_CLIENT_ID: 'Ov23liAbCdEf12345678', CMS_SECRET_PARAMETER: PARAMETER, SITE_ORIGIN: 'https://www.example.co.uk', CMS_SCOPE: 'public_repo',
    AWS_SESSION_TOKEN: 'session-token', PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String((extension.address() as AddressInfo).port),
  });
});
afterAll(() => new Promise<void>((ok) => extension.close(() => ok())));

describe('the sign-in Lambda entry', () => {
  it("sends /auth to GitHub's consent with the app's id, its own URL's /callback and the scope it is given, the secret read through the extension", async () => {
    const { handler } = await import('../../lambda/cms-auth/index.ts');
    const event = (path: string) => ({ rawPath: path, requestContext: { domainName: 'abc123.lambda-url.eu-west-2.on.aws', http: { method: 'GET' } } });
    const first = await handler(event('/auth'));
    expect(first.statusCode).toBe(302);
    const to = new URL(first.headers!.location as string);
    expect(to.origin + to.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(to.searchParams.get('client_id')).toBe('Ov23liAbCdEf12345678');
    expect(to.searchParams.get('redirect_uri')).toBe('https://abc123.lambda-url.eu-west-2.on.aws/callback');
    expect(to.searchParams.get('state')).toMatch(/^\d+\.[\w-]+\.[\w-]+$/);
    expect(to.searchParams.get('scope')).toBe('public_repo');
    expect(asked).toEqual([PARAMETER]);
    // A state it did not sign is refused.
    expect((await handler({ ...event('/callback'), rawQueryString: 'code=x&state=1.2.3' })).statusCode).toBe(403);
  });

  it('a secret rotated with --overwrite is in use once the extension has read it again (its TTL), with no cold start', async () => {
    const { parameterReader } = await import('../../lambda/cms-auth/secret.ts');
    const read = parameterReader(PARAMETER);
    held = 'the-oauth-secret';
    expect(await read()).toBe('the-oauth-secret');
    held = 'the-rotated-secret';
    expect(await read()).toBe('the-rotated-secret');
    // A parameter the extension does not answer for is an error, not an empty secret.
    await expect(parameterReader('/site/cms/another')()).rejects.toThrow('parameter /site/cms/another: 400');
  });
});
