// Sign-in for the content manager in production: the OAuth handshake Decap CMS's GitHub backend
// expects of its `base_url` (a window opened at /auth, GitHub's consent, /callback trading the code
// for a token, and the token handed to the CMS window by postMessage, to the site's origin only).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { HttpEvent, HttpHandler, HttpResult } from '../event.ts';

export interface CmsAuthConfig {
  clientId: string;
  /** The OAuth app's secret, read when first needed (from SSM Parameter Store: see secret.ts); never in the repository. */
  clientSecret: () => Promise<string>;
  /** The site's origin, the only window the token is posted to (https://www.example.com). */
  siteOrigin: string;
  /** This handler's /callback address, as registered with the OAuth app. */
  callbackUrl: string;
  authorizeUrl?: string;
  tokenUrl?: string;
  now?: () => number;
}

const STATE_TTL_MS = 10 * 60 * 1000;
const GITHUB_AUTHORIZE = 'https://github.com/login/oauth/authorize';
const GITHUB_TOKEN = 'https://github.com/login/oauth/access_token';

const b64 = (b: Buffer) => b.toString('base64url');
const sign = (secret: string, text: string) => b64(createHmac('sha256', secret).update(text).digest());

/** A state that only this handler could have made, in the last ten minutes: `time.nonce.signature`. */
export function makeState(secret: string, now: number): string {
  const body = `${now}.${b64(randomBytes(16))}`;
  return `${body}.${sign(secret, body)}`;
}

export function stateIsGood(secret: string, state: string, now: number): boolean {
  const parts = state.split('.');
  if (parts.length !== 3) return false;
  const [time, nonce, mac] = parts as [string, string, string];
  const expected = Buffer.from(sign(secret, `${time}.${nonce}`));
  const given = Buffer.from(mac);
  const age = now - Number(time);
  return given.length === expected.length && timingSafeEqual(given, expected) && Number.isFinite(age) && age >= 0 && age <= STATE_TTL_MS;
}

const query = (event: HttpEvent) => new URLSearchParams(event.rawQueryString ?? '');

/** The small page that hands the result to the CMS window: Decap's 'authorizing:github' handshake, then the message, to the site's origin only. */
function handoff(siteOrigin: string, message: string): HttpResult {
  const script = `(function(){var origin=${JSON.stringify(siteOrigin)};var message=${JSON.stringify(message).replace(/</g, '\\u003c')};`
    + `function receive(e){if(e.origin!==origin)return;window.removeEventListener('message',receive);window.opener.postMessage(message,origin);window.close();}`
    + `window.addEventListener('message',receive);window.opener&&window.opener.postMessage('authorizing:github',origin);})();`;
  const hash = createHash('sha256').update(script).digest('base64');
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
    body: `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Signing in</title></head><body><p>Signing in to the content manager…</p><script>${script}</script></body></html>`,
  };
}

const plain = (statusCode: number, body: string): HttpResult => ({ statusCode, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body });

export function createCmsAuthHandler(config: CmsAuthConfig): HttpHandler {
  const now = config.now ?? Date.now;
  const failed = (reason: string) => handoff(config.siteOrigin, `authorization:github:error:${JSON.stringify({ message: reason })}`);
  return async (event) => {
    const method = event.requestContext?.http?.method ?? 'GET';
    const route = (event.rawPath ?? '/').replace(/\/+$/, '');
    if (method !== 'GET') return plain(405, 'only GET');
    const secret = await config.clientSecret();
    if (route.endsWith('/auth')) {
      const to = new URL(config.authorizeUrl ?? GITHUB_AUTHORIZE);
      to.search = new URLSearchParams({ client_id: config.clientId, redirect_uri: config.callbackUrl, scope: 'repo', state: makeState(secret, now()) }).toString();
      return { statusCode: 302, headers: { location: to.href, 'cache-control': 'no-store' }, body: '' };
    }
    if (route.endsWith('/callback')) {
      const q = query(event);
      const code = q.get('code');
      const state = q.get('state');
      if (!state || !stateIsGood(secret, state, now())) return plain(403, 'the sign-in was not started here, or took longer than ten minutes: start again from the content manager');
      if (!code || code.length > 200) return failed(q.get('error_description') ?? 'GitHub gave no code');
      type TokenAnswer = { access_token?: unknown; error?: unknown; error_description?: unknown };
      const answer: TokenAnswer = await fetch(config.tokenUrl ?? GITHUB_TOKEN, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: config.clientId, client_secret: secret, code, redirect_uri: config.callbackUrl }).toString(),
        signal: AbortSignal.timeout(10_000),
      }).then((r) => r.json() as Promise<TokenAnswer>, (): TokenAnswer => ({ error: 'unreachable', error_description: 'GitHub could not be reached' }));
      if (typeof answer.access_token !== 'string' || !answer.access_token) return failed(String(answer.error_description ?? answer.error ?? 'GitHub refused the code'));
      return handoff(config.siteOrigin, `authorization:github:success:${JSON.stringify({ token: answer.access_token, provider: 'github' })}`);
    }
    return plain(404, 'not found');
  };
}
