// The content manager's GitHub sign-in handler (lambda/cms-auth/handler.ts) driven through the whole
// round trip against a stand-in of GitHub's OAuth web flow (github-oauth-stand-in.ts): /auth, GitHub's
// consent, /callback with the code and the state, in one browser (its cookies) or another.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCmsAuthHandler, STATE_COOKIE, type CmsAuthConfig } from '../../lambda/cms-auth/handler.ts';
import { CODE_TTL_MS, startGitHubStandIn, type GitHubStandIn } from './github-oauth-stand-in.ts';

const CLIENT_ID = 'Iv1.cms-test';
const SECRET = 'test-secret-never-deployed';
const CALLBACK = 'https://auth.example.com/callback';
let github: GitHubStandIn;

beforeAll(async () => {
  github = await startGitHubStandIn([{ clientId: CLIENT_ID, secret: SECRET, callback: CALLBACK }, { clientId: 'Iv1.another-app', secret: 'another-secret', callback: CALLBACK }]);
});
afterAll(() => github.close());

const handler = (extra: Partial<CmsAuthConfig> = {}) => createCmsAuthHandler({
  clientId: CLIENT_ID, clientSecret: async () => SECRET, siteOrigin: 'https://www.example.com', callbackUrl: CALLBACK,
  authorizeUrl: github.authorizeUrl, tokenUrl: github.tokenUrl, ...extra,
});
const get = (path: string, query = '', cookies?: string[]) => ({ rawPath: path, rawQueryString: query, requestContext: { http: { method: 'GET' } }, ...(cookies ? { cookies } : {}) });

/** A browser's /auth: where it is sent, and the cookie it now holds ('name=value'). */
async function startSignIn(h: ReturnType<typeof handler>): Promise<{ to: URL; cookie: string; setCookie: string }> {
  const res = await h(get('/auth', 'provider=github&site_id=www.example.com&scope=repo'));
  expect(res.statusCode).toBe(302);
  const setCookie = res.cookies?.[0] ?? '';
  return { to: new URL(res.headers.location!), cookie: setCookie.split(';')[0]!, setCookie };
}

/** GitHub's consent: where GitHub sends the browser back (the callback's query). */
async function consent(to: URL): Promise<string> {
  const res = await fetch(to, { redirect: 'manual' });
  const back = new URL(res.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(CALLBACK);
  return back.search.slice(1);
}

/** The message the handler's page posts to the CMS window. */
const posted = (body: string) => /var message=("(?:[^"\\]|\\.)*")/.exec(body)?.[1];

describe("the content manager's GitHub sign-in, against a stand-in of GitHub's OAuth flow", () => {
  it('/auth sends the author to GitHub with the app, the callback, public_repo and a signed state, whose nonce a __Host- cookie holds', async () => {
    const { to, setCookie } = await startSignIn(handler());
    expect(to.origin + to.pathname).toBe(github.authorizeUrl);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ client_id: CLIENT_ID, redirect_uri: CALLBACK, scope: 'public_repo' });
    const state = to.searchParams.get('state')!;
    expect(state).toMatch(/^\d+\.[\w-]{22}\.[\w-]+$/);
    expect(setCookie).toBe(`${STATE_COOKIE}=${state.split('.')[1]}; Max-Age=600; Path=/; Secure; HttpOnly; SameSite=Lax`);
    // The scope Decap asks for is not what decides: the setting does (repo only for a private repository).
    const privateRepo = await startSignIn(handler({ scope: 'repo' }));
    expect(privateRepo.to.searchParams.get('scope')).toBe('repo');
  });

  it("the round trip in one browser trades GitHub's code for a token, posts it to the site's origin only, escaped, and clears the cookie", async () => {
    const h = handler();
    const { to, cookie } = await startSignIn(h);
    const res = await h(get('/callback', await consent(to), [cookie]));
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(posted(res.body)!)).toMatch(/^authorization:github:success:\{"token":"gho_[0-9a-f]{36}<script>","provider":"github"\}$/);
    expect(res.body).not.toContain('<script>"');
    expect(res.body).toContain('var origin="https://www.example.com"');
    expect(res.body).not.toMatch(/postMessage\([^)]*"\*"/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'sha256-[\w+/=]+'/);
    expect(res.cookies).toEqual([`${STATE_COOKIE}=; Max-Age=0; Path=/; Secure; HttpOnly; SameSite=Lax`]);
  });

  it('the state is bound to the browser that started the sign-in: no cookie, another sign-in\'s cookie, or a second use is refused', async () => {
    const h = handler();
    const mine = await startSignIn(h);
    const theirs = await startSignIn(h);
    const back = await consent(mine.to);
    expect((await h(get('/callback', back))).statusCode).toBe(403);
    expect((await h(get('/callback', back, [theirs.cookie]))).statusCode).toBe(403);
    expect((await h(get('/callback', back, [`${STATE_COOKIE}=`]))).statusCode).toBe(403);
    // In the browser that started it: once, and never again (the same state and cookie replayed).
    expect((await h(get('/callback', back, [mine.cookie]))).body).toContain('authorization:github:success:');
    const again = await h(get('/callback', back, [mine.cookie]));
    expect(again.statusCode).toBe(403);
    expect(again.body).not.toContain('success');
  });

  it.each([
    ['a 502 with an HTML page', '502-html', /^GitHub answered 502, not with JSON: try again in a minute\.$/],
    ['a 500 with JSON', '500-json', /^GitHub answered 500: try again in a minute\.$/],
    ['a reset connection', 'reset', /^GitHub could not be reached: try again in a minute\.$/],
  ] as const)('GitHub answering with %s reaches the CMS window as authorization:github:error and a sentence', async (_, how, sentence) => {
    const h = handler();
    const { to, cookie } = await startSignIn(h);
    const back = await consent(to);
    github.failNext(how);
    const res = await h(get('/callback', back, [cookie]));
    expect(res.statusCode).toBe(200);
    const message = JSON.parse(posted(res.body)!) as string;
    expect(message).toMatch(/^authorization:github:error:/);
    expect(JSON.parse(message.slice('authorization:github:error:'.length)).message).toMatch(sentence);
    expect(res.body).not.toContain('Unicorn');
  });

  it('GitHub out of reach, a code over ten minutes old, and a wrong secret each reach the CMS window as an error, and no token is posted', async () => {
    const closed = http.createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/login/oauth/access_token`;
    await new Promise<void>((ok) => closed.close(() => ok()));
    const messageOf = async (h: ReturnType<typeof handler>, before?: () => void) => {
      const { to, cookie } = await startSignIn(h);
      const back = await consent(to);
      before?.();
      const res = await h(get('/callback', back, [cookie]));
      const message = JSON.parse(posted(res.body)!) as string;
      expect(message).toMatch(/^authorization:github:error:/);
      return JSON.parse(message.slice('authorization:github:error:'.length)).message as string;
    };
    expect(await messageOf(handler({ tokenUrl: deadUrl }))).toBe('GitHub could not be reached: try again in a minute.');
    try {
      expect(await messageOf(handler(), () => github.setNow(() => Date.now() + CODE_TTL_MS + 1000))).toBe('GitHub refused the sign-in (The code passed is incorrect or expired.): start again from the content manager.');
    } finally {
      github.setNow(Date.now);
    }
    // The secret is checked by GitHub when the code is traded: the state, signed with the same wrong secret, passes here.
    expect(await messageOf(handler({ clientSecret: async () => 'wrong' }))).toBe('GitHub refused the sign-in (The client_id and/or client_secret passed are incorrect.): start again from the content manager.');
  });

  it("the stand-in, as GitHub, trades a code only for the app and the redirect address of the authorize request that issued it", async () => {
    const trade = async (form: Record<string, string>) => (await (await fetch(github.tokenUrl, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() })).json()) as Record<string, string>;
    const codeFor = async () => new URLSearchParams(await consent((await startSignIn(handler())).to)).get('code')!;
    expect(await trade({ client_id: 'Iv1.another-app', client_secret: 'another-secret', code: await codeFor(), redirect_uri: CALLBACK })).toMatchObject({ error: 'bad_verification_code' });
    expect(await trade({ client_id: CLIENT_ID, client_secret: SECRET, code: await codeFor(), redirect_uri: 'https://elsewhere.example.com/callback' })).toMatchObject({ error: 'redirect_uri_mismatch' });
    const code = await codeFor();
    expect(await trade({ client_id: CLIENT_ID, client_secret: SECRET, code, redirect_uri: CALLBACK })).toMatchObject({ token_type: 'bearer', scope: 'public_repo' });
    expect(await trade({ client_id: CLIENT_ID, client_secret: SECRET, code, redirect_uri: CALLBACK })).toMatchObject({ error: 'bad_verification_code' });
  });

  it("the parameter store failing reaches the CMS window as an error at /auth and at /callback, in a sentence that names no secret", async () => {
    let failing = false;
    const h = handler({ clientSecret: async () => { if (failing) throw new Error('parameter /site/cms/github-client-secret: 400'); return SECRET; } });
    const { to, cookie } = await startSignIn(h);
    const back = await consent(to);
    failing = true;
    for (const res of [await h(get('/auth')), await h(get('/callback', back, [cookie]))]) {
      expect(res.statusCode).toBe(200);
      const message = JSON.parse(posted(res.body)!) as string;
      expect(message).toBe(`authorization:github:error:${JSON.stringify({ message: "The sign-in service could not read its GitHub app's secret: try again in a minute, and tell the site's owner if it keeps failing." })}`);
    }
  });

  it("GitHub's own error on the way back is shown to the author, escaped", async () => {
    const h = handler();
    const { to, cookie } = await startSignIn(h);
    const state = to.searchParams.get('state')!;
    const res = await h(get('/callback', new URLSearchParams({ error: 'access_denied', error_description: '</script><script>alert(1)</script>', state }).toString(), [cookie]));
    expect(res.body).not.toContain('<script>alert');
    expect(JSON.parse(JSON.parse(posted(res.body)!).slice('authorization:github:error:'.length)).message).toBe('GitHub gave no code (</script><script>alert(1)</script>): start again from the content manager.');
  });
});
