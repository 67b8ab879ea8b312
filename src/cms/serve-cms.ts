// /admin in `site serve`: the CMS's page, bundle and config, and Decap's local backend writing into content/.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ADMIN_PATH, CMS_CONFIG, CMS_LOCAL_API, CMS_SCRIPT, CMS_TOKEN_PARAM, adminPage, cmsHeaders } from './admin-page.ts';
import { CMS_BODY_LIMIT, CmsLocalBackend, type ValidateContent } from './local-backend.ts';
import { cmsBundle, type CmsBundle } from './bundle.ts';
import { cmsConfig } from './config.ts';
import type { PreviewContext } from './client/previews.tsx';

export interface CmsSiteFacts { name: string; url: string; categories: readonly string[]; styles: readonly string[]; preview: PreviewContext }

export interface ServeCmsOptions {
  /** Whether the local API takes saves (off when serve listens beyond this machine, unless asked for). */
  writes?: boolean;
}

/**
 * The CMS's answers, or undefined for a path that is not the CMS's. `facts`: the last build's site
 * name, categories and stylesheets; `origins`: serve's own, the only ones whose posts are taken.
 * A post must also carry the token this run put in the /admin page it gave out.
 */
export function serveCms(root: string, validate: ValidateContent, facts: () => CmsSiteFacts | undefined, origins: () => string[], log: (line: string) => void, options: ServeCmsOptions = {}) {
  const backend = new CmsLocalBackend(root, validate, { writes: options.writes ?? true });
  const token = randomBytes(24).toString('base64url');
  let bundle: Promise<CmsBundle> | undefined;
  return async (req: IncomingMessage, res: ServerResponse, pathname: string, base: Record<string, string>): Promise<boolean> => {
    if (pathname !== ADMIN_PATH && !pathname.startsWith(`${ADMIN_PATH}/`)) return false;
    for (const [k, v] of Object.entries(cmsHeaders(base))) res.setHeader(k, v);
    res.setHeader('cache-control', 'no-store');
    const site = facts();
    if (pathname === CMS_LOCAL_API) {
      const origin = req.headers.origin;
      const given = new URL(req.url ?? '/', 'http://x').searchParams.get(CMS_TOKEN_PARAM) ?? '';
      const json = (status: number, error: string) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error }));
      };
      if (req.method !== 'POST' || origin === undefined || !origins().includes(origin) || !/^application\/json\b/.test(req.headers['content-type'] ?? '')) {
        return void json(403, 'only the CMS on this server may post here'), true;
      }
      if (!sameToken(given, token)) return void json(403, 'the content manager page is from an earlier run of site serve: reload /admin'), true;
      const body = await readBody(req);
      if (body === undefined) return void json(413, `too large: a save here takes at most ${CMS_BODY_LIMIT / 1024 / 1024} MB (an image of about ${Math.floor((CMS_BODY_LIMIT * 3) / 4 / 1024 / 1024)} MB)`), true;
      let parsed: unknown;
      try { parsed = JSON.parse(body); } catch { return void json(400, 'the request is not JSON'), true; }
      const answer = await backend.handle(parsed);
      if (answer.status === 422) log(`content manager: save refused: ${String((answer.json as { error: string }).error)}`);
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
      return void res.end(JSON.stringify(answer.json ?? null)), true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405, { allow: 'GET, HEAD' }); return void res.end(), true; }
    if (pathname === ADMIN_PATH || pathname === `${ADMIN_PATH}/` || pathname === `${ADMIN_PATH}/index.html`) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(adminPage(site?.name ?? 'site', token)), true;
    }
    if (pathname === CMS_CONFIG) {
      const host = req.headers.host ?? '127.0.0.1';
      // Decap's proxy backend, posting to serve (the client adds the page's token to its address).
      const config = { ...cmsConfig({ categories: site?.categories ?? [], siteUrl: `http://${host}` }), backend: { name: 'proxy', proxy_url: CMS_LOCAL_API }, previewStyles: site?.styles ?? [], previewContext: site?.preview };
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return void res.end(JSON.stringify(config)), true;
    }
    if (pathname === CMS_SCRIPT) {
      bundle ??= cmsBundle(root);
      bundle.catch(() => { bundle = undefined; });
      const made = await bundle;
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'content-length': made.js.byteLength });
      return void res.end(req.method === 'HEAD' ? undefined : made.js), true;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    return void res.end('Not found'), true;
  };
}

/**
 * The body, or undefined when it is over the limit: the rest is then read and dropped, so that the
 * answer (a 413 with its message) reaches the browser rather than a reset connection.
 */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((ok, fail) => {
    const parts: Buffer[] = [];
    let size = 0;
    let over = Number(req.headers['content-length'] ?? 0) > CMS_BODY_LIMIT;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      over = size > CMS_BODY_LIMIT;
      if (over) parts.length = 0; else parts.push(chunk);
    });
    req.on('end', () => ok(over ? undefined : Buffer.concat(parts).toString('utf8')));
    req.on('error', fail);
  });
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
