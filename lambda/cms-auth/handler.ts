// Sign-in for the content manager in production: the OAuth handshake Decap CMS's GitHub backend
// expects of its `base_url` (a window opened at /auth, GitHub's consent, /callback trading the code
// for a token, and the token handed to the CMS window by postMessage, to the site's origin only).
// The state is bound to the browser that opened /auth: its nonce is also in a `__Host-` cookie set
// there, which /callback requires, compares and clears, and which this handler accepts once. Every
// failure on the way (GitHub or the parameter store answering otherwise than expected, or not at
// all) reaches the CMS window as `authorization:github:error` and a sentence.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { HttpEvent, HttpHandler, HttpResult } from '../event.ts';

/** The scope asked of GitHub: `public_repo` reaches public repositories only; `repo`, private ones too. */
export type CmsScope = 'public_repo' | 'repo';

export interface CmsAuthConfig {
  clientId: string;
  /** The OAuth app's secret, read on each request (from SSM Parameter Store: see secret.ts); never in the repository. */
  clientSecret: () => Promise<string>;
  /** What the token may do: `public_repo` unless the repository is private. */
  scope?: CmsScope;
  /** The site's origin, the only window the token is posted to (https://www.example.com). */
  siteOrigin: string;
  /** This handler's /callback address, as registered with the OAuth app. */
  callbackUrl: string;
  authorizeUrl?: string;
  tokenUrl?: string;
  now?: () => number;
}

const STATE_TTL_MS = 10 * 60 * 1000;
/** The cookie that binds a sign-in's state to the browser that started it (Secure, Path=/, no Domain: the `__Host-` rules). */
export const STATE_COOKIE = '__Host-cms-state';
const GITHUB_AUTHORIZE = 'https://github.com/login/oauth/authorize';
const GITHUB_TOKEN = 'https://github.com/login/oauth/access_token';

const b64 = (b: Buffer) => b.toString('base64url');
const sign = (secret: string, text: string) => b64(createHmac('sha256', secret).update(text).digest());

/** A state that only this handler could have made, in the last ten minutes: `time.nonce.signature`. */
export function makeState(secret: string, now: number): string {
  const body = `${now}.${b64(randomBytes(16))}`;
  return `${body}.${sign(secret, body)}`;
}

/** The nonce of a state (`time.nonce.signature`), or ''. */
const nonceOf = (state: string) => state.split('.')[1] ?? '';

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

/** The value of cookie `name` in the request (payload v2's `cookies`, or a Cookie header), or undefined. */
function cookie(event: HttpEvent, name: string): string | undefined {
  const pairs = event.cookies ?? (event.headers?.cookie ?? '').split(';');
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const clearCookie = `${STATE_COOKIE}=; Max-Age=0; Path=/; Secure; HttpOnly; SameSite=Lax`;

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

/** Why a step failed, in a sentence the author can act on; never the service's body. */
class SignInFailure extends Error {}

type TokenAnswer = { access_token?: unknown; error?: unknown; error_description?: unknown };

/** GitHub's answer to the code, or a SignInFailure: GitHub answers a refusal 200 with `error`; anything but 200 JSON is a failure of its own. */
async function tradeCode(tokenUrl: string, form: URLSearchParams): Promise<string> {
  let res: Response;
  try {
    res = await fetch(tokenUrl, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new SignInFailure('GitHub could not be reached: try again in a minute.');
  }
  const text = await res.text().catch(() => '');
  let answer: TokenAnswer | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') answer = parsed as TokenAnswer;
  } catch { /* not JSON: said below */ }
  if (!res.ok || !answer) throw new SignInFailure(`GitHub answered ${res.status}${answer ? '' : ', not with JSON'}: try again in a minute.`);
  if (typeof answer.access_token === 'string' && answer.access_token) return answer.access_token;
  const said = typeof answer.error_description === 'string' ? answer.error_description : typeof answer.error === 'string' ? answer.error : 'no reason given';
  throw new SignInFailure(`GitHub refused the sign-in (${said.slice(0, 200)}): start again from the content manager.`);
}

export function createCmsAuthHandler(config: CmsAuthConfig): HttpHandler {
  const now = config.now ?? Date.now;
  const failed = (reason: string, cookies?: string[]): HttpResult => ({ ...handoff(config.siteOrigin, `authorization:github:error:${JSON.stringify({ message: reason })}`), ...(cookies ? { cookies } : {}) });
  /** Nonces already traded here, with when they stop being good: a state is accepted once. */
  const used = new Map<string, number>();
  const secret = async () => {
    try {
      return await config.clientSecret();
    } catch {
      throw new SignInFailure("The sign-in service could not read its GitHub app's secret: try again in a minute, and tell the site's owner if it keeps failing.");
    }
  };
  return async (event) => {
    const method = event.requestContext?.http?.method ?? 'GET';
    const route = (event.rawPath ?? '/').replace(/\/+$/, '');
    if (method !== 'GET') return plain(405, 'only GET');
    try {
      if (route.endsWith('/auth')) {
        const state = makeState(await secret(), now());
        const to = new URL(config.authorizeUrl ?? GITHUB_AUTHORIZE);
        to.search = new URLSearchParams({ client_id: config.clientId, redirect_uri: config.callbackUrl, scope: config.scope ?? 'public_repo', state }).toString();
        return {
          statusCode: 302,
          headers: { location: to.href, 'cache-control': 'no-store' },
          // Lax: GitHub's redirect back to /callback is a top-level navigation from another site.
          cookies: [`${STATE_COOKIE}=${nonceOf(state)}; Max-Age=${STATE_TTL_MS / 1000}; Path=/; Secure; HttpOnly; SameSite=Lax`],
          body: '',
        };
      }
      if (route.endsWith('/callback')) {
        const q = query(event);
        const code = q.get('code');
        const state = q.get('state') ?? '';
        const nonce = nonceOf(state);
        const held = cookie(event, STATE_COOKIE);
        const t = now();
        for (const [n, until] of used) if (until < t) used.delete(n);
        if (!state || !held || !sameText(held, nonce) || used.has(nonce) || !stateIsGood(await secret(), state, t)) {
          return { ...plain(403, 'the sign-in was not started in this browser, was used already, or took longer than ten minutes: start again from the content manager'), cookies: [clearCookie] };
        }
        used.set(nonce, t + STATE_TTL_MS);
        if (!code || code.length > 200) return failed(`GitHub gave no code (${(q.get('error_description') ?? q.get('error') ?? 'no reason given').slice(0, 200)}): start again from the content manager.`, [clearCookie]);
        const token = await tradeCode(config.tokenUrl ?? GITHUB_TOKEN, new URLSearchParams({ client_id: config.clientId, client_secret: await secret(), code, redirect_uri: config.callbackUrl }));
        return { ...handoff(config.siteOrigin, `authorization:github:success:${JSON.stringify({ token, provider: 'github' })}`), cookies: [clearCookie] };
      }
    } catch (error) {
      if (error instanceof SignInFailure) return failed(error.message, [clearCookie]);
      throw error;
    }
    return plain(404, 'not found');
  };
}
