// How `site serve` sends a file: from a live site's memory, the build's folder or the search index's
// cache, each with the Cache-Control production stores it with.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cacheControl } from '../url-resolution/cache-control.ts';
import type { BuiltSearch } from '../search/search-index.ts';
import type { LiveSite, MemoryFile } from './live-site.ts';

/** The Cache-Control production stores each file with (a public path: leading slash). */
export const cacheControlFor = (file: string) => cacheControl(file.replace(/^\/+/, ''));

/**
 * A file of the search index, from the cache, once the build's index is ready: serve's builds do not
 * write it into their output, so that a save reloads without waiting for pagefind.
 */
export async function serveSearchFile(res: ServerResponse, pathname: string, ready: Promise<BuiltSearch | undefined>): Promise<void> {
  const from = (await ready.catch(() => undefined))?.files.get(pathname);
  const body = from && await readFile(from).catch(() => undefined);
  if (!body) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    return void res.end('not in the search index (see the terminal if indexing failed)\n');
  }
  const type = pathname.endsWith('.js') ? 'text/javascript; charset=utf-8' : pathname.endsWith('.json') ? 'application/json; charset=utf-8' : 'application/octet-stream';
  res.writeHead(200, { 'content-type': type, 'cache-control': cacheControlFor(pathname) });
  res.end(body);
}

export function sendMemory(req: IncomingMessage, res: ServerResponse, file: string, made: MemoryFile, status: number): void {
  res.writeHead(status, { 'content-type': made.type, 'content-length': made.body.byteLength, 'cache-control': cacheControlFor(file) });
  res.end(req.method === 'HEAD' ? undefined : made.body);
}

/** A page's file with `status`, from memory or from the build's folder; false if there is none. */
export async function sendFile(live: LiveSite | undefined, outDir: string, req: IncomingMessage, res: ServerResponse, file: string, status: number): Promise<boolean> {
  const made = await live?.file(file);
  if (made) { sendMemory(req, res, file, made, status); return true; }
  const body = await readFile(path.join(outDir, file)).catch(() => undefined);
  if (!body) return false;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': cacheControlFor(file) });
  res.end(body);
  return true;
}

