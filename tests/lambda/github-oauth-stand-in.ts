// A stand-in of GitHub's OAuth web flow on 127.0.0.1, no more lenient than GitHub: /login/oauth/authorize
// (the author's consent, taken as given) redirects to the app's registered callback with a code and
// the state it was given; /login/oauth/access_token trades a code only for the app (id and secret)
// and the redirect address of the authorize request that issued it, once, within ten minutes of it.
// Anything else is answered as GitHub answers it: 200 with `error` and `error_description` (JSON
// only when asked for). When told to, it answers the next token request as GitHub does when it is
// down: a 5xx with an HTML page, a 5xx with JSON, or a reset connection.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/** How long GitHub honours a code (its documentation: ten minutes). */
export const CODE_TTL_MS = 10 * 60 * 1000;

export interface GitHubApp { clientId: string; secret: string; callback: string }

export interface GitHubStandIn {
  /** Its base address ('http://127.0.0.1:port'). */
  url: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** The scopes each authorize request asked for, in order. */
  scopes: string[];
  /** Whether it issued this access token (the API stand-in takes no other). */
  issued(token: string): boolean;
  /** Sets the stand-in's clock (ms), for codes' ten minutes (Date.now unless set). */
  setNow(now: () => number): void;
  /** The next token request is answered this way instead. */
  failNext(how: '502-html' | '500-json' | 'reset'): void;
  close(): Promise<void>;
}

export async function startGitHubStandIn(apps: readonly GitHubApp[]): Promise<GitHubStandIn> {
  const codes = new Map<string, { clientId: string; redirectUri: string; scope: string; issued: number }>();
  const scopes: string[] = [];
  const tokens = new Set<string>();
  let now = Date.now;
  let failure: '502-html' | '500-json' | 'reset' | undefined;

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const json = req.headers.accept === 'application/json';
      const answer = (data: Record<string, string>) => {
        res.writeHead(200, { 'content-type': json ? 'application/json; charset=utf-8' : 'application/x-www-form-urlencoded; charset=utf-8' });
        res.end(json ? JSON.stringify(data) : new URLSearchParams(data).toString());
      };
      if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
        const q = url.searchParams;
        const app = apps.find((a) => a.clientId === q.get('client_id'));
        // GitHub shows its own error page for an unknown app, and refuses a redirect_uri outside the registered callback.
        if (!app) { res.writeHead(404, { 'content-type': 'text/html' }); return res.end('<!doctype html><title>Page not found</title>'); }
        const redirectUri = q.get('redirect_uri') ?? app.callback;
        if (redirectUri !== app.callback) {
          const to = new URL(app.callback);
          to.search = new URLSearchParams({ error: 'redirect_uri_mismatch', error_description: 'The redirect_uri MUST match the registered callback URL for this application.', state: q.get('state') ?? '' }).toString();
          res.writeHead(302, { location: to.href }); return res.end();
        }
        const code = randomBytes(10).toString('hex');
        const scope = q.get('scope') ?? '';
        scopes.push(scope);
        codes.set(code, { clientId: app.clientId, redirectUri, scope, issued: now() });
        const to = new URL(redirectUri);
        to.search = new URLSearchParams({ code, ...(q.get('state') ? { state: q.get('state')! } : {}) }).toString();
        res.writeHead(302, { location: to.href }); return res.end();
      }
      if (req.method !== 'POST' || url.pathname !== '/login/oauth/access_token' || !/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) {
        res.writeHead(404, { 'content-type': 'text/html' }); return res.end('<!doctype html><title>Page not found</title>');
      }
      if (failure) {
        const how = failure;
        failure = undefined;
        if (how === 'reset') return req.socket.destroy();
        if (how === '502-html') { res.writeHead(502, { 'content-type': 'text/html' }); return res.end('<!doctype html><html><title>Unicorn! · GitHub</title><body>No server is currently available to service your request.</body></html>'); }
        res.writeHead(500, { 'content-type': 'application/json' }); return res.end(JSON.stringify({ message: 'Server Error' }));
      }
      const form = new URLSearchParams(body);
      const app = apps.find((a) => a.clientId === form.get('client_id'));
      if (!app || form.get('client_secret') !== app.secret) return answer({ error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.', error_uri: 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#incorrect-client-credentials' });
      const issued = codes.get(form.get('code') ?? '');
      if (issued && form.get('redirect_uri') && form.get('redirect_uri') !== issued.redirectUri) return answer({ error: 'redirect_uri_mismatch', error_description: 'The redirect_uri MUST match the registered callback URL for this application.' });
      if (!issued || issued.clientId !== app.clientId || now() - issued.issued > CODE_TTL_MS) return answer({ error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
      codes.delete(form.get('code')!);
      const token = `gho_${randomBytes(18).toString('hex')}<script>`;
      tokens.add(token);
      return answer({ access_token: token, token_type: 'bearer', scope: issued.scope });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    authorizeUrl: `${url}/login/oauth/authorize`,
    tokenUrl: `${url}/login/oauth/access_token`,
    scopes,
    issued: (token) => tokens.has(token),
    setNow(f) { now = f; },
    failNext(how) { failure = how; },
    close: () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
