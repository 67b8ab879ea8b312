// `site deploy` of a generated site of `articles` articles, as an owner runs it (deployCommand), against
// s3rver and the stand-in of the CloudFront KeyValueStore API through the real clients: a first
// deploy; then one article added and one removed; then a deploy that fails part-way and, run
// again, finishes. Throughout, no key points at an object not yet there, no object goes while a
// key still points at it, and CloudFront is told after the last key and object went.
// `npm test` runs every step over a site of a few dozen articles, more keys than one UpdateKeys call
// takes (tests/deploy/deploy-at-scale.test.ts); `npm run test:scale` over 1,000
// (scale/deploy-at-scale.test.ts).
import { readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
// @ts-expect-error: a plain .mjs script of the bench, without types
import { writeArticles } from '../../scripts/bench-articles.mjs';
import { buildSite } from '../../src/pipeline/build.ts';
import { cloudFrontInvalidator, type Invalidator } from '../../src/deploy/cdn.ts';
import { deployCommand } from '../../src/deploy/command.ts';
import { JOURNAL_KEY, UPDATE_LIMITS } from '../../src/deploy/store.ts';
import { readLocalFiles } from '../../src/deploy/local-files.ts';
import { pageFile } from '../../src/url-resolution/rule.ts';
import { parseStoreDataFile, STORE_DATA_FILE, type Entry } from '../../src/url-resolution/store-data.ts';
import { scratchProject } from '../scratch-project.ts';
import { startFakeCloudFront, type FakeCloudFront } from './fake-cloudfront.ts';
import { KVS_ARN, startLocalKvs, type LocalKvs } from './local-kvs.ts';
import { startLocalS3, type LocalS3 } from './local-s3.ts';
import { deployDirFor } from '../../src/output/layout.ts';

let dir: string;
let s3: LocalS3;
let kvs: LocalKvs;
let cdn: FakeCloudFront;
/** What happened, in order: 'put', 'delete' (keys), 'invalidate', as the services saw it. */
let events: string[] = [];

/** Every step of a deploy over a site of `articles` generated articles, as tests of their own. */
export function deploySteps(articles: number): void {
describe(`site deploy of ${articles} articles`, () => {
  async function build(): Promise<Entry[]> {
    await buildSite({ root: dir, outDir: path.join(dir, 'dist'), budgets: false, overrides: { search: false } });
    return parseStoreDataFile(await readFile(path.join(deployDirFor(path.join(dir, 'dist')), STORE_DATA_FILE), 'utf8'))!;
  }

  async function bucketKeys(): Promise<Set<string>> {
    const keys = new Set<string>();
    let token: string | undefined;
    do {
      const page = await s3.client.send(new ListObjectsV2Command({ Bucket: 'site', ContinuationToken: token }));
      for (const item of page.Contents ?? []) keys.add(item.Key!);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  const exists = (key: string) => s3.client.send(new HeadObjectCommand({ Bucket: 'site', Key: key })).then(() => true, () => false);

  async function run(): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const invalidator = cloudFrontInvalidator(cdn.client);
    const cdnSpy: Invalidator = { invalidate: async (id, paths) => { events.push('invalidate'); return invalidator.invalidate(id, paths); }, completed: invalidator.completed };
    const code = await deployCommand(
      { dir: path.join(dir, 'dist'), bucket: 'site', distributionId: 'EDIST', kvsArn: KVS_ARN, dryRun: false, force: false, settle: '0' },
      { out: (s) => out.push(s), err: (s) => err.push(s) }, {}, { s3: s3.client, cdn: cdnSpy, kvs: kvs.client },
    );
    return { code, out, err };
  }

  /** Whether an invalidation of `paths` reaches `path` (past 50 paths the deploy sends '/*'). */
  const covers = (paths: readonly string[], path: string) => paths.includes('/*') || paths.includes(path);
  const updates = () => kvs.calls.filter((c) => c.op === 'UpdateKeys');
  const storeAsRecord = () => Object.fromEntries([...kvs.entries].filter(([k]) => k !== JOURNAL_KEY));
  const asRecord = (entries: Entry[]) => Object.fromEntries(entries.map((e) => [e.key, e.value]));

  beforeAll(async () => {
    dir = await scratchProject('site-deploy-scale-', { seeded: true });
    await writeArticles(path.join(dir, 'content/blog'), articles);
    s3 = await startLocalS3(['site']);
    kvs = await startLocalKvs();
    cdn = await startFakeCloudFront();
    // Each batch of keys, as the store receives it: a page's object must be there before its key, and still there when its key goes.
    kvs.beforeUpdate = async (puts, deletes) => {
      if (puts.some((p) => p.Key !== JOURNAL_KEY)) events.push('put');
      if (deletes.some((d) => d.Key !== JOURNAL_KEY)) events.push('delete');
      // Every key of the batch looked up at once (a batch is up to 50): one after another, these
      // look-ups were 3 of the first deploy's 13 s.
      await Promise.all([
        ...puts.filter((p) => p.Value === 'page').map(async (p) => expect(await exists(pageFile(p.Key).slice(1)), `${p.Key} put before its object`).toBe(true)),
        ...deletes.filter((d) => d.Key !== JOURNAL_KEY && kvs.entries.get(d.Key) === 'page').map(async (d) => expect(await exists(pageFile(d.Key).slice(1)), `${d.Key}'s object gone before its key`).toBe(true)),
      ]);
    };
  }, 300_000);
  afterAll(async () => {
    await s3?.close();
    await kvs?.close();
    await cdn?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test(`a first deploy of ${articles} articles: every object up, every routing key in, in batches within the per-call limits`, async () => {
    const entries = await build();
    expect(entries.filter((e) => e.key.startsWith('/blog/') && !e.key.startsWith('/blog/page/') && !e.key.startsWith('/blog/category/')).length).toBeGreaterThanOrEqual(articles);
    events = [];
    const { code, out, err } = await run();
    expect(err).toEqual([]);
    expect(code).toBe(0);

    expect(storeAsRecord()).toEqual(asRecord(entries));
    expect(kvs.entries.has(JOURNAL_KEY)).toBe(false);
    const files = await readLocalFiles(path.join(dir, 'dist'));
    expect(await bucketKeys()).toEqual(new Set(files.map((f) => f.key)));
    // The journal, the keys in batches of 50, the journal out.
    const calls = updates();
    expect(calls.every((c) => c.status === 200 && c.puts! + c.deletes! <= UPDATE_LIMITS.keys)).toBe(true);
    expect(calls).toHaveLength(1 + Math.ceil(entries.length / UPDATE_LIMITS.keys) + 1);
    expect(out.join('\n')).toContain(`routing store: ${entries.length} keys added, 0 changed, 0 removed, in ${calls.length} UpdateKeys calls`);
    expect(events).toEqual([...Array(Math.ceil(entries.length / UPDATE_LIMITS.keys)).fill('put'), 'invalidate']);
  }, 600_000);

  test('one article added and one removed: the new key and object in, the old ones out, in that order, the invalidation after the last deletion', async () => {
    const before = asRecord(parseStoreDataFile(await readFile(path.join(deployDirFor(path.join(dir, 'dist')), STORE_DATA_FILE), 'utf8'))!);
    const blog = path.join(dir, 'content/blog');
    const gone = (await readdir(blog)).filter((f) => f.endsWith(`-${String(Math.ceil(articles / 2)).padStart(5, '0')}.md`))[0]!;
    await unlink(path.join(blog, gone));
    await writeFile(path.join(blog, 'a-new-article-on-data-owners.md'), (await readFile(path.join(blog, 'what-is-data.md'), 'utf8')).replace(/^title: .*$/m, 'title: "A New Article on Data Owners"'));
    const entries = await build();
    const after = asRecord(entries);
    const added = Object.keys(after).filter((k) => !(k in before));
    const removed = Object.keys(before).filter((k) => !(k in after));
    expect(added).toEqual(['/blog/a-new-article-on-data-owners']);
    expect(removed).toEqual([`/blog/${gone.slice(0, -3)}`]);

    kvs.calls.length = 0;
    events = [];
    const { code, err, out } = await run();
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(storeAsRecord()).toEqual(after);
    const keys = await bucketKeys();
    expect(keys.has('blog/a-new-article-on-data-owners.html')).toBe(true);
    expect(keys.has(`blog/${gone.slice(0, -3)}.html`)).toBe(false);
    // The journal noted, the new key in, the old key out, the journal out once all is done.
    expect(updates().map((c) => [c.puts, c.deletes])).toEqual([[1, 0], [1, 0], [0, 1], [0, 1]]);
    expect(events).toEqual(['put', 'delete', 'invalidate']);
    const invalidated = cdn.requests.at(-1)!.paths;
    for (const p of ['/blog/a-new-article-on-data-owners', `/blog/${gone.slice(0, -3)}`]) expect(covers(invalidated, p), p).toBe(true);
    expect(out.join('\n')).toContain('routing store: 1 key added, 0 changed, 1 removed, in 4 UpdateKeys calls');
  }, 600_000);

  test('a deploy that fails part-way breaks no URL, and run again finishes the job, the paths of the first run invalidated too', async () => {
    const blog = path.join(dir, 'content/blog');
    const gone = (await readdir(blog)).filter((f) => f.endsWith(`-${String(Math.ceil(articles * 2 / 5)).padStart(5, '0')}.md`))[0]!;
    await unlink(path.join(blog, gone));
    await writeFile(path.join(blog, 'another-new-article.md'), (await readFile(path.join(blog, 'what-is-data.md'), 'utf8')).replace(/^title: .*$/m, 'title: "Another New Article"'));
    const entries = await build();

    // The store fails from the second UpdateKeys on: the journal is noted, the objects are up, no key goes in.
    kvs.failFrom(2);
    const failed = await run();
    expect(failed.code).toBe(1);
    expect(failed.err[0]).toMatch(/^site deploy failed: InternalServerException \(HTTP 500\)/);
    expect(await exists('blog/another-new-article.html')).toBe(true);
    expect(kvs.entries.has('/blog/another-new-article')).toBe(false);
    // Nothing that was live has gone: the removed article's key and object are both still there.
    expect(kvs.entries.get(`/blog/${gone.slice(0, -3)}`)).toBe('page');
    expect(await exists(`blog/${gone.slice(0, -3)}.html`)).toBe(true);
    const noted = JSON.parse(kvs.entries.get(JOURNAL_KEY)!) as string[];
    for (const p of ['/blog/another-new-article']) expect(covers(noted, p), p).toBe(true);

    kvs.heal();
    const invalidations = cdn.requests.length;
    const again = await run();
    expect(again.err).toEqual([]);
    expect(again.code).toBe(0);
    expect(storeAsRecord()).toEqual(asRecord(entries));
    expect(kvs.entries.has(JOURNAL_KEY)).toBe(false);
    expect(await exists(`blog/${gone.slice(0, -3)}.html`)).toBe(false);
    // Nothing left to upload, yet what the first run changed is invalidated.
    expect(again.out.join('\n')).toContain(': 0 to upload,');
    expect(cdn.requests).toHaveLength(invalidations + 1);
    expect(cdn.requests.at(-1)!.paths).toEqual(noted);
  }, 600_000);

  test('with another writer getting in first, the deploy lists the store again and plans again, then goes on', async () => {
    await writeFile(path.join(dir, 'content/blog/a-third-new-article.md'), (await readFile(path.join(dir, 'content/blog/what-is-data.md'), 'utf8')).replace(/^title: .*$/m, 'title: "A Third New Article"'));
    const entries = await build();
    kvs.calls.length = 0;
    kvs.interfere(2);
    const { code, err, out } = await run();
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(updates().map((c) => c.status)).toEqual([409, 409, 200, 200, 200]);
    // Each conflict is followed by a fresh listing before the next plan is sent.
    const ops = kvs.calls.map((c) => c.op);
    for (const i of ops.flatMap((op, j) => (op === 'UpdateKeys' && kvs.calls[j]!.status === 409 ? [j] : []))) expect(ops.slice(i + 1, i + 3)).toEqual(['DescribeKeyValueStore', 'ListKeys']);
    expect(out.filter((l) => l.includes('another writer changed the routing store'))).toHaveLength(2);
    expect(storeAsRecord()).toEqual(asRecord(entries));
  }, 600_000);
});
}
