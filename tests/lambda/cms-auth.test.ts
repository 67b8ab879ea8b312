import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCmsAuthHandler, makeState } from '../../lambda/cms-auth/handler.ts';

/**
 * A stand-in of GitHub's OAuth token endpoint, as strict as GitHub: a POST of a form with the app's
 * id and secret, a code it issued, used once, for the redirect address it was issued for; anything
 * else answered 200 with an `error` (as GitHub answers), and JSON only when asked for.
 */
const CLIENT_ID = 'Iv1.cms-test';
const SECRET = 'test-secret-never-deployed';
const CALLBACK = 'https://auth.example.com/callback';
const codes = new Set(['good-code']);
let tokenUrl: string;
let stand: http.Server;

beforeAll(async () => {
  stand = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const json = req.headers.accept === 'application/json';
      const answer = (data: Record<string, string>) => {
        res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded' });
        res.end(json ? JSON.stringify(data) : new URLSearchParams(data).toString());
      };
      if (req.method !== 'POST' || req.url !== '/login/oauth/access_token' || !/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) { res.writeHead(404); return res.end(); }
      if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== SECRET) return answer({ error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.' });
      if (form.get('redirect_uri') !== CALLBACK) return answer({ error: 'redirect_uri_mismatch', error_description: 'The redirect_uri MUST match the registered callback URL for this application.' });
      const code = form.get('code') ?? '';
      if (!codes.delete(code)) return answer({ error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
      return answer({ access_token: 'gho_token<script>', token_type: 'bearer', scope: 'repo' });
    });
  });
  await new Promise<void>((ok) => stand.listen(0, '127.0.0.1', ok));
  tokenUrl = `http://127.0.0.1:${(stand.address() as AddressInfo).port}/login/oauth/access_token`;
});
afterAll(() => new Promise<void>((ok) => stand.close(() => ok())));

const handler = (secret = SECRET) => createCmsAuthHandler({ clientId: CLIENT_ID, clientSecret: async () => secret, siteOrigin: 'https://www.example.com', callbackUrl: CALLBACK, tokenUrl });
const get = (path: string, query = '') => ({ rawPath: path, rawQueryString: query, requestContext: { http: { method: 'GET' } } });

describe("the content manager's GitHub sign-in handler, against a stand-in of GitHub's token endpoint", () => {
  it('sends the author to GitHub with the app, the callback, the repo scope and a signed state', async () => {
    const res = await handler()(get('/auth', 'provider=github&scope=repo'));
    expect(res.statusCode).toBe(302);
    const to = new URL(res.headers.location!);
    expect(to.origin + to.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ client_id: CLIENT_ID, redirect_uri: CALLBACK, scope: 'repo' });
    expect(to.searchParams.get('state')).toMatch(/^\d+\.[\w-]+\.[\w-]+$/);
  });

  it("trades GitHub's code for a token and posts it to the site's origin only, escaped", async () => {
    const state = makeState(SECRET, Date.now());
    const res = await handler()(get('/callback', `code=good-code&state=${encodeURIComponent(state)}`));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('authorization:github:success:');
    expect(res.body).toContain('gho_token\\u003cscript>');
    expect(res.body).not.toContain('gho_token<script>');
    expect(res.body).toContain('var origin="https://www.example.com"');
    expect(res.body).not.toMatch(/postMessage\([^)]*"\*"/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'sha256-[\w+/=]+'/);
  });

  it('a code used twice, or refused by GitHub, is an error the CMS window shows', async () => {
    const state = makeState(SECRET, Date.now());
    const res = await handler()(get('/callback', `code=good-code&state=${encodeURIComponent(state)}`));
    expect(res.body).toContain('authorization:github:error:');
    expect(res.body).toContain('The code passed is incorrect or expired.');
  });

  it('a wrong secret is refused by GitHub, and no token is posted', async () => {
    codes.add('another-code');
    const state = makeState('wrong', Date.now());
    const res = await handler('wrong')(get('/callback', `code=another-code&state=${encodeURIComponent(state)}`));
    expect(res.body).toContain('incorrect');
    expect(res.body).not.toContain('success');
  });

  it('refuses a callback whose state this handler did not make, or made over ten minutes ago', async () => {
    const forged = makeState('someone-else', Date.now());
    expect((await handler()(get('/callback', `code=good-code&state=${encodeURIComponent(forged)}`))).statusCode).toBe(403);
    const stale = makeState(SECRET, Date.now() - 11 * 60 * 1000);
    expect((await handler()(get('/callback', `code=good-code&state=${encodeURIComponent(stale)}`))).statusCode).toBe(403);
    expect((await handler()(get('/callback', 'code=good-code'))).statusCode).toBe(403);
  });
});
