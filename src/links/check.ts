/**
 * The checking itself: pure, over pages already scanned, the routing table and the list of files.
 * With our build's routing table, links are also held to the site's URL conventions (root-relative,
 * no trailing slash, no javascript:); without one (any other static folder), links resolve as a
 * plain static host serves them and only what is broken is reported.
 */
import type { RoutingTable } from '../url-resolution/resolve.ts';
import type { ExtractedLink, PageScan } from './extract.ts';
import { resolveStaticTarget, resolveTarget, type Target } from './target.ts';
import type { DuplicateId, ExternalLink, Findings, Page, Problem, ProblemKind } from './types.ts';

// Stands in for the site's origin when no page has a canonical URL; never fetched.
const PLACEHOLDER_ORIGIN = 'https://site.invalid';
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

type Verdict = { ok: true } | { ok: false; reason: string; kind: ProblemKind } | { external: string };

interface Context {
  /** Our build's routing table; undefined for a plain static folder. */
  table: RoutingTable | undefined;
  files: Set<string>;
  pagesByFile: Map<string, Page>;
  targets: Map<string, Target>;
}

/** The origin of the page's canonical URL, if it has a usable one. */
function canonicalOrigin(scan: PageScan): string | undefined {
  if (scan.canonical === undefined) return undefined;
  try {
    const url = new URL(scan.canonical);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Why `hash` finds nothing on `page`, or undefined when it does (or needs nothing). */
export function fragmentProblem(hash: string, page: Page): string | undefined {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  if (raw === '' || raw.toLowerCase() === 'top' || raw.startsWith(':~:')) return undefined;
  const id = decode(raw);
  const { ids, names } = page.scan;
  if (ids.has(id) || ids.has(raw) || names.has(id) || names.has(raw)) return undefined;
  return `no element with id "${id}" on ${page.url}`;
}

function target(pathname: string, ctx: Context): Target {
  let found = ctx.targets.get(pathname);
  if (!found) {
    found = ctx.table ? resolveTarget(pathname, ctx.table, ctx.files) : resolveStaticTarget(pathname, ctx.files);
    ctx.targets.set(pathname, found);
  }
  return found;
}

/** An internal URL (already parsed): its page or file must exist, and its fragment must land. */
function internalVerdict(url: URL, ctx: Context): Verdict {
  const found = target(url.pathname, ctx);
  if (!found.ok) return found;
  if (url.hash.length > 1 && found.file?.endsWith('.html')) {
    const page = ctx.pagesByFile.get(found.file);
    const missing = page && fragmentProblem(url.hash, page);
    if (missing) return { ok: false, reason: missing, kind: 'fragment' };
  }
  return { ok: true };
}

/** The URL the page's relative links resolve against: its own address, or its `<base href>`. */
function baseUrl(page: Page, origin: string): string {
  const own = origin + page.url;
  if (page.scan.base === undefined) return own;
  try {
    return new URL(page.scan.base, own).href;
  } catch {
    return own;
  }
}

function verdict(link: ExtractedLink, page: Page, origin: string, ctx: Context): Verdict | undefined {
  const raw = link.url;
  if (raw === '') return link.attr === 'href' ? { ok: true } : { ok: false, reason: `empty ${link.attr}`, kind: 'invalid' };
  if (raw.startsWith('#') && page.scan.base === undefined) {
    const missing = fragmentProblem(raw, page);
    return missing ? { ok: false, reason: missing, kind: 'fragment' } : { ok: true };
  }
  // Social sites fetch a share image without a page to resolve it against.
  if (link.tag === 'meta' && !/^https?:\/\//i.test(raw)) return { ok: false, reason: `${link.attr} must be an absolute https:// URL`, kind: 'invalid' };
  let url: URL;
  try {
    url = new URL(raw, baseUrl(page, origin));
  } catch {
    return { ok: false, reason: 'not a valid URL', kind: 'invalid' };
  }
  if (url.protocol === 'javascript:' && ctx.table) return { ok: false, reason: 'javascript: URL (unsafe; use a button)', kind: 'unsafe' };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined; // mailto:, tel:, data:… are not ours to check
  if (url.origin !== origin) {
    if (link.internalOnly) return undefined;
    url.hash = '';
    return { external: url.href };
  }
  const result = internalVerdict(url, ctx);
  if (!ctx.table || SCHEME.test(raw) || raw.startsWith('/')) return result;
  const rooted = url.pathname + url.search + url.hash;
  const also = 'reason' in result ? `; and ${url.pathname}: ${result.reason}` : '';
  return { ok: false, reason: `relative URL; use root-relative ${rooted}${also}`, kind: 'relative' };
}

/** Checks every link on every page: against our build's routing `table`, or as a plain static host serves `files` when undefined. */
export function checkSite(pages: Page[], table: RoutingTable | undefined, files: Set<string>): Findings {
  const ctx: Context = { table, files, pagesByFile: new Map(pages.map((p) => [p.file, p])), targets: new Map() };
  const problems: Problem[] = [];
  const external = new Map<string, ExternalLink>();
  const linkPages = new Map<string, number>();
  const duplicateIds: DuplicateId[] = [];
  let internal = 0;
  // Pages without a canonical URL (the not-found pages) take the site's origin from the others.
  const siteOrigin = pages.map((p) => canonicalOrigin(p.scan)).find((o) => o !== undefined) ?? PLACEHOLDER_ORIGIN;
  for (const page of pages) {
    const origin = canonicalOrigin(page.scan) ?? siteOrigin;
    const seen = new Set<string>();
    for (const link of page.scan.links) {
      const v = verdict(link, page, origin, ctx);
      if (v === undefined) continue;
      if ('external' in v) {
        const entry = external.get(v.external) ?? { url: v.external, pages: [] };
        if (!entry.pages.includes(page.url)) entry.pages.push(page.url);
        external.set(v.external, entry);
      } else {
        internal++;
      }
      if (seen.has(link.url)) continue;
      seen.add(link.url);
      linkPages.set(link.url, (linkPages.get(link.url) ?? 0) + 1);
      if ('reason' in v) problems.push({ page: page.url, link: link.url, reason: v.reason, kind: v.kind });
    }
    for (const [id, count] of page.scan.duplicateIds) duplicateIds.push({ page: page.url, id, count });
  }
  return { staticHost: table === undefined, pages: pages.length, internal, external: [...external.values()], problems, duplicateIds, linkPages };
}
