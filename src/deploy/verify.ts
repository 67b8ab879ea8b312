// What readers get, checked once a deploy's last step is done: the distribution is asked for every
// changed and removed URL and a sample of the rest, and each answer's status, Location and ETag
// compared with what the build says it should be (rule.ts over the build's entries; a file's ETag
// is its MD5, as S3 gives it for a one-part upload and CloudFront passes it on). A URL that answers
// otherwise is asked again once the edges have had the settle time; one still wrong is named.
import { answer, type Rules } from '../url-resolution/rule.ts';
import type { LocalFile } from './local-files.ts';

/** What the distribution answered for a path, as the deploy reads it (no redirect followed). */
export interface Observed { status: number; location?: string; etag?: string }

/** Asks the distribution for each path, in order. */
export type Asker = (paths: readonly string[]) => Promise<Observed[]>;

/** How many unchanged URLs are asked besides the changed and removed ones. */
export const VERIFY_SAMPLE = 20;

/**
 * What `path` should answer after the deploy, from the build alone, asked on `host`: with the
 * content manager on a host of its own, the function sends /admin there from any other host and
 * everything else from there back to the site (rule.ts).
 */
export function expectedAnswer(path: string, rules: Rules, entries: ReadonlyMap<string, string>, files: ReadonlyMap<string, LocalFile>, statuses: ReadonlyMap<string, number>, host?: string): Observed {
  const r = answer(path, rules, (key) => entries.get(key), host);
  if (r.kind === 'redirect') return { status: r.status, location: r.location };
  if (r.kind === 'bad-request') return { status: 400 };
  const file = files.get(r.file.slice(1));
  // No object: S3's 403, which the distribution answers with the not-found page and 404.
  if (!file) return { status: 404, etag: files.get(rules.notFound.slice(1))?.md5 };
  return { status: statuses.get(file.key) ?? r.status, etag: file.md5 };
}

const describe = (o: Observed) => `${o.status}${o.location ? ` → ${o.location}` : ''}${o.etag ? ` (ETag ${o.etag})` : ''}`;
const bare = (etag: string | undefined) => etag?.replace(/^W\//, '').replace(/"/g, '');

/** The line naming what `path` answered where the build expects otherwise, or undefined. */
export function mismatch(path: string, got: Observed, expected: Observed): string | undefined {
  const same = got.status === expected.status && (expected.location === undefined || got.location === expected.location)
    && (expected.etag === undefined || bare(got.etag) === expected.etag);
  return same ? undefined : `${path} answered ${describe({ ...got, etag: bare(got.etag) })}, where the build expects ${describe(expected)}`;
}

/** The paths to ask: `changed` (changed and removed URLs) first, then every `n`th of `rest` up to VERIFY_SAMPLE. */
export function pathsToVerify(changed: readonly string[], rest: readonly string[]): string[] {
  const asked = new Set(changed);
  const others = rest.filter((p) => !asked.has(p));
  const step = Math.max(1, Math.ceil(others.length / VERIFY_SAMPLE));
  for (let i = 0; i < others.length; i += step) asked.add(others[i]!);
  return [...asked];
}

/**
 * Asks for `paths`; those that answer otherwise than expected are asked again after `settleMs`
 * (waited with `wait`). Resolves to one line per path still wrong (none: all is as the build says).
 */
export async function verifyAnswers(paths: readonly string[], expect: (path: string) => Observed, ask: Asker, wait: (ms: number) => Promise<void>, settleMs: number): Promise<string[]> {
  const check = async (list: readonly string[]) => {
    const got = await ask(list);
    return list.flatMap((p, i) => { const line = mismatch(p, got[i]!, expect(p)); return line ? [{ p, line }] : []; });
  };
  let wrong = await check(paths);
  if (wrong.length > 0 && settleMs > 0) {
    await wait(settleMs);
    wrong = await check(wrong.map((w) => w.p));
  }
  return wrong.map((w) => w.line);
}
