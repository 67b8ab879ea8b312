// /admin in `site serve`: the CMS's page, bundle and config, and Decap's local backend writing into content/.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ADMIN_PATH, CMS_CONFIG, CMS_LOCAL_API, CMS_SCRIPT, CMS_TOKEN_PARAM, HASHED_SCRIPT, adminPage, cmsHeaders, hashedScript } from './admin-page.ts';
import { CMS_BODY_LIMIT, CmsLocalBackend, type ValidateContent } from './local-backend.ts';
import { cmsBundle } from './bundle.ts';
import { localCmsConfig } from './config.ts';
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
  let bundle: Promise<{ js: Uint8Array; path: string }> | undefined;
  /** The bundle (made once a run), named by its content's hash. */
  const script = () => {
    bundle ??= cmsBundle(root).then(({ js }) => ({ js, path: hashedScript(createHash('sha256').update(js).digest('hex').slice(0, 16)) }));
    bundle.catch(() => { bundle = undefined; });
    return bundle;
  };
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
      // Asked again on each load (its token is this run's, its bundle the current one); the bundle it names is kept.
      // Should the bundle fail, the page still loads, naming the unhashed bundle, which answers the error.
      const made = await script().catch(() => undefined);
      const html = adminPage(site?.name ?? 'site', token, made?.path ?? CMS_SCRIPT);
      const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"`;
      res.setHeader('cache-control', 'no-cache');
      res.setHeader('etag', etag);
      if (req.headers['if-none-match'] === etag) { res.writeHead(304); return void res.end(), true; }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(req.method === 'HEAD' ? undefined : html), true;
    }
    if (pathname === CMS_CONFIG) {
      const host = req.headers.host ?? '127.0.0.1';
      // Decap's proxy backend, posting to serve (the client adds the page's token to its address).
      const config = { ...localCmsConfig({ categories: site?.categories ?? [], siteUrl: `http://${host}` }, CMS_LOCAL_API), previewStyles: site?.styles ?? [], previewContext: site?.preview };
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return void res.end(JSON.stringify(config)), true;
    }
    if (pathname === CMS_SCRIPT || HASHED_SCRIPT.test(pathname)) {
      const made = await script();
      // The current bundle under its hash is kept a year; an older page's name for it, or the unhashed one, is asked again each time.
      if (pathname === made.path) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      else if (pathname !== CMS_SCRIPT) { res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }); return void res.end('an older bundle: reload /admin\n'), true; }
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
