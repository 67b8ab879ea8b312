/**
 * The build's routing table as the CloudFront KeyValueStore holds it: one entry per page and per
 * redirect, and one for the rules (see rule.ts). `site serve` resolves over these entries held in
 * memory, the CloudFront functions over the same entries in the store, and `site deploy` brings
 * the store into step with them. The build checks them against the store's limits, as the service
 * states them, and refuses an output that could not be deployed.
 */
import { PAGE, RULES_KEY, redirectValue, type Rules } from './rule.ts';
import type { RoutingTable } from './routing-table.ts';

/** The service's limits: a key of at most 512 bytes, a value of at most 1 KB, and 5 MB in all (keys and values). */
export const STORE_LIMITS = { keyBytes: 512, valueBytes: 1024, totalBytes: 5 * 1024 * 1024 } as const;

/**
 * The key under which `site deploy` notes the paths it is yet to invalidate (src/deploy/store.ts):
 * no URL path, since they all begin with '/', and no key the routing reads. It shares the store's
 * 5 MB, so the build counts it at its largest (a value of 1 KB).
 */
export const JOURNAL_KEY = 'deploy:to-invalidate';
const JOURNAL_BYTES = Buffer.byteLength(JOURNAL_KEY) + STORE_LIMITS.valueBytes;

/**
 * The user metadata (`x-amz-meta-site-status`) that `site deploy` stores with each error page's
 * object (the not-found page, a fallback's page), holding the status it answers with. S3 sends it
 * with the object, CloudFront keeps it with the cached copy, and the response function turns it
 * into the status (and drops it). AWS documents a viewer-response event's `request` as the request
 * CloudFront received from the viewer, so nothing the request function adds to the request can be
 * relied on to reach it; the object's own header always does.
 */
export const ERROR_STATUS_METADATA = 'site-status';
export const ERROR_STATUS_HEADER = `x-amz-meta-${ERROR_STATUS_METADATA}`;

/** Where the build writes the entries (in .site/deploy/), in the service's import format: `{"data":[{"key","value"},…]}`. */
export const STORE_DATA_FILE = 'cloudfront/key-value-store.json';

export interface Entry { key: string; value: string }

export function rulesOf(table: RoutingTable): Rules {
  return { notFound: table.notFound, fallbacks: table.fallbacks, ...(table.hosts ? { hosts: table.hosts } : {}) };
}

/** The entries, sorted by key: the rules, each page, each redirect. */
export function storeEntries(table: RoutingTable): Entry[] {
  const entries = new Map<string, string>([[RULES_KEY, JSON.stringify(rulesOf(table))]]);
  for (const page of table.pageUrls) entries.set(page, PAGE);
  // A path both a page and a redirect is refused by storeProblems; the redirect is what resolve answered before.
  for (const [from, r] of Object.entries(table.redirects)) entries.set(from, redirectValue(r.to, r.status));
  return [...entries].map(([key, value]) => ({ key, value })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** The store's size as the service counts it: every key's and value's bytes. */
export function storeSize(entries: readonly Entry[]): number {
  let total = 0;
  for (const e of entries) total += bytes(e.key) + bytes(e.value);
  return total;
}

/** One line per problem that would stop the store taking these entries, naming the page or redirect. */
export function storeProblems(table: RoutingTable, entries: readonly Entry[] = storeEntries(table)): string[] {
  const problems: string[] = [];
  const pages = new Set(table.pageUrls);
  for (const from of Object.keys(table.redirects)) {
    if (pages.has(from)) problems.push(`${from}: is both a page and a redirect (to ${table.redirects[from]!.to}); remove the redirect or the page`);
  }
  for (const { key, value } of entries) {
    const what = key === RULES_KEY ? 'the routing rules (not-found page and fallbacks)' : key;
    if (bytes(key) > STORE_LIMITS.keyBytes) problems.push(`${what.slice(0, 80)}…: its URL is ${bytes(key)} bytes, and the CloudFront KeyValueStore takes keys of at most ${STORE_LIMITS.keyBytes}; give it a shorter slug`);
    if (bytes(value) > STORE_LIMITS.valueBytes) problems.push(`${what}: its routing entry is ${bytes(value)} bytes, and the CloudFront KeyValueStore takes values of at most ${STORE_LIMITS.valueBytes}${key === RULES_KEY ? '' : '; shorten the redirect\'s target'}`);
  }
  const size = storeSize(entries) + JOURNAL_BYTES;
  if (size > STORE_LIMITS.totalBytes) {
    problems.push(`the routing entries of ${table.pageUrls.length} pages and ${Object.keys(table.redirects).length} redirects come to ${size} bytes with the deploy's note of paths to invalidate (${JOURNAL_BYTES} bytes at most), and a CloudFront KeyValueStore holds at most ${STORE_LIMITS.totalBytes}`);
  }
  return problems;
}

/**
 * The store's size at its largest during a deploy from `held` to `wanted`: the deploy puts the new
 * and changed keys before it takes out the old ones (so that no URL loses its answer meanwhile),
 * so between the two the store holds both, with the note of paths to invalidate at its largest.
 */
export function peakSize(held: Iterable<Entry> | ReadonlyMap<string, string>, wanted: readonly Entry[]): number {
  const both = new Map<string, string>(held instanceof Map ? held : [...(held as Iterable<Entry>)].map((e) => [e.key, e.value] as [string, string]));
  both.delete(JOURNAL_KEY);
  for (const e of wanted) both.set(e.key, e.value);
  let total = JOURNAL_BYTES;
  for (const [key, value] of both) total += bytes(key) + bytes(value);
  return total;
}

/** The one line that says a deploy from `held` to `wanted` would pass the store's limit part-way, or undefined. */
export function peakProblem(held: Iterable<Entry> | ReadonlyMap<string, string>, wanted: readonly Entry[], from: string): string | undefined {
  const peak = peakSize(held, wanted);
  if (peak <= STORE_LIMITS.totalBytes) return undefined;
  return `the routing entries come to ${storeSize(wanted)} bytes, but a deploy over ${from} holds the old keys and the new together until it takes the old ones out: ${peak} bytes, and a CloudFront KeyValueStore holds at most ${STORE_LIMITS.totalBytes}; deploy the renamed URLs in two steps (keep the old ones a deploy longer, as redirects or pages), or fewer at a time`;
}

/** The build's output cannot be deployed: the store would refuse its routing entries. */
export class StoreLimitError extends Error {
  override name = 'StoreLimitError';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }

  get lines(): string[] {
    return [...this.problems.map((p) => `error: ${p}`), `build stopped: ${this.problems.length} routing entr${this.problems.length === 1 ? 'y' : 'ies'} the CloudFront KeyValueStore would refuse (dist/ left as it was)`];
  }
}

/**
 * The status each error page's file answers with, by its key in the bucket ('404.html' → 404, a
 * fallback's page → its status), from the rules: `site deploy` stores it in the object's metadata,
 * where the viewer-response function reads it (cloudfront-functions.ts).
 */
export function errorStatuses(rules: Rules): Map<string, number> {
  const statuses = new Map<string, number>([[rules.notFound.slice(1), 404]]);
  for (const f of rules.fallbacks) if (f.file) statuses.set(f.file.slice(1), f.status);
  return statuses;
}

/** The rules an entry list holds, or undefined (none, or not the rules). */
export function rulesIn(entries: Iterable<Entry> | ReadonlyMap<string, string>): Rules | undefined {
  let text: string | undefined;
  if (entries instanceof Map) text = entries.get(RULES_KEY);
  else for (const e of entries as Iterable<Entry>) if (e.key === RULES_KEY) text = e.value;
  if (text === undefined) return undefined;
  try {
    const rules = JSON.parse(text) as Rules;
    return typeof rules?.notFound === 'string' && Array.isArray(rules.fallbacks) ? rules : undefined;
  } catch {
    return undefined;
  }
}

export interface StoreFigures { keys: number; bytes: number; limit: number }

/** The entries, checked: their figures for the summary, or a StoreLimitError listing every problem. */
export function checkedStore(table: RoutingTable, previous?: readonly Entry[]): { entries: Entry[]; figures: StoreFigures } {
  const entries = storeEntries(table);
  const problems = storeProblems(table, entries);
  // `previous`: the entries of the build this one replaces, which its deploy put in the store.
  const peak = problems.length === 0 && previous ? peakProblem(previous, entries, 'the last build\'s entries') : undefined;
  if (peak) problems.push(peak);
  if (problems.length > 0) throw new StoreLimitError(problems);
  return { entries, figures: { keys: entries.length, bytes: storeSize(entries), limit: STORE_LIMITS.totalBytes } };
}

/** The file the build writes: the entries in the service's import format, one per line. */
export function storeDataFile(entries: readonly Entry[]): string {
  return `{"data":[\n${entries.map((e) => JSON.stringify({ key: e.key, value: e.value })).join(',\n')}\n]}\n`;
}

/** Reads a file storeDataFile wrote; undefined when it is not one. */
export function parseStoreDataFile(text: string): Entry[] | undefined {
  try {
    const parsed = JSON.parse(text) as { data?: unknown };
    if (!Array.isArray(parsed.data)) return undefined;
    const ok = parsed.data.every((e: unknown) => !!e && typeof (e as Entry).key === 'string' && typeof (e as Entry).value === 'string');
    return ok ? (parsed.data as Entry[]).map((e) => ({ key: e.key, value: e.value })) : undefined;
  } catch {
    return undefined;
  }
}
