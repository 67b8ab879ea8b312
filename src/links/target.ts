/** What the server answers for an internal path: the same `resolve` that `site serve` and the CDN run. */
import { resolve, type RoutingTable } from '../routing.ts';
import type { ProblemKind } from './types.ts';

export const MAX_REDIRECTS = 5;

export type Target =
  /** A file that exists; `path` is the URL after any redirects. `file` is absent for an off-site redirect. */
  | { ok: true; path: string; file?: string }
  | { ok: false; reason: string; kind: ProblemKind };

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The fallback of the table that would redirect `path`, if any. */
function fallbackRedirect(path: string, table: RoutingTable): string | undefined {
  const f = table.fallbacks.find((fb) => fb.redirect && path.startsWith(fb.prefix) && path.length > fb.prefix.length);
  return f?.redirect;
}

/** Follows the routing for `pathname` (no query, no fragment) to a file in `files`, or says why not. */
export function resolveTarget(pathname: string, table: RoutingTable, files: Set<string>): Target {
  let current = pathname;
  const seen = [current];
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const res = resolve(current, table);
    const via = hop > 0 ? `redirects to ${current}, then ` : '';
    if (res.kind === 'file') {
      if (res.status === 404) return { ok: false, reason: `${via}404 (no page)`, kind: 'not-found' };
      if (res.status >= 400) return { ok: false, reason: `${via}${res.status}`, kind: 'not-found' };
      if (!files.has(safeDecode(res.file))) return { ok: false, reason: `${via}404 (no file ${res.file})`, kind: 'missing-file' };
      return { ok: true, path: current, file: safeDecode(res.file) };
    }
    if (res.kind === 'bad-request') return { ok: false, reason: `${via}400 (not a URL path the server answers)`, kind: 'invalid' };
    const explicit = table.redirects[current];
    if (!explicit || explicit.to !== res.location) {
      // Not a redirect the table lists: the server normalises the URL or falls back for an unknown one.
      if (current.length > 1 && current.endsWith('/')) {
        const bare = hop === 0 ? resolveTarget(res.location, table, files) : undefined;
        const also = bare && !bare.ok ? `; and ${res.location}: ${bare.reason}` : '';
        return { ok: false, reason: `${via}trailing slash: the site's URLs have none${also}`, kind: 'trailing-slash' };
      }
      if (fallbackRedirect(current, table) === res.location) {
        return { ok: false, reason: `${via}${res.status} to ${res.location} (no such page)`, kind: 'not-found' };
      }
      return { ok: false, reason: `${via}${res.status} to ${res.location} (not the canonical URL)`, kind: 'non-canonical' };
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(res.location) || res.location.startsWith('//')) return { ok: true, path: res.location };
    const next = res.location.split(/[?#]/)[0] ?? res.location;
    if (seen.includes(next)) return { ok: false, reason: `redirect loop: ${[...seen, next].join(' → ')}`, kind: 'redirect' };
    seen.push(next);
    current = next;
  }
  return { ok: false, reason: `more than ${MAX_REDIRECTS} redirects: ${seen.join(' → ')}`, kind: 'redirect' };
}
