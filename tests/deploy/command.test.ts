// `site deploy` as a person runs it: settings from flags or the environment, what it prints, and
// its exit codes.
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { main } from '../../src/cli.ts';
import { cloudFrontInvalidator } from '../../src/deploy/cdn.ts';
import { deployCommand, resolveDeploySettings, type DeployFlags } from '../../src/deploy/command.ts';
import { deploy } from '../../src/deploy/deploy.ts';
import { keyValueStore } from '../../src/deploy/store.ts';
import { STORE_DATA_FILE, storeDataFile } from '../../src/url-resolution/store-data.ts';
import { startFakeCloudFront, type FakeCloudFront } from './fake-cloudfront.ts';
import { KVS_ARN, startLocalKvs, type LocalKvs } from './local-kvs.ts';
import { sealFolder } from './seal-folder.ts';
import { startLocalS3, type LocalS3 } from './local-s3.ts';
import { deployDirFor } from '../../src/output/layout.ts';
import { answer } from '../../src/url-resolution/rule.ts';

let s3: LocalS3;
let cdn: FakeCloudFront;
let kvs: LocalKvs;
let work: string;
let dist: string;

beforeAll(async () => {
  s3 = await startLocalS3(['site', 'previews']);
  cdn = await startFakeCloudFront();
  kvs = await startLocalKvs();
  work = await mkdtemp(path.join(tmpdir(), 'site-deploy-cli-'));
  dist = path.join(work, 'dist');
  // The routing entries site build writes beside dist/.
  await mkdir(path.dirname(path.join(deployDirFor(dist), STORE_DATA_FILE)), { recursive: true });
  await writeFile(path.join(deployDirFor(dist), STORE_DATA_FILE), storeDataFile([{ key: '/', value: 'page' }, { key: '/about', value: 'page' }, { key: 'rules', value: '{"notFound":"/404.html","fallbacks":[]}' }]));
  const files: Record<string, string> = {
    'index.html': '<!doctype html><title>Home</title>',
    '404.html': '<!doctype html><title>Not found</title>',
    'about.html': '<!doctype html><title>About</title>',
    'assets/site-7NOAKD3I.css': 'body{}',
  };
  for (const [key, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dist, key)), { recursive: true });
    await writeFile(path.join(dist, key), body);
  }
  await sealFolder(dist);
});
afterAll(async () => {
  await s3.close();
  await cdn.close();
  await kvs.close();
  await rm(work, { recursive: true, force: true });
});

const flags = (extra: Partial<DeployFlags> = {}): DeployFlags => ({ dir: dist, kvsArn: KVS_ARN, dryRun: false, force: false, settle: '0', ...extra });
const capture = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) }, out, err };
};

describe('deploy settings', () => {
  test('flags win over the environment, which wins over the defaults', () => {
    const env = { SITE_BUCKET: 'env-bucket', SITE_DISTRIBUTION_ID: 'EENV', SITE_REGION: 'eu-west-1', SITE_DEPLOY_PREFIX: 'staging' };
    expect(resolveDeploySettings(flags({ bucket: 'flag-bucket', region: 'us-east-2' }), env)).toMatchObject({
      bucket: 'flag-bucket', distributionId: 'EENV', region: 'us-east-2', prefix: 'staging/',
    });
    expect(resolveDeploySettings(flags({ bucket: 'b' }), { AWS_REGION: 'eu-central-1' })).toMatchObject({ region: 'eu-central-1', prefix: '' });
    expect(resolveDeploySettings(flags({ bucket: 'b' }), {})).toMatchObject({ region: 'eu-west-2' });
    expect(resolveDeploySettings(flags({ bucket: 'b', kvsArn: undefined }), { SITE_KVS_ARN: KVS_ARN })).toMatchObject({ kvsArn: KVS_ARN });
    // The wait between removing routing keys and deleting objects: a minute unless told otherwise.
    expect(resolveDeploySettings(flags({ bucket: 'b', settle: undefined }), {})).toMatchObject({ settle: 60 });
    expect(resolveDeploySettings(flags({ bucket: 'b', settle: undefined }), { SITE_DEPLOY_SETTLE: '15' })).toMatchObject({ settle: 15 });
    expect(resolveDeploySettings(flags({ bucket: 'b', settle: 'soon' }), {})).toBe('--settle soon is not a number of seconds from 0 to 3600');
    // What readers get is asked of --verify-url, or SITE_URL; --no-verify turns it off.
    expect(resolveDeploySettings(flags({ bucket: 'b' }), { SITE_URL: 'https://www.example.co.uk' })).toMatchObject({ verify: { url: 'https://www.example.co.uk' } });
    expect(resolveDeploySettings(flags({ bucket: 'b', verifyUrl: 'https://d111.cloudfront.net' }), { SITE_URL: 'https://www.example.co.uk' })).toMatchObject({ verify: { url: 'https://d111.cloudfront.net' } });
    expect(resolveDeploySettings(flags({ bucket: 'b', verify: false }), { SITE_URL: 'https://www.example.co.uk' })).toMatchObject({ verify: false });
  });

  test('without the store, or with something else for its ARN, it is a usage error (exit 2) that says where the ARN is', async () => {
    const { io, err } = capture();
    expect(await deployCommand(flags({ bucket: 'site', kvsArn: undefined }), io, {})).toBe(2);
    expect(await deployCommand(flags({ bucket: 'site', kvsArn: 'arn:aws:s3:::site' }), io, {})).toBe(2);
    expect(err).toEqual([
      'site deploy: no key value store: pass --kvs-arn <arn> or set SITE_KVS_ARN (the KeyValueStoreArn output of the Site stack), which routes the pages',
      'site deploy: --kvs-arn arn:aws:s3:::site is not a CloudFront KeyValueStore ARN (arn:aws:cloudfront::<account>:key-value-store/<id>)',
    ]);
  });

  test('without a bucket it is a usage error (exit 2) that says how to give one', async () => {
    vi.stubEnv('SITE_BUCKET', '');
    try {
      const { io, err } = capture();
      expect(await main(['node', 'site', 'deploy', '--dir', dist], io)).toBe(2);
      expect(err.join('\n')).toMatch(/--bucket <name> or set SITE_BUCKET/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('deployCommand output', () => {
  const clients = () => ({ s3: s3.client, cdn: cloudFrontInvalidator(cdn.client), kvs: kvs.client });

  test('a dry run lists each planned upload with its headers, each key it would put and the paths it would invalidate', async () => {
    const { io, out } = capture();
    expect(await deployCommand(flags({ bucket: 'site', distributionId: 'EDIST', dryRun: true }), io, {}, clients())).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/^Dry run, nothing will be changed: .* → s3:\/\/site\/ \(eu-west-2\)/);
    expect(text).toMatch(/4 files in the build: 4 to upload \(4 new, .*\), 0 unchanged, 0 stale objects to delete/);
    expect(text).toContain('would upload  new      assets/site-7NOAKD3I.css  (6 B, text/css; charset=utf-8, public, max-age=31536000, immutable)');
    expect(text).toContain('would upload  new      about.html');
    expect(text).toContain('would invalidate  / /404.html /about /about.html /index.html');
    expect(text).toContain('3 routing keys in the build: 3 to add, 0 to change, 0 unchanged, 0 to remove');
    expect(text).toContain('would put key  /about  → page');
    expect(cdn.requests).toHaveLength(0);
    expect(kvs.entries.size).toBe(0);
  });

  test('a real run shows progress, the invalidation, and then finds nothing left to do', async () => {
    const first = capture();
    expect(await deployCommand(flags({ bucket: 'site', distributionId: 'EDIST' }), first.io, {}, clients())).toBe(0);
    const text = first.out.join('\n');
    expect(text).toContain('uploaded 4/4 files');
    expect(text).toMatch(/invalidation I1FAKE on EDIST: /);
    expect(text).toContain('routing store: 3 keys added, 0 changed, 0 removed, in 3 UpdateKeys calls (one noting the paths to invalidate until CloudFront has them)');
    expect(text).toContain('Deployed.');
    expect([...kvs.entries.keys()]).toEqual(['/', '/about', 'rules']);

    const second = capture();
    expect(await deployCommand(flags({ bucket: 'site', distributionId: 'EDIST' }), second.io, {}, clients())).toBe(0);
    expect(second.out.join('\n')).toContain('Already up to date.');
    expect(second.out.join('\n')).toContain('no invalidation');
  });

  test('without --verify-url or SITE_URL, readers are asked at the distribution\'s own address, read with GetDistribution', async () => {
    cdn.distributions.set('EDIST', 'd111111abcdef8.cloudfront.net');
    const asked: string[] = [];
    // The site at that address answers every URL with a 503: the check must name them.
    const askerFor = (base: string) => async (paths: readonly string[]) => { asked.push(...paths.map((p) => new URL(p, base).href)); return paths.map(() => ({ status: 503 })); };
    const { io, out, err } = capture();
    expect(await deployCommand(flags({ bucket: 'site', distributionId: 'EDIST' }), io, {}, { ...clients(), askerFor })).toBe(1);
    expect(out).toContain("  readers will be asked at https://d111111abcdef8.cloudfront.net, distribution EDIST's address (--verify-url to ask elsewhere)");
    expect(asked).toEqual(['https://d111111abcdef8.cloudfront.net/', 'https://d111111abcdef8.cloudfront.net/about']);
    expect(err[0]).toMatch(/^site deploy failed: readers do not get what the build holds, 0 s after the deploy's last step:\n  \/ answered 503, where the build expects 200 \(ETag [0-9a-f]{32}\)\n  \/about answered 503/);

    // A distribution CloudFront does not know: the deploy goes on and says, in one line, why nothing was checked.
    const unknown = capture();
    expect(await deployCommand(flags({ bucket: 'site', distributionId: 'ENONE' }), unknown.io, {}, { ...clients(), askerFor })).toBe(0);
    expect(unknown.out).toContain("  what readers get was not checked: distribution ENONE's address could not be read (NoSuchDistribution (HTTP 404): The specified distribution does not exist.); pass --verify-url (--no-verify to say so)");
    cdn.distributions.delete('EDIST');
  });

  test('--keep-stale on the command line deletes nothing and says how many stale objects it kept', async () => {
    await s3.client.send(new PutObjectCommand({ Bucket: 'site', Key: 'about/index.html', Body: 'the old layout' }));
    vi.stubEnv('SITE_S3_ENDPOINT', s3.endpoint);
    vi.stubEnv('SITE_KVS_ENDPOINT', kvs.endpoint);
    vi.stubEnv('SITE_KVS_ARN', KVS_ARN);
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'S3RVER');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'S3RVER');
    try {
      const kept = capture();
      expect(await main(['node', 'site', 'deploy', '--dir', dist, '--bucket', 'site', '--dry-run', '--keep-stale'], kept.io)).toBe(0);
      expect(kept.out.join('\n')).toMatch(/, 4 unchanged, 1 stale object kept \(--keep-stale\)$/m);
      expect(kept.out.join('\n')).not.toContain('would delete');
      const plain = capture();
      expect(await main(['node', 'site', 'deploy', '--dir', dist, '--bucket', 'site', '--dry-run'], plain.io)).toBe(0);
      expect(plain.out.join('\n')).toContain('would delete  about/index.html');
    } finally {
      vi.unstubAllEnvs();
      await s3.client.send(new DeleteObjectCommand({ Bucket: 'site', Key: 'about/index.html' }));
    }
  });

  test('a build of site serve is refused in one line with exit 1, before S3 is asked', async () => {
    const served = await mkdtemp(path.join(tmpdir(), 'site-deploy-serve-'));
    try {
      const page = '<!doctype html><script type="module" src="/__site/live-reload.js"></script><title>Home</title>';
      for (const key of ['index.html', '404.html']) await writeFile(path.join(served, key), page);
      await sealFolder(served);
      const { io, out, err } = capture();
      expect(await deployCommand(flags({ dir: served, bucket: 'no-such-bucket' }), io, {}, clients())).toBe(1);
      expect(err).toEqual([`site deploy failed: 404.html and 1 other page in ${served} carry the development markup of \`site serve\` (its live-reload script): deploy the output of \`site build\` instead`]);
      expect(out).toEqual([]);
    } finally {
      await rm(served, { recursive: true, force: true });
    }
  });

  test('routing entries from another build (a page whose file is not in the folder) are refused before anything changes', async () => {
    const file = path.join(deployDirFor(dist), STORE_DATA_FILE);
    const good = await readFile(file, 'utf8');
    await writeFile(file, storeDataFile([{ key: '/', value: 'page' }, { key: '/careers', value: 'page' }]));
    try {
      const { io, err } = capture();
      const before = kvs.calls.length;
      expect(await deployCommand(flags({ bucket: 'site' }), io, {}, clients())).toBe(1);
      expect(err).toEqual([`site deploy failed: ${file} names 1 page(s) whose file is not in ${dist} (/careers): it is from another build; run \`site build\` again`]);
      expect(kvs.calls.slice(before).filter((c) => c.op === 'UpdateKeys')).toEqual([]);
    } finally {
      await writeFile(file, good);
    }
  });

  test('a store whose old keys and the build\'s new ones would not fit it together is refused in one line before any write', async () => {
    // Old keys near the store's 5 MB: the deploy puts the build's keys before it takes these out.
    const full = await startLocalKvs();
    try {
      for (let i = 0; i < 5155; i++) full.entries.set(`/old/${String(i).padStart(5, '0')}`, 'x'.repeat(1007));
      const { io, err } = capture();
      const listed = async () => (await s3.client.send(new ListObjectsV2Command({ Bucket: 'site' }))).Contents?.map((o) => `${o.Key} ${o.ETag}`) ?? [];
      const before = await listed();
      expect(await deployCommand(flags({ bucket: 'site' }), io, {}, { ...clients(), kvs: full.client })).toBe(1);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(/^site deploy failed: the routing entries come to \d+ bytes, but a deploy over the keys the store holds now holds the old keys and the new together until it takes the old ones out: \d+ bytes, and a CloudFront KeyValueStore holds at most 5242880;/);
      expect(full.calls.filter((c) => c.op === 'UpdateKeys')).toEqual([]);
      expect(await listed()).toEqual(before);
    } finally {
      await full.close();
    }
  });

  test('an S3 failure is reported in one line with exit 1', async () => {
    const { io, err } = capture();
    expect(await deployCommand(flags({ bucket: 'no-such-bucket' }), io, {}, clients())).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^site deploy failed: NoSuchBucket \(HTTP 404\)/);
  });
});

describe('another writer changing the store during a deploy', () => {
  test('the deploy lists the store again and plans again from what it holds, never sending the plan made before', async () => {
    // The store holds all but '/': the deploy has a key to put.
    kvs.entries.clear();
    kvs.entries.set('/about', 'page');
    kvs.entries.set('rules', '{"notFound":"/404.html","fallbacks":[]}');
    const lines: string[] = [];
    const result = await deploy({
      dir: dist, bucket: 'site', s3: s3.client, store: keyValueStore(kvs.client, KVS_ARN), settle: 0,
      // Once the deploy has listed the store and planned: another writer removes '/about', adds a key of its own, and moves the ETag on.
      onPlan: (_plan, _paths, store) => {
        lines.push(`planned: put ${store!.puts.map((e) => e.key).join(' ')}; remove ${store!.deletes.join(' ') || 'nothing'}`);
        kvs.entries.delete('/about');
        kvs.entries.set('/theirs', 'page');
        kvs.interfere(1);
      },
      onConflict: (attempt) => lines.push(`conflict ${attempt}: listed again`),
    });
    expect(lines).toEqual(['planned: put /; remove nothing', 'conflict 1: listed again']);
    // Planned again: '/about' put back and the other writer's key removed, which the first plan knew nothing of.
    expect(Object.fromEntries(kvs.entries)).toEqual({ '/': 'page', '/about': 'page', rules: '{"notFound":"/404.html","fallbacks":[]}' });
    const updates = kvs.calls.filter((c) => c.op === 'UpdateKeys').slice(-3);
    expect(updates).toEqual([{ op: 'UpdateKeys', status: 409, puts: 1, deletes: 0 }, { op: 'UpdateKeys', status: 200, puts: 2, deletes: 0 }, { op: 'UpdateKeys', status: 200, puts: 0, deletes: 1 }]);
    expect(result.store!.calls).toEqual({ journal: 0, puts: 2, deletes: 1 });
  });

  test('a conflict that does not end stops the deploy with the service\'s error after five new plans', async () => {
    kvs.entries.delete('/');
    const { io, err, out } = capture();
    kvs.interfere(6);
    expect(await deployCommand(flags({ bucket: 'site' }), io, {}, { s3: s3.client, cdn: cloudFrontInvalidator(cdn.client), kvs: kvs.client })).toBe(1);
    expect(out.filter((l) => l.includes('another writer changed the routing store'))).toHaveLength(5);
    expect(err[0]).toMatch(/^site deploy failed: ConflictException \(HTTP 409\)/);
    kvs.interfere(0);
  });
});

describe('the settle wait', () => {
  test('before a page\'s object is deleted it waits --settle seconds and says so; old assets alone need no wait', async () => {
    const clients = (waits: number[]) => ({ s3: s3.client, cdn: cloudFrontInvalidator(cdn.client), kvs: kvs.client, wait: async (ms: number) => { waits.push(ms); } });
    // A page's object whose key is already gone (a deploy that stopped before deleting it).
    await s3.client.send(new PutObjectCommand({ Bucket: 'site', Key: 'gone.html', Body: '<!doctype html><title>Gone</title>' }));
    const page = capture();
    const waits: number[] = [];
    expect(await deployCommand(flags({ bucket: 'site', settle: '45' }), page.io, {}, clients(waits))).toBe(0);
    expect(waits).toEqual([45_000]);
    expect(page.out).toContain('  waiting 45 s for CloudFront\'s edges to see the routing keys go before deleting 1 stale object (--settle)');

    await s3.client.send(new PutObjectCommand({ Bucket: 'site', Key: 'assets/old-ABCDEFGH.css', Body: 'body{}' }));
    const asset = capture();
    const none: number[] = [];
    expect(await deployCommand(flags({ bucket: 'site', settle: '45' }), asset.io, {}, clients(none))).toBe(0);
    expect(none).toEqual([]);
    expect(asset.out.join('\n')).not.toContain('waiting');
    expect(asset.out.join('\n')).toContain('deleted 1 stale object');
  });
});

describe("a pull request's preview: --preview <n> and --remove-preview <n>", () => {
  let previews: LocalKvs;
  let other: string;
  const RULES = '{"notFound":"/404.html","fallbacks":[]}';

  beforeAll(async () => {
    // The previews' own store; and a second build, whose /about is gone and /team new.
    previews = await startLocalKvs();
    other = path.join(work, 'other', 'dist');
    await mkdir(path.join(other, 'assets'), { recursive: true });
    await mkdir(path.dirname(path.join(deployDirFor(other), STORE_DATA_FILE)), { recursive: true });
    await writeFile(path.join(deployDirFor(other), STORE_DATA_FILE), storeDataFile([{ key: '/', value: 'page' }, { key: '/team', value: 'page' }, { key: 'rules', value: RULES }]));
    for (const [key, body] of Object.entries({ 'index.html': '<!doctype html><title>Home, changed</title>', '404.html': '<!doctype html><title>Not found</title>', 'team.html': '<!doctype html><title>Team</title>', 'assets/site-7NOAKD3I.css': 'body{}' })) {
      await writeFile(path.join(other, key), body);
    }
    await sealFolder(other);
  });
  afterAll(async () => { await previews?.close(); });
  const clients = () => ({ s3: s3.client, cdn: cloudFrontInvalidator(cdn.client), kvs: kvs.client });

  const objects = async (bucket: string) => (await s3.client.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents?.map((o) => `${o.Key} ${o.ETag}`).sort() ?? [];
  const run = async (extra: Partial<DeployFlags>) => {
    const c = capture();
    const code = await deployCommand(flags({ bucket: 'previews', ...extra }), c.io, {}, { s3: s3.client, cdn: cloudFrontInvalidator(cdn.client), kvs: previews.client });
    return { code, ...c };
  };
  const scoped = (pr: string) => Object.fromEntries([...previews.entries].filter(([k]) => k.startsWith(`pr-${pr}:`)));

  test('its settings are the previews\' own: never the site\'s bucket or store, no --prefix, a pull request\'s number', () => {
    const site = { SITE_BUCKET: 'site', SITE_KVS_ARN: KVS_ARN, SITE_URL: 'https://www.example.co.uk', SITE_DISTRIBUTION_ID: 'EDIST' };
    expect(resolveDeploySettings(flags({ preview: '12', kvsArn: undefined }), site)).toBe('no bucket: pass --bucket <name> or set SITE_PREVIEW_BUCKET (the PreviewBucketName output of the Site stack)');
    expect(resolveDeploySettings(flags({ preview: '12', bucket: 'previews', kvsArn: undefined }), site)).toMatch(/^no key value store: pass --kvs-arn <arn> or set SITE_PREVIEW_KVS_ARN/);
    expect(resolveDeploySettings(flags({ preview: '12', kvsArn: undefined }), { ...site, SITE_PREVIEW_BUCKET: 'previews', SITE_PREVIEW_KVS_ARN: KVS_ARN, SITE_PREVIEW_DOMAIN: 'preview.example.co.uk' }))
      .toMatchObject({ bucket: 'previews', prefix: 'pr-12/', preview: { pr: '12', remove: false }, verify: { url: 'https://pr-12.preview.example.co.uk' } });
    expect(resolveDeploySettings(flags({ removePreview: '12', bucket: 'previews' }), site)).not.toHaveProperty('distributionId');
    expect(resolveDeploySettings(flags({ preview: '012', bucket: 'previews' }), {})).toBe("--preview 012 is not a pull request's number (1 to 999999999)");
    expect(resolveDeploySettings(flags({ removePreview: 'latest', bucket: 'previews' }), {})).toBe("--remove-preview latest is not a pull request's number (1 to 999999999)");
    expect(resolveDeploySettings(flags({ preview: '12', bucket: 'previews', prefix: 'x' }), {})).toBe("--preview takes no --prefix: a preview's files are under pr-12/ in the previews' bucket");
  });

  test('deployed to its own folder and keys, updated, then removed to nothing; the live site and the other preview untouched throughout', async () => {
    expect(await deployCommand(flags({ bucket: 'site' }), capture().io, {}, clients())).toBe(0);
    const live = { objects: await objects('site'), keys: Object.fromEntries(kvs.entries) };
    const invalidations = cdn.requests.length;

    const twelve = await run({ preview: '12' });
    expect(twelve.err).toEqual([]);
    expect(twelve.code).toBe(0);
    expect(twelve.out.join('\n')).toContain('→ s3://previews/pr-12/');
    expect(twelve.out).toContain('  a preview: nothing to invalidate (its distribution asks the bucket again for every page)');
    expect(twelve.out).toContain('  what readers get was not checked: no --verify-url or SITE_PREVIEW_DOMAIN to ask (--no-verify to say so)');
    expect((await run({ preview: '13', dir: other })).code).toBe(0);
    expect(Object.fromEntries(previews.entries)).toEqual({
      'pr-12:/': 'page', 'pr-12:/about': 'page', 'pr-12:rules': RULES,
      'pr-13:/': 'page', 'pr-13:/team': 'page', 'pr-13:rules': RULES,
    });
    const files = (await objects('previews')).map((o) => o.split(' ')[0]);
    expect(files).toEqual(['pr-12/404.html', 'pr-12/about.html', 'pr-12/assets/site-7NOAKD3I.css', 'pr-12/index.html', 'pr-13/404.html', 'pr-13/assets/site-7NOAKD3I.css', 'pr-13/index.html', 'pr-13/team.html']);
    const thirteen = { keys: scoped('13'), objects: (await objects('previews')).filter((o) => o.startsWith('pr-13/')) };

    // The pull request changes: its /about goes, its /team comes, in its own keys and folder alone.
    expect((await run({ preview: '12', dir: other })).code).toBe(0);
    expect(scoped('12')).toEqual({ 'pr-12:/': 'page', 'pr-12:/team': 'page', 'pr-12:rules': RULES });
    expect((await objects('previews')).map((o) => o.split(' ')[0]!).filter((k) => k.startsWith('pr-12/'))).toEqual(['pr-12/404.html', 'pr-12/assets/site-7NOAKD3I.css', 'pr-12/index.html', 'pr-12/team.html']);

    // Closed: nothing of it is left, in the store or the bucket (a dry run first, which changes nothing).
    const previewed = { keys: scoped('12'), objects: await objects('previews') };
    expect((await run({ removePreview: '12', dryRun: true })).out).toEqual(["Dry run, nothing will be changed: pr-12's preview would be removed: 3 routing keys, then 4 objects from s3://previews/pr-12/"]);
    expect({ keys: scoped('12'), objects: await objects('previews') }).toEqual(previewed);
    const removed = await run({ removePreview: '12' });
    expect(removed.err).toEqual([]);
    expect(removed.out).toEqual(["pr-12's preview removed: 3 routing keys (1 UpdateKeys call), then 4 objects from s3://previews/pr-12/"]);
    expect(scoped('12')).toEqual({});
    expect((await objects('previews')).filter((o) => o.startsWith('pr-12/'))).toEqual([]);
    // Removing it again finds nothing, and says so.
    expect((await run({ removePreview: '12' })).out).toEqual(["pr-12's preview removed: 0 routing keys (0 UpdateKeys calls), then 0 objects from s3://previews/pr-12/"]);

    expect({ keys: scoped('13'), objects: (await objects('previews')).filter((o) => o.startsWith('pr-13/')) }).toEqual(thirteen);
    expect({ objects: await objects('site'), keys: Object.fromEntries(kvs.entries) }).toEqual(live);
    expect(cdn.requests).toHaveLength(invalidations);
  });

  test("a build with its drafts (site build --drafts) goes up as a pull request's preview, and is refused for the live site in one line before anything changes", async () => {
    await sealFolder(other, { preview: true });
    try {
      const before = { objects: await objects('site'), keys: Object.fromEntries(kvs.entries) };
      const live = capture();
      expect(await deployCommand(flags({ dir: other, bucket: 'site' }), live.io, {}, clients())).toBe(1);
      expect(live.err).toEqual([`site deploy failed: ${other} was built with its drafts and scheduled articles (site build --drafts): deploy it only as a pull request's preview (site deploy --preview <n>), or run site build without --drafts`]);
      expect({ objects: await objects('site'), keys: Object.fromEntries(kvs.entries) }).toEqual(before);
      const preview = await run({ preview: '15', dir: other });
      expect(preview.err).toEqual([]);
      expect(preview.code).toBe(0);
      expect(Object.keys(scoped('15'))).toContain('pr-15:/team');
      expect((await run({ removePreview: '15' })).code).toBe(0);
    } finally {
      await sealFolder(other);
    }
  });

  test('the site\'s deploy aimed at the previews\' store, and a preview that would not fit beside the others, are refused before anything changes', async () => {
    expect((await run({ preview: '13', dir: other })).code).toBe(0);
    const before = { objects: await objects('site'), previews: await objects('previews'), keys: Object.fromEntries(previews.entries) };
    const updates = () => previews.calls.filter((c) => c.op === 'UpdateKeys').length;
    const calls = updates();

    const wrong = capture();
    expect(await deployCommand(flags({ bucket: 'site' }), wrong.io, {}, { ...clients(), kvs: previews.client })).toBe(1);
    expect(wrong.err).toEqual(["site deploy failed: the routing store holds a pull request's preview (pr-13): it is the previews' store (PreviewKeyValueStoreArn), not the site's; pass the KeyValueStoreArn output of the Site stack"]);

    // Other previews' keys near the store's 5 MB: pull request 14's would pass it.
    for (let i = 0; i < 5135; i++) previews.entries.set(`pr-9:/old/${String(i).padStart(5, '0')}`, 'x'.repeat(1007));
    try {
      const full = await run({ preview: '14' });
      expect(full.code).toBe(1);
      expect(full.err).toHaveLength(1);
      expect(full.err[0]).toMatch(/^site deploy failed: the previews' store would hold \d+ bytes with pr-14's keys \(\d+\) beside the other previews' \(\d+\), and a CloudFront KeyValueStore holds at most 5242880: remove the previews of closed pull requests \(site deploy --remove-preview <n>\)$/);
    } finally {
      for (const key of [...previews.entries.keys()]) if (key.startsWith('pr-9:')) previews.entries.delete(key);
    }
    expect(updates()).toBe(calls);
    expect({ objects: await objects('site'), previews: await objects('previews'), keys: Object.fromEntries(previews.entries) }).toEqual(before);
  });
});

describe('site deploy with the content manager on a host of its own', () => {
  const hosts = { site: 'www.example.com', cms: 'cms.example.com' };
  const rules = { notFound: '/404.html', fallbacks: [], hosts };
  const pages: Record<string, string> = { 'index.html': '<!doctype html><title>Home</title>', '404.html': '<!doctype html><title>Not found</title>', 'admin.html': '<!doctype html><title>Content manager</title>' };
  const entries = new Map([['/', 'page'], ['/admin', 'page'], ['rules', JSON.stringify(rules)]]);
  let dir: string;

  beforeAll(async () => {
    dir = path.join(work, 'cms-host-dist');
    await mkdir(dir, { recursive: true });
    await mkdir(path.dirname(path.join(deployDirFor(dir), STORE_DATA_FILE)), { recursive: true });
    await writeFile(path.join(deployDirFor(dir), STORE_DATA_FILE), storeDataFile([...entries].map(([key, value]) => ({ key, value }))));
    for (const [key, body] of Object.entries(pages)) await writeFile(path.join(dir, key), body);
    await sealFolder(dir);
  });

  /** The distribution as its request function routes each host (rule.ts), a file answered with its MD5 as ETag; `cmsPage`: what the manager's host answers for its page. */
  const distribution = (asked: string[], cmsPage?: { status: number }) => (base: string) => async (paths: readonly string[]) => {
    const host = new URL(base).hostname;
    asked.push(...paths.map((p) => `${host}${p}`));
    return paths.map((p) => {
      const r = answer(p, rules, (key) => entries.get(key), host);
      if (r.kind === 'redirect') return { status: r.status, location: r.location };
      if (r.kind !== 'file') return { status: 400 };
      if (host === hosts.cms && cmsPage) return cmsPage;
      return { status: r.status, etag: `"${createHash('md5').update(pages[r.file.slice(1)] ?? pages['404.html']!).digest('hex')}"` };
    });
  };

  test("asks /admin on the site's host, which sends it to the manager's, and /admin and / on the manager's host; a manager's host that does not serve its page is named", async () => {
    const store = await startLocalKvs();
    try {
      const deployTo = (asked: string[], cmsPage?: { status: number }) => {
        const c = capture();
        const run = deployCommand({ dir, bucket: 'site', prefix: 'cms-host/', kvsArn: KVS_ARN, dryRun: false, force: false, settle: '0', verifyUrl: `https://${hosts.site}` }, c.io, {},
          { s3: s3.client, cdn: cloudFrontInvalidator(cdn.client), kvs: store.client, askerFor: distribution(asked, cmsPage) });
        return run.then((code) => ({ code, ...c }));
      };
      const asked: string[] = [];
      const first = await deployTo(asked);
      expect(first.err).toEqual([]);
      expect(first.code).toBe(0);
      expect(asked).toEqual(expect.arrayContaining(['www.example.com/admin', 'cms.example.com/admin', 'cms.example.com/']));

      // The manager's host answering its page with a 404 (its alternate name missing from the distribution, say).
      await writeFile(path.join(dir, 'admin.html'), pages['admin.html'] = '<!doctype html><title>Content manager, again</title>');
      await sealFolder(dir);
      const second = await deployTo([], { status: 404 });
      expect(second.code).toBe(1);
      expect(second.err.join('\n')).toContain('cms.example.com: /admin answered 404, where the build expects 200');
    } finally {
      await store.close();
      const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: 'site', Prefix: 'cms-host/' }));
      for (const o of listed.Contents ?? []) await s3.client.send(new DeleteObjectCommand({ Bucket: 'site', Key: o.Key! }));
    }
  });
});
