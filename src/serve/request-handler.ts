import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import sirv from 'sirv';
import compression from 'compression';
import { resolve } from '../url-resolution/resolve.ts';
import { headersFor } from '../response-headers.ts';
import { SEARCH_DIR } from '../search/search-index.ts';
import { LIVE_RELOAD_JS } from './live-reload.ts';
import { buildErrorPage } from './error-page.ts';
import { cardPreviewLocation } from './card-preview.ts';
import { cacheControlFor, sendFile, sendMemory, serveSearchFile } from './send-file.ts';
import type { ServeState } from './serve-state.ts';

/** Answers one request: serve's own paths, the form, the search index, then the site as the CDN routes it. */
export function requestHandler(state: ServeState, firstBuild: Promise<void>) {
  const files = sirv(state.outDir, { dev: true, etag: true, dotfiles: false, setHeaders: (res, pathname) => res.setHeader('cache-control', cacheControlFor(pathname)) });
  const compress = compressAsTheCdnDoes();
  return async (req: IncomingMessage, res: ServerResponse) => {
    const { session } = state;
    // Split by hand: new URL('//evil.example/', base) would read the path as a host.
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const url = { pathname: q === -1 ? raw : raw.slice(0, q), search: q === -1 ? '' : raw.slice(q) };
    for (const [k, v] of Object.entries(headersFor(state.headers, url.pathname))) res.setHeader(k, v);
    if (url.pathname === '/__site/events') return state.reload.connect(res);
    compress(req, res);
    if (url.pathname === '/__site/live-reload.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(LIVE_RELOAD_JS);
    }
    // A post as serve starts (a script's first GET answered, then its POST at once) waits for the
    // form backend rather than meeting the static site's 405; if the backend could not load, 503.
    if (!state.forms && state.formsLoading && url.pathname === state.formPath && req.method !== 'GET' && req.method !== 'HEAD') {
      if (!(await state.formsLoading.catch(() => undefined))) {
        res.writeHead(503, { 'retry-after': '5', 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
        return res.end('the local form backend is not running: see the terminal\n');
      }
    }
    if (state.cms && await state.cms(req, res, url.pathname, headersFor(state.headers, '/'))) return;
    if (state.forms && url.pathname === state.formPath) return state.forms.listener(req, res);
    if (url.pathname.startsWith(`${SEARCH_DIR}/`) && session.search) {
      state.live?.searchAsked();
      return serveSearchFile(res, url.pathname, session.search);
    }
    // Nothing to answer from yet (serve's first build): wait for it.
    if (!state.table && !state.failure) await firstBuild;
    const card = await cardPreviewLocation(url.pathname, state.layout.deployDir, state.live?.cardOf);
    if (card) {
      res.writeHead(302, { location: card, 'cache-control': 'no-store' });
      return res.end();
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      return res.end();
    }
    const { table, failure } = state;
    if (failure || !table) {
      res.removeHeader('content-security-policy');
      res.writeHead(500, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(buildErrorPage(failure ?? ['no build yet']));
    }
    const answer = resolve(url.pathname, table);
    if (answer.kind === 'bad-request') {
      res.writeHead(400, { 'cache-control': 'no-store' });
      return res.end();
    }
    if (answer.kind === 'redirect') {
      res.writeHead(answer.status, { location: answer.location + url.search });
      return res.end();
    }
    if (answer.status !== 200) {
      if (await sendFile(state.live, state.outDir, req, res, answer.file, answer.status)) return;
    } else {
      // What saves changed since the build is answered from memory (a page made when first asked for).
      const made = await state.live?.file(answer.file) ?? state.recorded?.file(answer.file);
      if (made) return sendMemory(req, res, answer.file, made, 200);
      const card = state.live?.card(answer.file);
      const drawn = card && await card;
      if (drawn) {
        res.writeHead(200, { 'content-type': 'image/png', 'cache-control': cacheControlFor(answer.file) });
        return res.end(req.method === 'HEAD' ? undefined : await readFile(drawn));
      }
      req.url = answer.file + url.search;
      return files(req, res, async () => {
        if (!(await sendFile(state.live, state.outDir, req, res, state.table!.notFound, 404))) { res.writeHead(404); res.end('Not found'); }
      });
    }
    res.writeHead(404);
    res.end('Not found');
  };
}

/**
 * Text answers compressed as CloudFront compresses them (the site's behaviours say `compress: true`,
 * its cache policy accepts Brotli and gzip): Brotli when the browser takes it, else gzip, for
 * compressible types of 1 KB and more, with `Vary: Accept-Encoding`. So a page weighs here, and in
 * the Lighthouse gate, what a visitor downloads. Not the live-reload stream, which would be held back.
 */
function compressAsTheCdnDoes(): (req: IncomingMessage, res: ServerResponse) => void {
  const middleware = compression({ threshold: 1000 }) as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  return (req, res) => middleware(req, res, () => {});
}
