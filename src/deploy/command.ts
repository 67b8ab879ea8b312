// `site deploy`: options from flags, then the environment, then defaults; the AWS clients; and
// the printing. Exit codes as everywhere in the CLI: 1 a failure to fix, 2 a usage error.
import path from 'node:path';
import http from 'node:http';
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { CloudFrontKeyValueStoreClient } from '@aws-sdk/client-cloudfront-keyvaluestore';
import { S3Client } from '@aws-sdk/client-s3';
import { cloudFrontInvalidator, type Invalidator } from './cdn.ts';
import { CONFLICT_RETRIES, keyValueStore } from './store.ts';
import { deploy, DeployError, normalisePrefix } from './deploy.ts';
import { PR_NUMBER, previewName, previewStore, removePreview } from './preview.ts';
import { formatOutcome, formatPlan, progressReporter } from './report.ts';
import type { Asker } from './verify.ts';

export interface DeployFlags {
  dir: string;
  bucket?: string;
  distributionId?: string;
  region?: string;
  prefix?: string;
  /** The ARN of the distribution's CloudFront KeyValueStore (the Site stack's KeyValueStoreArn output). */
  kvsArn?: string;
  dryRun: boolean;
  force: boolean;
  keepStale?: boolean;
  /** Seconds between removing routing keys and deleting objects (or SITE_DEPLOY_SETTLE; default DEFAULT_SETTLE_SECONDS). */
  settle?: string;
  /** false (`--no-verify`): do not ask the site what readers get after the deploy. */
  verify?: boolean;
  /** Where readers reach the site (or SITE_URL): asked after the deploy. */
  verifyUrl?: string;
  /** A pull request's number: deploy the build as its preview (preview.ts). */
  preview?: string;
  /** A pull request's number: take its preview out. */
  removePreview?: string;
}

export interface DeployIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Clients to use instead of the ones built from the settings (tests). */
export interface DeployClients {
  s3?: S3Client;
  cdn?: Invalidator;
  kvs?: CloudFrontKeyValueStoreClient;
  /** The settle wait (tests: a clock of their own). */
  wait?: (ms: number) => Promise<void>;
  /** How the deploy asks the site what readers get (tests: the edge simulator); by default HTTP to --verify-url. */
  verify?: Asker;
  /** How the deploy asks the site at an address (by default HTTP, httpAsker). */
  askerFor?: (base: string) => Asker;
}

/** Asks the site at `base` over HTTP(S) for each path, following no redirect. */
export function httpAsker(base: string): Asker {
  return async (paths) => Promise.all(paths.map(async (p) => {
    const res = await fetch(new URL(p, base), { redirect: 'manual', headers: { 'cache-control': 'no-cache' } });
    await res.arrayBuffer();
    return { status: res.status, ...(res.headers.get('location') ? { location: res.headers.get('location')! } : {}), ...(res.headers.get('etag') ? { etag: res.headers.get('etag')! } : {}) };
  }));
}

export const DEFAULT_REGION = 'eu-west-2';

/**
 * How long the deploy waits, once keys have come out of the routing store, before deleting the
 * objects they pointed at. AWS documents the store as read at the edges from copies that an update
 * reaches over time, without a bound; its guides speak of seconds. A minute leaves room for an edge
 * that is slow to see it, and costs a deploy that removes pages one minute.
 */
export const DEFAULT_SETTLE_SECONDS = 60;

export interface DeploySettings {
  dir: string;
  bucket: string;
  distributionId?: string;
  region: string;
  prefix: string;
  kvsArn: string;
  dryRun: boolean;
  force: boolean;
  keepStale: boolean;
  settle: number;
  /** false: not verified (`--no-verify`); otherwise where the site is asked after the deploy (undefined: nowhere known). */
  verify: false | { url?: string };
  /** An S3-compatible endpoint instead of AWS (SITE_S3_ENDPOINT), addressed path-style. */
  s3Endpoint?: string;
  cloudFrontEndpoint?: string;
  /**
   * A stand-in for the KeyValueStore API (SITE_KVS_ENDPOINT). The client names the store's account
   * in front of the endpoint's host ('123456789012.localhost'), so every connection goes to the
   * endpoint's own address.
   */
  kvsEndpoint?: string;
  /** A pull request's preview, to deploy or (`remove`) take out: the previews' bucket and store, under 'pr-<n>'. */
  preview?: { pr: string; remove: boolean };
}

/** cloudfront::<account>:key-value-store/<id>: the store's ARN, as the Site stack's KeyValueStoreArn output gives it. */
const KVS_ARN = /^arn:aws[a-z-]*:cloudfront::\d{12}:key-value-store\/[0-9a-f-]{36}$/;

export function resolveDeploySettings(flags: DeployFlags, env: Readonly<Record<string, string | undefined>>): DeploySettings | string {
  const pick = (flag: string | undefined, ...names: string[]) => {
    if (flag?.trim()) return flag.trim();
    for (const name of names) if (env[name]?.trim()) return env[name]!.trim();
    return undefined;
  };
  if (flags.preview !== undefined && flags.removePreview !== undefined) return '--preview and --remove-preview: one at a time';
  const pr = flags.preview ?? flags.removePreview;
  const option = flags.preview !== undefined ? '--preview' : '--remove-preview';
  if (pr !== undefined && !PR_NUMBER.test(pr)) return `${option} ${pr} is not a pull request's number (1 to 999999999)`;
  if (pr !== undefined && flags.prefix?.trim()) return `${option} takes no --prefix: a preview's files are under ${previewName(pr)}/ in the previews' bucket`;
  // A preview reads the previews' own settings, never the site's: a wrong default would put it beside the live pages.
  const [bucketVar, kvsVar, outputs] = pr === undefined ? ['SITE_BUCKET', 'SITE_KVS_ARN', ['BucketName', 'KeyValueStoreArn']] : ['SITE_PREVIEW_BUCKET', 'SITE_PREVIEW_KVS_ARN', ['PreviewBucketName', 'PreviewKeyValueStoreArn']];
  const bucket = pick(flags.bucket, bucketVar);
  if (!bucket) return `no bucket: pass --bucket <name> or set ${bucketVar} (the ${outputs[0]} output of the Site stack)`;
  const kvsArn = pick(flags.kvsArn, kvsVar);
  if (!kvsArn) return `no key value store: pass --kvs-arn <arn> or set ${kvsVar} (the ${outputs[1]} output of the Site stack), which routes the pages`;
  if (!KVS_ARN.test(kvsArn)) return `--kvs-arn ${kvsArn} is not a CloudFront KeyValueStore ARN (arn:aws:cloudfront::<account>:key-value-store/<id>)`;
  const settleText = pick(flags.settle, 'SITE_DEPLOY_SETTLE');
  const settle = settleText === undefined ? DEFAULT_SETTLE_SECONDS : Number(settleText);
  if (!/^\d+(?:\.\d+)?$/.test(settleText ?? '0') || !Number.isFinite(settle) || settle > 3600) return `--settle ${settleText} is not a number of seconds from 0 to 3600`;
  // A preview is invalidated nowhere: its distribution revalidates every page with the bucket (infra/lib/previews.ts).
  const distributionId = pr === undefined ? pick(flags.distributionId, 'SITE_DISTRIBUTION_ID') : undefined;
  const previewDomain = pick(undefined, 'SITE_PREVIEW_DOMAIN');
  const verifyUrl = pr === undefined ? pick(flags.verifyUrl, 'SITE_URL') : pick(flags.verifyUrl) ?? (previewDomain ? `https://${previewName(pr)}.${previewDomain}` : undefined);
  const s3Endpoint = pick(undefined, 'SITE_S3_ENDPOINT');
  const cloudFrontEndpoint = pick(undefined, 'SITE_CLOUDFRONT_ENDPOINT');
  const kvsEndpoint = pick(undefined, 'SITE_KVS_ENDPOINT');
  return {
    dir: flags.dir,
    bucket,
    region: pick(flags.region, 'SITE_REGION', 'AWS_REGION') ?? DEFAULT_REGION,
    prefix: pr === undefined ? normalisePrefix(pick(flags.prefix, 'SITE_DEPLOY_PREFIX')) : `${previewName(pr)}/`,
    kvsArn,
    dryRun: flags.dryRun,
    force: flags.force,
    keepStale: flags.keepStale ?? false,
    settle,
    verify: flags.verify === false ? false : { ...(verifyUrl ? { url: verifyUrl } : {}) },
    ...(distributionId ? { distributionId } : {}),
    ...(s3Endpoint ? { s3Endpoint } : {}),
    ...(cloudFrontEndpoint ? { cloudFrontEndpoint } : {}),
    ...(kvsEndpoint ? { kvsEndpoint } : {}),
    ...(pr === undefined ? {} : { preview: { pr, remove: flags.removePreview !== undefined } }),
  };
}

function kvsClient(settings: DeploySettings): CloudFrontKeyValueStoreClient {
  if (!settings.kvsEndpoint) return new CloudFrontKeyValueStoreClient({ region: 'us-east-1' });
  const address = new URL(settings.kvsEndpoint).hostname.replace(/^\[|\]$/g, '');
  const family = address.includes(':') ? 6 : 4;
  const ip = address === 'localhost' ? '127.0.0.1' : address;
  const lookup = (_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
    (options.all ? callback(null, [{ address: ip, family }]) : callback(null, ip, family));
  return new CloudFrontKeyValueStoreClient({ region: 'us-east-1', endpoint: settings.kvsEndpoint, requestHandler: { httpAgent: new http.Agent({ lookup: lookup as never }) } });
}

function makeClients(settings: DeploySettings): { s3: S3Client; cdn: Invalidator; destroy: () => void } {
  const s3 = new S3Client({
    region: settings.region,
    // S3-compatible servers rarely resolve bucket.host names or know the newer checksums.
    ...(settings.s3Endpoint ? { endpoint: settings.s3Endpoint, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
  });
  // CloudFront is global; its API lives in us-east-1.
  const cloudFront = new CloudFrontClient({ region: 'us-east-1', ...(settings.cloudFrontEndpoint ? { endpoint: settings.cloudFrontEndpoint } : {}) });
  return { s3, cdn: cloudFrontInvalidator(cloudFront), destroy: () => { s3.destroy(); cloudFront.destroy(); } };
}

function describeError(error: unknown): string {
  if (error instanceof DeployError) return error.message;
  if (error instanceof Error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    return `${error.name}${status ? ` (HTTP ${status})` : ''}: ${error.message}`;
  }
  return String(error);
}

export async function deployCommand(flags: DeployFlags, io: DeployIo, env: Readonly<Record<string, string | undefined>> = process.env, clients: DeployClients = {}): Promise<number> {
  const settings = resolveDeploySettings(flags, env);
  if (typeof settings === 'string') {
    io.err(`site deploy: ${settings}`);
    return 2;
  }
  const made = clients.s3 && clients.cdn ? undefined : makeClients(settings);
  const s3 = clients.s3 ?? made!.s3;
  const cdn = clients.cdn ?? made!.cdn;
  const kvs = clients.kvs ?? kvsClient(settings);
  const target = `${path.relative(process.cwd(), path.resolve(settings.dir)) || '.'}/ → s3://${settings.bucket}/${settings.prefix} (${settings.region})`;
  const started = performance.now();
  const preview = settings.preview;
  const store = preview ? previewStore(keyValueStore(kvs, settings.kvsArn), preview.pr) : keyValueStore(kvs, settings.kvsArn);
  try {
    if (preview?.remove) {
      const removed = await removePreview({ s3, bucket: settings.bucket, store, pr: preview.pr, dryRun: settings.dryRun });
      const what = `${removed.keys} routing key${removed.keys === 1 ? '' : 's'}`;
      const objects = `${removed.objects} object${removed.objects === 1 ? '' : 's'} from s3://${settings.bucket}/${settings.prefix}`;
      io.out(settings.dryRun
        ? `Dry run, nothing will be changed: ${previewName(preview.pr)}'s preview would be removed: ${what}, then ${objects}`
        : `${previewName(preview.pr)}'s preview removed: ${what} (${removed.calls} UpdateKeys call${removed.calls === 1 ? '' : 's'}), then ${objects}`);
      return 0;
    }
    // Without --verify-url or SITE_URL, the distribution's own address (GetDistribution), asked before anything changes.
    let verifyUrl = settings.verify === false ? undefined : settings.verify.url;
    let unverified = preview ? 'no --verify-url or SITE_PREVIEW_DOMAIN to ask' : 'no --verify-url or SITE_URL to ask, and no --distribution-id to look its address up';
    if (settings.verify !== false && !verifyUrl && !clients.verify && settings.distributionId && cdn.address && !settings.dryRun) {
      try {
        verifyUrl = await cdn.address(settings.distributionId);
        io.out(`  readers will be asked at ${verifyUrl}, distribution ${settings.distributionId}'s address (--verify-url to ask elsewhere)`);
      } catch (error) {
        unverified = `distribution ${settings.distributionId}'s address could not be read (${describeError(error)}); pass --verify-url`;
      }
    }
    const verifier = settings.verify === false ? undefined : clients.verify ?? (verifyUrl ? (clients.askerFor ?? httpAsker)(verifyUrl) : undefined);
    const result = await deploy({
      dir: settings.dir,
      bucket: settings.bucket,
      prefix: settings.prefix,
      dryRun: settings.dryRun,
      force: settings.force,
      keepStale: settings.keepStale,
      ...(preview ? { draftsAllowed: true } : {}),
      s3,
      cdn,
      store,
      ...(settings.distributionId ? { distributionId: settings.distributionId } : {}),
      settle: settings.settle,
      ...(clients.wait ? { wait: clients.wait } : {}),
      onSettle: (seconds, objects) => io.out(`  waiting ${seconds} s for CloudFront's edges to see the routing keys go before deleting ${objects} stale object${objects === 1 ? '' : 's'} (--settle)`),
      ...(verifier ? {
        verify: verifier,
        ...(verifyUrl ? { verifyHost: new URL(verifyUrl).hostname } : {}),
        // Another host of the site's distribution (the content manager's), asked where the site is asked by address; a preview has none.
        ...(!preview && (verifyUrl || clients.askerFor) ? { verifyAt: (host: string) => (clients.askerFor ?? httpAsker)(`https://${host}`) } : {}),
        onVerify: (n: number) => io.out(`  asking the site what readers get: ${n} URL${n === 1 ? '' : 's'} (--no-verify to skip)`),
      } : {}),
      onInvalidationWait: (id) => io.out(`  waiting for CloudFront to complete invalidation ${id} (every edge to drop the paths) before the last deletions`),
      onConflict: (attempt) => io.out(`  another writer changed the routing store during the deploy: listed it again and planned again (${attempt} of ${CONFLICT_RETRIES})`),
      onPlan: (plan, paths, store) => { for (const line of formatPlan(plan, paths, settings.dryRun, target, store)) io.out(line); },
      onProgress: progressReporter(io.out),
    });
    if (!result.dryRun) {
      for (const line of formatOutcome(result, settings.distributionId, preview !== undefined)) io.out(line);
      if (settings.verify !== false && !verifier) io.out(`  what readers get was not checked: ${unverified} (--no-verify to say so)`);
      io.out(`  in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    return 0;
  } catch (error) {
    io.err(`site deploy failed: ${describeError(error)}`);
    return 1;
  } finally {
    made?.destroy();
    if (!clients.kvs) kvs.destroy();
  }
}
