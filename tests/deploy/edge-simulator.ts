// A CloudFront distribution for the tests, on a clock of the test's own, no more lenient than the
// real one: each edge reads its own copy of the KeyValueStore, which sees each change to the store
// some seconds late (`kvsLags`); each edge keeps what it fetched from the origin (s3rver, through
// the real client) in a cache of its own, for the cache policy's TTLs (infra/lib/site-stack.ts:
// min 1 day, default 1 day, max 365 days) applied to the Cache-Control the deploy wrote, and an
// origin error (S3's 403 for a missing object) as the distribution's 404 page for the error
// response's minute; each invalidation reaches each edge some seconds after it is made
// (`invalidationLags`), drops what that edge cached before it under the paths it names, and is
// complete (GetInvalidation) once it has reached every edge. The functions are the build's, run in
// njs over the store as each edge sees it. Nothing is asked of the cache before it is filled: an
// answer is always what a reader asking that edge at that moment would get.
import type { CfRequest, CfResponse, Outcome } from '../../src/url-resolution/njs-runtime.ts';

/** The cache policy's TTLs, in seconds (infra/lib/site-stack.ts). */
export const CACHE_POLICY = { min: 86_400, default: 86_400, max: 365 * 86_400 } as const;
/** How long the distribution keeps an origin error answered by its error response (site-stack.ts: errorResponses' ttl). */
export const ERROR_TTL = 60;

export interface StoredObject { body: string; status?: string; cacheControl?: string }
/** What a reader gets: status, Location, body (a page's title, or an asset's bytes). */
export interface Answer { status: number; location?: string; body?: string }

export const describeAnswer = (a: Answer) => `${a.status}${a.location ? ` → ${a.location}` : ''}${a.body ? ` "${/<title>([^<]*)/.exec(a.body)?.[1] ?? a.body.slice(0, 40)}"` : ''}`;

/** The TTL an edge keeps an object for: the Cache-Control's max-age within the policy's min and max, or its default. */
export function edgeTtl(cacheControl: string | undefined): number {
  const maxAge = /(?:s-maxage|max-age)=(\d+)/.exec(cacheControl ?? '');
  const wanted = maxAge ? Number(maxAge[1]) : CACHE_POLICY.default;
  return Math.min(CACHE_POLICY.max, Math.max(CACHE_POLICY.min, wanted));
}

interface Cached { answer: Answer; at: number; ttl: number }
interface Invalidation { paths: string[]; at: number }

const covers = (paths: readonly string[], key: string) => paths.some((p) => p === key || (p.endsWith('*') && key.startsWith(p.slice(0, -1))));

export class Edge {
  private readonly cache = new Map<string, Cached>();
  constructor(readonly kvsLag: number, readonly invalidationLag: number) {}

  /** The answer for `uri` at `t`: the request function's (routed over the store this edge sees), from the cache or the origin. */
  ask(t: number, routed: Outcome<CfRequest | CfResponse>, bucket: ReadonlyMap<string, StoredObject>, invalidations: readonly Invalidation[], response: (status: string | undefined) => number): Answer {
    if (routed.error) throw new Error(`the request function threw: ${routed.error}`);
    const result = routed.result;
    // A response the function makes (a redirect, a refusal) is never cached at the edge.
    if ('statusCode' in result) return { status: result.statusCode, ...(result.headers?.location ? { location: result.headers.location.value } : {}) };
    const key = result.uri;
    const cached = this.cache.get(key);
    const dropped = cached && invalidations.some((inv) => inv.at + this.invalidationLag <= t && cached.at < inv.at + this.invalidationLag && covers(inv.paths, key));
    if (cached && !dropped && t < cached.at + cached.ttl) return cached.answer;
    const object = bucket.get(key.slice(1));
    const fetched = object
      ? { answer: { status: response(object.status), body: object.body }, ttl: edgeTtl(object.cacheControl) }
      // S3 answers 403 for a key it does not hold; the error response serves /404.html with 404, kept a minute.
      : { answer: { status: 404, body: bucket.get('404.html')?.body ?? '' }, ttl: ERROR_TTL };
    this.cache.set(key, { answer: fetched.answer, at: t, ttl: fetched.ttl });
    return fetched.answer;
  }
}

/** The invalidations made, with when; each is complete once it has reached the slowest edge. */
export class Invalidations {
  readonly list: Invalidation[] = [];
  constructor(private readonly edges: readonly Edge[]) {}
  add(paths: string[], at: number): void { this.list.push({ paths, at }); }
  complete(index: number, now: number): boolean {
    const inv = this.list[index];
    return !!inv && now >= inv.at + Math.max(...this.edges.map((e) => e.invalidationLag));
  }
}
