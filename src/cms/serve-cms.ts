// /admin in `site serve`: the CMS's page, bundle and config, and Decap's local backend writing into content/.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ADMIN_PATH, CMS_CONFIG, CMS_LOCAL_API, CMS_SCRIPT, adminPage, cmsHeaders } from './admin-page.ts';
import { CMS_BODY_LIMIT, CmsLocalBackend, type ValidateContent } from './local-backend.ts';
import { cmsBundle, type CmsBundle } from './bundle.ts';
import { cmsConfig } from './config.ts';
import type { PreviewContext } from './client/previews.tsx';

export interface CmsSiteFacts { name: string; url: string; categories: readonly string[]; styles: readonly string[]; preview: PreviewContext }

/**
 * The CMS's answers, or undefined for a path that is not the CMS's. `facts`: the last build's site
 * name, categories and stylesheets; `origins`: serve's own, the only ones whose posts are taken.
 */
export function serveCms(root: string, validate: ValidateContent, facts: () => CmsSiteFacts | undefined, origins: () => string[], log: (line: string) => void) {
  const backend = new CmsLocalBackend(root, validate);
  let bundle: Promise<CmsBundle> | undefined;
  return async (req: IncomingMessage, res: ServerResponse, pathname: string, base: Record<string, string>): Promise<boolean> => {
    if (pathname !== ADMIN_PATH && !pathname.startsWith(`${ADMIN_PATH}/`)) return false;
    for (const [k, v] of Object.entries(cmsHeaders(base))) res.setHeader(k, v);
    res.setHeader('cache-control', 'no-store');
    const site = facts();
    if (pathname === CMS_LOCAL_API) {
      const origin = req.headers.origin;
      if (req.method !== 'POST' || (origin !== undefined && !origins().includes(origin)) || !/^application\/json\b/.test(req.headers['content-type'] ?? '')) {
        res.writeHead(403, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ error: 'only the CMS on this server may post here' })), true;
      }
      const body = await readBody(req).catch(() => undefined);
      let parsed: unknown;
      try { parsed = body === undefined ? undefined : JSON.parse(body); } catch { parsed = undefined; }
      const answer = parsed === undefined ? { status: 413, json: { error: 'the request is too large or not JSON' } } : await backend.handle(parsed);
      if (answer.status === 422) log(`content manager: save refused: ${String((answer.json as { error: string }).error)}`);
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
      return void res.end(JSON.stringify(answer.json ?? null)), true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405, { allow: 'GET, HEAD' }); return void res.end(), true; }
    if (pathname === ADMIN_PATH || pathname === `${ADMIN_PATH}/` || pathname === `${ADMIN_PATH}/index.html`) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(adminPage(site?.name ?? 'site')), true;
    }
    if (pathname === CMS_CONFIG) {
      const host = req.headers.host ?? '127.0.0.1';
      const config = { ...cmsConfig({ categories: site?.categories ?? [], siteUrl: `http://${host}` }), previewStyles: site?.styles ?? [], previewContext: site?.preview, local_backend: { url: `http://${host}${CMS_LOCAL_API}` } };
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

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > CMS_BODY_LIMIT) { fail(new Error('too large')); req.destroy(); return; }
      parts.push(chunk);
    });
    req.on('end', () => ok(Buffer.concat(parts).toString('utf8')));
    req.on('error', fail);
  });
}
