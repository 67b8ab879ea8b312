// `site deploy` while CloudFront's edges catch up. The KeyValueStore is eventually consistent: each
// edge reads its own copy, which sees a change to the store some seconds after it is made. Here
// four edges see each change 0, 4, 12 and 25 seconds late, on a clock of the test's own, while a
// deploy adds a page, changes one, turns one into a redirect and removes one, through the real
// clients against s3rver, the KeyValueStore API's stand-in and CloudFront's invalidation faked.
// Every URL of the site is sampled on every edge at each step of the deploy (each upload, each
// store change, the invalidation, each second of the settle wait, the deletions) and for half a
// minute after: the functions as built, in njs, over the store as that edge sees it then, and the
// bucket as it is then. No live page may answer anything but itself, and no answer that a browser
// or the edge keeps (a redirect with a max-age, S3's 403 for a deleted object, which the
// distribution turns into its 404 page and keeps for a minute) may be other than what the URL
// answers once the deploy is over. The same deploy without the settle wait is shown to break that.
//
// The edge's cache of objects is not modelled: `site deploy` invalidates every path it changes.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteObjectsCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cloudFrontInvalidator, type Invalidator } from '../../src/deploy/cdn.ts';
import { deployCommand } from '../../src/deploy/command.ts';
import { deployDirFor } from '../../src/output/layout.ts';
import { viewerRequestFunction, viewerResponseFunction } from '../../src/url-resolution/cloudfront-functions.ts';
import { ERROR_STATUS_HEADER, ERROR_STATUS_METADATA, STORE_DATA_FILE, storeDataFile, type Entry } from '../../src/url-resolution/store-data.ts';
import { runInNjs, type CfRequest, type CfResponse } from '../url-resolution/njs-runtime.ts';
import { startFakeCloudFront, type FakeCloudFront } from './fake-cloudfront.ts';
import { KVS_ARN, startLocalKvs, type LocalKvs } from './local-kvs.ts';
import { startLocalS3, type LocalS3 } from './local-s3.ts';
import { sealFolder } from './seal-folder.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** How late each edge sees a change to the store, in seconds. */
const LAGS = [0, 4, 12, 25];
/** The settle wait: longer than the slowest edge's lag. */
const SETTLE = 30;
/** How long the distribution keeps an origin error (infra/lib/site-stack.ts: errorResponses' ttl). */
const ERROR_TTL = 60;

const page = (title: string) => `<!doctype html><html lang="en-GB"><title>${title}</title><h1>${title}</h1></html>\n`;
const RULES = JSON.stringify({ notFound: '/404.html', fallbacks: [{ prefix: '/blog/', redirect: '/blog', status: 302 }] });

interface Build { files: Record<string, string>; entries: Entry[] }
const build = (pages: Record<string, string>, redirects: Record<string, string> = {}): Build => ({
  files: { '404.html': page('Page not found'), 'robots.txt': 'User-agent: *\n', ...Object.fromEntries(Object.entries(pages).map(([url, title]) => [url === '/' ? 'index.html' : `${url.slice(1)}.html`, page(title)])) },
  entries: [{ key: 'rules', value: RULES }, ...Object.keys(pages).map((key) => ({ key, value: 'page' })), ...Object.entries(redirects).map(([key, value]) => ({ key, value }))],
});

const BEFORE = build({ '/': 'Home', '/about': 'About', '/blog': 'Insights', '/blog/kept': 'Kept', '/blog/changed': 'Changed, first draft', '/blog/moved': 'Moved', '/blog/removed': 'Removed' });
const AFTER = build({ '/': 'Home', '/about': 'About', '/blog': 'Insights, with a new article', '/blog/kept': 'Kept', '/blog/changed': 'Changed, second draft', '/blog/added': 'Added' }, { '/blog/moved': '301 /blog/kept' });
const URLS = ['/', '/about', '/blog', '/blog/kept', '/blog/changed', '/blog/moved', '/blog/removed', '/blog/added', '/blog/never-was', '/404.html', '/about/', '/blog/kept.html'];
/** Pages of both builds: each must answer itself, in either version, all through the deploy. */
const LIVE = ['/', '/about', '/blog', '/blog/kept', '/blog/changed'];

let s3: LocalS3;
let cdn: FakeCloudFront;
let work: string;
let code: { request: string; response: string };

beforeAll(async () => {
  s3 = await startLocalS3(['settled', 'hasty']);
  cdn = await startFakeCloudFront();
  work = await mkdtemp(path.join(tmpdir(), 'site-lagging-edges-'));
  code = { request: await viewerRequestFunction(ROOT), response: await viewerResponseFunction(ROOT) };
}, 60_000);
afterAll(async () => {
  await s3.close();
  await cdn.close();
  await rm(work, { recursive: true, force: true });
});

async function writeBuild(dir: string, b: Build): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  for (const [key, body] of Object.entries(b.files)) {
    await mkdir(path.dirname(path.join(dir, key)), { recursive: true });
    await writeFile(path.join(dir, key), body);
  }
  await mkdir(path.dirname(path.join(deployDirFor(dir), STORE_DATA_FILE)), { recursive: true });
  await writeFile(path.join(deployDirFor(dir), STORE_DATA_FILE), storeDataFile(b.entries));
  await sealFolder(dir);
}

interface StoredObject { body: string; status?: string; cacheControl?: string }
/** One moment of the deploy: the clock, what happened, and the bucket as it was. */
interface Sample { t: number; what: string; bucket: Map<string, StoredObject> }
/** An answer as a reader's browser gets it, and how long the browser or the edge keeps it. */
interface Answer { status: number; location?: string; body?: string; keep: number }

const describeAnswer = (a: Answer) => `${a.status}${a.location ? ` → ${a.location}` : ''}${a.body ? ` "${/<title>([^<]*)/.exec(a.body)?.[1] ?? a.body}"` : ''}${a.keep ? ` (kept ${a.keep} s)` : ''}`;
const maxAge = (cacheControl: string | undefined) => (!cacheControl || /no-store/.test(cacheControl) ? 0 : Number(/max-age=(\d+)/.exec(cacheControl)?.[1] ?? 0));

/** A deploy of AFTER over BEFORE with `settle` seconds' wait, sampled; what went wrong, and the log of answers as they changed. */
async function deployThroughLaggingEdges(bucket: string, settle: number): Promise<{ problems: string[]; log: string[]; out: string[] }> {
  const kvs: LocalKvs = await startLocalKvs();
  try {
    const dir = path.join(work, bucket, 'dist');
    let now = 0;
    const mirror = new Map<string, StoredObject>();
    /** The store after each change, from when it was made. */
    const versions: Array<{ t: number; entries: Map<string, string> }> = [];
    const samples: Sample[] = [];
    const sample = (what: string) => { now += 1; samples.push({ t: now, what, bucket: new Map(mirror) }); };
    kvs.beforeUpdate = async (puts, deletes) => {
      const next = new Map(kvs.entries);
      for (const p of puts) next.set(p.Key, p.Value);
      for (const d of deletes) next.delete(d.Key);
      versions.push({ t: now + 1, entries: next });
      sample(`store: ${puts.length} put, ${deletes.length} removed`);
    };
    // The bucket as the deploy leaves it after each call (the real client, to s3rver), sampled.
    const watched = new Proxy(s3.client, {
      get(target, prop, receiver) {
        if (prop !== 'send') return Reflect.get(target, prop, receiver);
        return async (command: unknown) => {
          const result = await target.send(command as never);
          if (command instanceof PutObjectCommand) {
            const input = command.input;
            mirror.set(input.Key!, { body: Buffer.from(input.Body as Uint8Array).toString('utf8'), status: input.Metadata?.[ERROR_STATUS_METADATA], cacheControl: input.CacheControl });
            sample(`uploaded ${input.Key}`);
          } else if (command instanceof DeleteObjectsCommand) {
            for (const o of command.input.Delete!.Objects!) mirror.delete(o.Key!);
            sample(`deleted ${command.input.Delete!.Objects!.map((o) => o.Key).join(', ')}`);
          }
          return result;
        };
      },
    }) as S3Client;
    const invalidator = cloudFrontInvalidator(cdn.client);
    const spy: Invalidator = { invalidate: async (id, paths) => { const r = await invalidator.invalidate(id, paths); sample(`invalidated ${paths.length} paths`); return r; }, completed: invalidator.completed };
    const wait = async (ms: number) => { for (let s = 0; s < ms / 1000; s++) sample('settling'); };
    const run = async (b: Build, seconds: number) => {
      await writeBuild(dir, b);
      const out: string[] = [];
      const err: string[] = [];
      const exit = await deployCommand({ dir, bucket, distributionId: 'EDIST', kvsArn: KVS_ARN, dryRun: false, force: false, settle: String(seconds) }, { out: (s) => out.push(s), err: (s) => err.push(s) }, {}, { s3: watched, cdn: spy, kvs: kvs.client, wait });
      expect(err).toEqual([]);
      expect(exit).toBe(0);
      return out;
    };

    await run(BEFORE, 0);
    // Long before the deploy: every edge has the first build's store.
    versions.splice(0, versions.length, { t: -1000, entries: new Map(kvs.entries) });
    samples.length = 0;
    now = 0;
    sample('before the deploy');
    const out = await run(AFTER, settle);
    for (let s = 0; s < 30; s++) sample('after the deploy');
    const final = versions.at(-1)!;

    // Each version of the store the edges could see, every URL through the request function in njs, once.
    const routed = await Promise.all(versions.map((v) => runInNjs<CfRequest | CfResponse>(code.request, URLS.map((uri) => ({ request: { method: 'GET', uri, querystring: {}, headers: {}, cookies: {} } })), { entries: v.entries })));
    const statuses = ['404', undefined];
    const responded = await runInNjs<CfResponse>(code.response, statuses.map((s) => ({ request: { uri: '/', headers: {} }, response: { statusCode: 200, headers: s ? { [ERROR_STATUS_HEADER]: { value: s } } : {} } })), { entries: [] });
    const answer = (version: number, url: number, bucketNow: Map<string, StoredObject>): Answer => {
      const out = routed[version]![url]!;
      expect(out.error).toBeUndefined();
      if ('statusCode' in out.result) return { status: out.result.statusCode, location: out.result.headers?.location?.value, keep: maxAge(out.result.headers?.['cache-control']?.value) };
      const object = bucketNow.get(out.result.uri.slice(1));
      if (!object) return { status: 404, body: bucketNow.get('404.html')?.body ?? '404', keep: ERROR_TTL };
      const status = responded[statuses.indexOf(object.status)]!.result.statusCode;
      return { status, body: object.body, keep: maxAge(object.cacheControl) };
    };
    const seen = (lag: number, t: number) => {
      let v = 0;
      for (let i = 0; i < versions.length; i++) if (versions[i]!.t <= t - lag) v = i;
      return v;
    };
    const finalBucket = samples.at(-1)!.bucket;
    const problems: string[] = [];
    const log: string[] = [];
    const last = new Map<string, string>();
    for (const s of samples) {
      for (const lag of LAGS) {
        const version = seen(lag, s.t);
        for (const [i, url] of URLS.entries()) {
          const a = answer(version, i, s.bucket);
          const settled = answer(versions.indexOf(final), i, finalBucket);
          const line = describeAnswer(a);
          const where = `t=${s.t}s (${s.what}) edge +${lag}s ${url}`;
          if (last.get(`${lag} ${url}`) !== line) log.push(`${where}: ${line}`);
          last.set(`${lag} ${url}`, line);
          if (LIVE.includes(url)) {
            const file = url === '/' ? 'index.html' : `${url.slice(1)}.html`;
            const versionsOfIt = [BEFORE.files[file], AFTER.files[file]];
            if (a.status !== 200 || !versionsOfIt.includes(a.body)) problems.push(`${where}: a live page answered ${line}`);
          }
          if (a.keep > 0 && line.replace(/ \(kept \d+ s\)$/, '') !== describeAnswer(settled).replace(/ \(kept \d+ s\)$/, '')) {
            problems.push(`${where}: ${line}, kept for ${a.keep} s, where the URL answers ${describeAnswer(settled)} once the deploy is over`);
          }
        }
      }
    }
    // Once every edge has caught up, each URL answers as the new build says.
    expect(Object.fromEntries(URLS.map((url, i) => [url, describeAnswer(answer(seen(Math.max(...LAGS), now), i, finalBucket))])))
      .toEqual(Object.fromEntries(URLS.map((url, i) => [url, describeAnswer(answer(versions.indexOf(final), i, finalBucket))])));
    return { problems, log, out };
  } finally {
    await kvs.close();
  }
}

describe('a deploy while the edges catch up with the store', () => {
  test('with the settle wait, no live page answers anything but itself, and nothing wrong is kept', async () => {
    const { problems, log, out } = await deployThroughLaggingEdges('settled', SETTLE);
    // The answers as they changed on each edge, once the deploy began.
    console.log(log.filter((l) => !l.startsWith('t=1s ')).join('\n'));
    expect(problems).toEqual([]);
    expect(out.join('\n')).toContain(`waiting ${SETTLE} s for CloudFront's edges to see the routing keys go before deleting 2 stale objects (--settle)`);
    // What a reader sees on a lagging edge meanwhile: the added page is the fallback, not kept, until the edge has its key.
    expect(log.some((l) => /edge \+25s \/blog\/added: 302 → \/blog$/.test(l))).toBe(true);
    expect(log.some((l) => /edge \+25s \/blog\/added: 200 "Added"$/.test(l))).toBe(true);
  }, 120_000);

  test('without it, an edge that has not yet seen the keys go sends readers to deleted objects: the 404 page, kept a minute', async () => {
    const { problems } = await deployThroughLaggingEdges('hasty', 0);
    console.log(`${problems.length} wrong answers without the wait, the first:\n${problems.slice(0, 3).join('\n')}`);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.some((p) => /\/blog\/removed: 404 "Page not found" \(kept 60 s\), kept for 60 s/.test(p))).toBe(true);
    expect(problems.some((p) => /\/blog\/moved: 404 "Page not found" \(kept 60 s\), kept for 60 s/.test(p))).toBe(true);
  }, 120_000);
});
