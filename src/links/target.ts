/**
 * What the server answers for an internal path: for our own build, the same `resolve` that
 * `site serve` and the CDN run; for any other folder, what a plain static host serves.
 */
import { resolve, type RoutingTable } from '../url-resolution/resolve.ts';
import type { ProblemKind } from './types.ts';

export const MAX_REDIRECTS = 5;

export type Target =
  /** A file that exists; `path` is the URL after any redirects. `file` is absent for an off-site redirect. */
  | { ok: true; path: string; file?: string }
  | { ok: false; reason: string; kind: ProblemKind };

export function safeDecode(text: string): string {
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

/**
 * What a plain static host (nginx, Apache, S3 website hosting, GitHub Pages…) serves for `pathname`
 * from `files`: the file itself, `dir/index.html` for `dir/`, and for `dir` the redirect they all
 * make to `dir/`. Nothing else: `/about` does not find `/about.html` on most of them.
 */
export function resolveStaticTarget(pathname: string, files: Set<string>): Target {
  const file = safeDecode(pathname);
  if (file.endsWith('/')) {
    const index = file + 'index.html';
    return files.has(index) ? { ok: true, path: pathname, file: index } : { ok: false, reason: `404 (no file ${index})`, kind: 'missing-file' };
  }
  if (files.has(file)) return { ok: true, path: pathname, file };
  if (files.has(file + '/index.html')) return { ok: true, path: pathname + '/', file: file + '/index.html' };
  const hint = files.has(file + '.html') ? `; ${file}.html exists, which only some hosts serve for ${file}` : '';
  return { ok: false, reason: `404 (no file ${file}${hint})`, kind: 'missing-file' };
}
