// `site deploy` through a simulated CloudFront distribution (edge-simulator.ts), as the tests in
// tests/deploy/lagging-edges.test.ts and scale/interrupted-deploys.test.ts run it: four edges that
// see each change to the KeyValueStore 0, 4, 12 and 25 seconds late, each with its own cache of what
// it fetched from the bucket (s3rver, through the real client), kept for the cache policy's TTLs,
// and each reached by an invalidation 5, 30, 60 and 90 seconds after it is made. A deploy that adds
// a page, changes two, turns one into a redirect, removes one and replaces the stylesheet every page
// names runs through the real clients (the store's API stand-in, CloudFront's API faked), on a
// clock of the test's own. Every URL is asked at every edge at each step of the deploy (each
// upload, each store change, each deletion, the invalidation, each second of each wait) and then
// for the next 48 simulated hours. Wrong: an answer that is neither the old site's nor the new
// one's; an old answer after the deploy said it was done; a page whose stylesheet that edge does
// not have. A deploy may be killed before any one of its steps and run again: the second run's end
// is when the deploy said it was done.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteObjectsCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { UpdateKeysCommand, type CloudFrontKeyValueStoreClient } from '@aws-sdk/client-cloudfront-keyvaluestore';
import { afterAll, beforeAll, expect } from 'vitest';
import { deleteKeys, listRemote, putFile } from '../../src/deploy/bucket.ts';
import { cloudFrontInvalidator, type Invalidator } from '../../src/deploy/cdn.ts';
import { deployCommand } from '../../src/deploy/command.ts';
import type { Asker } from '../../src/deploy/verify.ts';
import { invalidationPaths } from '../../src/deploy/invalidation.ts';
import { readLocalFiles } from '../../src/deploy/local-files.ts';
import { planDeploy } from '../../src/deploy/plan.ts';
import { keyValueStore, planStore } from '../../src/deploy/store.ts';
import { deployDirFor } from '../../src/output/layout.ts';
import { isHashedAsset } from '../../src/url-resolution/cache-control.ts';
import { viewerRequestFunction, viewerResponseFunction } from '../../src/url-resolution/cloudfront-functions.ts';
import { ERROR_STATUS_HEADER, ERROR_STATUS_METADATA, errorStatuses, parseStoreDataFile, rulesIn, STORE_DATA_FILE, storeDataFile, type Entry } from '../../src/url-resolution/store-data.ts';
import { runInNjs, type CfRequest, type CfResponse } from '../../src/url-resolution/njs-runtime.ts';
import { describeAnswer, Edge, Invalidations, type Answer, type StoredObject } from './edge-simulator.ts';
import { startFakeCloudFront, type FakeCloudFront } from './fake-cloudfront.ts';
import { KVS_ARN, startLocalKvs, type LocalKvs } from './local-kvs.ts';
import { startLocalS3, type LocalS3 } from './local-s3.ts';
import { sealFolder } from './seal-folder.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** How late each edge sees a change to the store, and an invalidation, in seconds. */
const KVS_LAGS = [0, 4, 12, 25];
const INVALIDATION_LAGS = [5, 30, 60, 90];
/** The settle wait: longer than the slowest edge's store lag. */
export const SETTLE = 30;
export const HOUR = 3600;

const page = (title: string, css: string) => `<!doctype html><html lang="en-GB"><title>${title}</title><link rel="stylesheet" href="/${css}"><h1>${title}</h1></html>\n`;
const RULES = JSON.stringify({ notFound: '/404.html', fallbacks: [{ prefix: '/blog/', redirect: '/blog', status: 302 }] });
const OLD_CSS = 'assets/site-AAAAAAAA.css';
const NEW_CSS = 'assets/site-BBBBBBBB.css';

interface Build { files: Record<string, string>; entries: Entry[] }
const build = (css: string, pages: Record<string, string>, redirects: Record<string, string> = {}): Build => ({
  files: {
    '404.html': page('Page not found', css), 'robots.txt': 'User-agent: *\n', [css]: `/* ${css} */ body { margin: 0 }\n`,
    ...Object.fromEntries(Object.entries(pages).map(([url, title]) => [url === '/' ? 'index.html' : `${url.slice(1)}.html`, page(title, css)])),
  },
  entries: [{ key: 'rules', value: RULES }, ...Object.keys(pages).map((key) => ({ key, value: 'page' })), ...Object.entries(redirects).map(([key, value]) => ({ key, value }))],
});

const BEFORE = build(OLD_CSS, { '/': 'Home', '/about': 'About', '/blog': 'Insights', '/blog/kept': 'Kept', '/blog/changed': 'Changed, first draft', '/blog/moved': 'Moved', '/blog/removed': 'Removed' });
const AFTER = build(NEW_CSS, { '/': 'Home, restyled', '/about': 'About', '/blog': 'Insights, with a new article', '/blog/kept': 'Kept', '/blog/changed': 'Changed, second draft', '/blog/added': 'Added' }, { '/blog/moved': '301 /blog/kept' });
/** Asked of the request function; every one but the new stylesheet is asked by readers too (nobody asks for it before a page names it). */
const URLS = ['/', '/about', '/blog', '/blog/kept', '/blog/changed', '/blog/moved', '/blog/removed', '/blog/removed.html', '/blog/moved.html', '/blog/added', '/blog/never-was', '/404.html', '/about/', '/blog/kept.html', `/${OLD_CSS}`, `/${NEW_CSS}`, '/robots.txt'];

let s3: LocalS3;
let cdn: FakeCloudFront;
let work: string;
let code: { request: string; response: string };

/** Starts s3rver with `buckets` (one a deploy), CloudFront's API stand-in and the functions, for the file's tests; stops them after. */
export function edgeDeploys(buckets: readonly string[]): void {
  beforeAll(async () => {
    s3 = await startLocalS3([...buckets]);
    cdn = await startFakeCloudFront();
    work = await mkdtemp(path.join(tmpdir(), 'site-lagging-edges-'));
    code = { request: await viewerRequestFunction(ROOT), response: await viewerResponseFunction(ROOT) };
  });
  afterAll(async () => {
    await s3?.close();
    await cdn?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });
}

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

/** The same deploy as deploys made it before: objects up, keys in, the invalidation, keys out, the settle wait, every stale object deleted at once. */
async function deployInTheOldOrder(dir: string, bucket: string, client: S3Client, kvs: LocalKvs, cdnClient: Invalidator, wait: (ms: number) => Promise<void>): Promise<void> {
  const files = await readLocalFiles(dir);
  const plan = planDeploy(files, await listRemote(client, bucket, ''));
  const wanted = parseStoreDataFile(await readFile(path.join(deployDirFor(dir), STORE_DATA_FILE), 'utf8'))!;
  const store = keyValueStore(kvs.client, KVS_ARN);
  const held = await store.list();
  const statuses = errorStatuses(rulesIn(wanted)!);
  for (const { file } of plan.uploads) await putFile(client, bucket, '', file, statuses.get(file.key));
  await store.update({ puts: planStore(wanted, held).puts });
  await cdnClient.invalidate('EDIST', invalidationPaths([...plan.uploads.map((u) => u.file.key), ...plan.deletes]));
  await store.update({ deletes: planStore(wanted, held).deletes });
  if (plan.deletes.some((key) => key.endsWith('.html'))) await wait(SETTLE * 1000);
  await deleteKeys(client, bucket, '', plan.deletes);
}

interface Sample { t: number; what: string; bucket: Map<string, StoredObject> }

/** What a run through the edges gives: the wrong answers, each edge's answers as they changed, the deploy's output, and what it left. */
export interface EdgeRun {
  problems: string[];
  log: string[];
  out: string[];
  err: string[];
  exit: number;
  done: number;
  /** The steps of the deploy of AFTER (its first run, when it was killed), in order: 'upload <key>', 'delete <keys>', 'store <n> put, <m> removed', 'invalidate', 'wait for the invalidation', 'wait <s> s'. */
  steps: string[];
  /** The first run's output, when it was killed. */
  killed?: { exit: number; err: string[] };
  /** The keys the bucket holds at the end, and the store's entries. */
  bucketKeys: string[];
  store: Map<string, string>;
}

export interface EdgeRunOptions {
  /** One more edge that no invalidation ever reaches, which cached /blog/changed an hour before. */
  plant?: boolean;
  /** Kills the deploy of AFTER before the first step for which this is true (the step is not made); it is then run again, ten simulated minutes later. */
  killAt?: (step: string) => boolean;
}

/** The files and routing entries of the build deployed last. */
export const NEW_SITE = { files: Object.keys(AFTER.files).sort(), entries: new Map(AFTER.entries.map((e) => [e.key, e.value])) };

/** A deploy of AFTER over BEFORE (by `site deploy`, or in the old order), sampled at every edge: what went wrong, and what each edge answered as it changed. */
export async function deployThroughTheEdges(bucket: string, order: 'ordered' | 'old', { plant = false, killAt }: EdgeRunOptions = {}): Promise<EdgeRun> {
  const kvs: LocalKvs = await startLocalKvs();
  try {
    const dir = path.join(work, bucket, 'dist');
    const edges = KVS_LAGS.map((lag, i) => new Edge(lag, INVALIDATION_LAGS[i]!));
    const invalidations = new Invalidations(edges);
    let now = 0;
    const mirror = new Map<string, StoredObject>();
    /** The store after each change, from when it was made. */
    const versions: Array<{ t: number; entries: Map<string, string> }> = [];
    const samples: Sample[] = [];
    const sample = (what: string, step = 1) => { now += step; samples.push({ t: now, what, bucket: new Map(mirror) }); };
    /** The steps of the deploy of AFTER; `armed` while its first run may be killed. */
    const steps: string[] = [];
    let armed = false;
    /** Once killed, the run makes no more calls; those already sent (`inflight`) are answered. */
    let dead = false;
    let inflight = 0;
    const step = (what: string) => {
      if (dead) throw new Error('killed');
      if (!armed) return;
      steps.push(what);
      if (killAt?.(what)) {
        dead = true;
        throw new Error(`killed before ${what}`);
      }
    };
    const sent = async <T>(call: () => Promise<T>): Promise<T> => {
      inflight += 1;
      try { return await call(); } finally { inflight -= 1; }
    };
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
          if (command instanceof PutObjectCommand) step(`upload ${command.input.Key}`);
          if (command instanceof DeleteObjectsCommand) step(`delete ${command.input.Delete!.Objects!.map((o) => o.Key).join(', ')}`);
          const result = await sent(() => target.send(command as never));
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
    const store = new Proxy(kvs.client, {
      get(target, prop, receiver) {
        if (prop !== 'send') return Reflect.get(target, prop, receiver);
        return async (command: unknown) => {
          if (command instanceof UpdateKeysCommand) step(`store ${command.input.Puts?.length ?? 0} put, ${command.input.Deletes?.length ?? 0} removed`);
          return sent(() => target.send(command as never));
        };
      },
    }) as CloudFrontKeyValueStoreClient;
    const invalidator = cloudFrontInvalidator(cdn.client);
    /** The index in cdn.requests of the first invalidation in `invalidations`. */
    let first = cdn.requests.length;
    cdn.statusOf = (index) => (invalidations.complete(index - first, now) ? 'Completed' : 'InProgress');
    const spy: Invalidator = {
      invalidate: async (id, paths) => { step('invalidate'); const r = await sent(() => invalidator.invalidate(id, paths)); sample(`invalidated ${paths.join(' ')}`); invalidations.add([...paths], now); return r; },
      completed: async (id, inv, how) => { step('wait for the invalidation'); return invalidator.completed(id, inv, how); },
    };
    const wait = async (ms: number) => { step(`wait ${ms / 1000} s`); for (let s = 0; s < ms / 1000; s++) sample('waiting'); };
    // What \`site deploy\` asks once done: every edge, over the store as it is then; the answer of the
    // edge that differs from the others, if one does. `plant`: one more edge that no invalidation
    // ever reaches, which cached /blog/changed an hour before.
    const freshEdges = () => [...KVS_LAGS.map((lag, i) => new Edge(lag, INVALIDATION_LAGS[i]!)), ...(plant ? [new Edge(0, Number.POSITIVE_INFINITY)] : [])];
    let askedEdges = freshEdges();
    const asker: Asker = async (paths) => {
      const routedNow = await runInNjs<CfRequest | CfResponse>(code.request, paths.map((uri) => ({ request: { method: 'GET', uri, querystring: {}, headers: {}, cookies: {} } })), { entries: kvs.entries });
      return paths.map((_, i) => {
        const answers = askedEdges.map((edge) => edge.ask(now, routedNow[i]!, mirror, invalidations.list, (status) => (status ? Number(status) : 200)));
        const odd = answers.find((a) => describeAnswer(a) !== describeAnswer(answers[0]!)) ?? answers[0]!;
        return { status: odd.status, ...(odd.location ? { location: odd.location } : {}), ...(odd.body !== undefined ? { etag: `"${createHash('md5').update(odd.body).digest('hex')}"` } : {}) };
      });
    };
    const run = async (b: Build, how: 'ordered' | 'old') => {
      await writeBuild(dir, b);
      const out: string[] = [];
      const err: string[] = [];
      let exit = 0;
      if (how === 'old') await deployInTheOldOrder(dir, bucket, watched, kvs, spy, wait);
      else exit = await deployCommand({ dir, bucket, distributionId: 'EDIST', kvsArn: KVS_ARN, dryRun: false, force: false, settle: String(SETTLE) }, { out: (s) => out.push(s), err: (s) => err.push(s) }, {}, { s3: watched, cdn: spy, kvs: store, wait, verify: asker });
      return { out, err, exit };
    };

    const firstRun = await run(BEFORE, 'ordered');
    expect(firstRun.err).toEqual([]);
    // The clock starts again below: the edges asked after the first deploy start empty.
    askedEdges = freshEdges();
    // The planted edge caches the first build's /blog/changed an hour before the second deploy.
    if (plant) {
      const [routedThen] = await runInNjs<CfRequest | CfResponse>(code.request, [{ request: { method: 'GET', uri: '/blog/changed', querystring: {}, headers: {}, cookies: {} } }], { entries: kvs.entries });
      askedEdges.at(-1)!.ask(-HOUR, routedThen!, mirror, [], () => 200);
    }
    // Long before the deploy: every edge has the first build's store, and has cached its pages an hour ago.
    versions.splice(0, versions.length, { t: -1_000_000, entries: new Map(kvs.entries) });
    invalidations.list.length = 0;
    first = cdn.requests.length;
    samples.length = 0;
    now = -HOUR - 1;
    sample('an hour before the deploy');
    now = -1;
    sample('as the deploy begins');
    armed = true;
    let { out, err, exit } = await run(AFTER, order);
    armed = false;
    let killed: EdgeRun['killed'];
    if (killAt) {
      if (!dead) throw new Error(`the deploy ran its ${steps.length} steps without being killed`);
      // What the killed run had sent is answered before it is run again.
      while (inflight > 0) await new Promise((resolve) => setImmediate(resolve));
      dead = false;
      killed = { exit, err };
      for (let s = 0; s < 10; s++) sample('killed, not yet run again', 60);
      ({ out, err, exit } = await run(AFTER, order));
    }
    const done = now;
    for (let s = 0; s < 300; s++) sample('after the deploy');
    for (let s = 0; s < 48 * 4; s++) sample('after the deploy', 15 * 60);

    // Each version of the store the edges could see, every URL through the request function in njs, once.
    const routed = await Promise.all(versions.map((v) => runInNjs<CfRequest | CfResponse>(code.request, URLS.map((uri) => ({ request: { method: 'GET', uri, querystring: {}, headers: {}, cookies: {} } })), { entries: v.entries })));
    const statuses = ['404', undefined];
    const responded = await runInNjs<CfResponse>(code.response, statuses.map((s) => ({ request: { uri: '/', headers: {} }, response: { statusCode: 200, headers: s ? { [ERROR_STATUS_HEADER]: { value: s } } : {} } })), { entries: [] });
    const response = (status: string | undefined) => responded[statuses.indexOf(status)]!.result.statusCode;
    const seen = (lag: number, t: number) => {
      let v = 0;
      for (let i = 0; i < versions.length; i++) if (versions[i]!.t <= t - lag) v = i;
      return v;
    };
    // The old site's answers and the new one's, each as an edge with nothing cached gives it once all is settled.
    const settled = (version: number, bucketThen: Map<string, StoredObject>) => URLS.map((_, i) => describeAnswer(new Edge(0, 0).ask(0, routed[version]![i]!, bucketThen, [], response)));
    const old = settled(0, samples[0]!.bucket);
    const fresh = settled(versions.length - 1, samples.at(-1)!.bucket);

    // A URL that redirected (or will) may also answer with what it redirected to: a page's file name is the page.
    const acceptable = URLS.map((_, i) => new Set([old, fresh].flatMap((answers) => {
      const target = /^30\d → (\S+)$/.exec(answers[i]!)?.[1];
      return [answers[i]!, ...(target && URLS.includes(target) ? [old[URLS.indexOf(target)]!, fresh[URLS.indexOf(target)]!].filter((a) => a.startsWith('200')) : [])];
    })));
    const problems: string[] = [];
    const log: string[] = [];
    const last = new Map<string, string>();
    for (const s of samples) {
      for (const edge of edges) {
        const version = seen(edge.kvsLag, s.t);
        const ask = (i: number): Answer => edge.ask(s.t, routed[version]![i]!, s.bucket, invalidations.list, response);
        for (const [i, url] of URLS.entries()) {
          if (url === `/${NEW_CSS}`) continue;
          const a = ask(i);
          const line = describeAnswer(a);
          const where = `t=${s.t}s (${s.what}) edge +${edge.kvsLag}s/+${edge.invalidationLag}s ${url}`;
          if (last.get(`${edge.kvsLag} ${url}`) !== line) log.push(`${where}: ${line}`);
          last.set(`${edge.kvsLag} ${url}`, line);
          if (!acceptable[i]!.has(line)) problems.push(`${where}: ${line}, neither the old site's (${old[i]}) nor the new one's (${fresh[i]})`);
          // A superseded hashed asset may live on at its own name (a tab opened before may still load it); no live page names it.
          else if (s.t > done && line !== fresh[i] && !isHashedAsset(url.slice(1))) problems.push(`${where}: ${line}, the old site's answer after the deploy said it was done`);
          // The stylesheet a page names, which the reader's browser asks for next: an edge may have evicted
          // it whenever (CloudFront keeps nothing for sure), so the bucket must still hold it.
          const css = a.body && /href="\/([^"]+\.css)"/.exec(a.body)?.[1];
          if (css && !s.bucket.has(css)) problems.push(`${where}: the page names /${css}, which the bucket no longer holds: 404 from an edge that has evicted it`);
        }
      }
    }
    return { problems, log, out, err, exit, done, steps, ...(killed ? { killed } : {}), bucketKeys: [...mirror.keys()].sort(), store: new Map(kvs.entries) };
  } finally {
    await kvs.close();
  }
}

