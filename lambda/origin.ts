// Where a request comes from. A plain HTML form post is never preflighted, so the Origin
// (or, failing that, the Referer) check on every POST is what keeps other sites from using
// the endpoint; CORS headers only ever name an allowed origin.
import { toOrigin } from './config.ts';
import { header, type HttpEvent } from './event.ts';

export function requestOrigin(event: HttpEvent): string | undefined {
  const origin = header(event, 'origin');
  // Browsers send the literal 'null' for opaque origins (sandboxed frames, file: pages).
  if (origin && origin !== 'null') return toOrigin(origin);
  const referer = header(event, 'referer');
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

export function isAllowedOrigin(
  origin: string | undefined,
  allowed: readonly string[],
): origin is string {
  return origin !== undefined && allowed.includes(origin);
}

export function corsHeaders(origin: string, preflight: boolean): Record<string, string> {
  const headers: Record<string, string> = { 'access-control-allow-origin': origin };
  if (preflight) {
    headers['access-control-allow-methods'] = 'POST, OPTIONS';
    headers['access-control-allow-headers'] = 'content-type';
    headers['access-control-max-age'] = '600';
  }
  return headers;
}

/** Path of the page that posted, when it is one of ours; otherwise the fallback. */
export function backPath(event: HttpEvent, allowed: readonly string[], fallback: string): string {
  const referer = header(event, 'referer');
  if (!referer) return fallback;
  try {
    const url = new URL(referer);
    // '//host/…' would be read as another site, so such a path falls back too.
    const ours = allowed.includes(url.origin) && !url.pathname.startsWith('//');
    return ours ? `${url.pathname}${url.search}` : fallback;
  } catch {
    return fallback;
  }
}
