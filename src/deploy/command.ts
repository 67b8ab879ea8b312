// `site deploy`: options from flags, then the environment, then defaults; the AWS clients; and
// the printing. Exit codes as everywhere in the CLI: 1 a failure to fix, 2 a usage error.
import path from 'node:path';
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { S3Client } from '@aws-sdk/client-s3';
import { cloudFrontInvalidator, type Invalidator } from './cdn.ts';
import { deploy, DeployError, normalisePrefix } from './deploy.ts';
import { formatOutcome, formatPlan, progressReporter } from './report.ts';

export interface DeployFlags {
  dir: string;
  bucket?: string;
  distributionId?: string;
  region?: string;
  prefix?: string;
  dryRun: boolean;
  force: boolean;
  keepStale?: boolean;
}

export interface DeployIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Clients to use instead of the ones built from the settings (tests). */
export interface DeployClients {
  s3?: S3Client;
  cdn?: Invalidator;
}

export const DEFAULT_REGION = 'eu-west-2';

export interface DeploySettings {
  dir: string;
  bucket: string;
  distributionId?: string;
  region: string;
  prefix: string;
  dryRun: boolean;
  force: boolean;
  keepStale: boolean;
  /** An S3-compatible endpoint instead of AWS (SITE_S3_ENDPOINT), addressed path-style. */
  s3Endpoint?: string;
  cloudFrontEndpoint?: string;
}

export function resolveDeploySettings(flags: DeployFlags, env: Readonly<Record<string, string | undefined>>): DeploySettings | string {
  const pick = (flag: string | undefined, ...names: string[]) => {
    if (flag?.trim()) return flag.trim();
    for (const name of names) if (env[name]?.trim()) return env[name]!.trim();
    return undefined;
  };
  const bucket = pick(flags.bucket, 'SITE_BUCKET');
  if (!bucket) return 'no bucket: pass --bucket <name> or set SITE_BUCKET (the BucketName output of the Site stack)';
  const distributionId = pick(flags.distributionId, 'SITE_DISTRIBUTION_ID');
  const s3Endpoint = pick(undefined, 'SITE_S3_ENDPOINT');
  const cloudFrontEndpoint = pick(undefined, 'SITE_CLOUDFRONT_ENDPOINT');
  return {
    dir: flags.dir,
    bucket,
    region: pick(flags.region, 'SITE_REGION', 'AWS_REGION') ?? DEFAULT_REGION,
    prefix: normalisePrefix(pick(flags.prefix, 'SITE_DEPLOY_PREFIX')),
    dryRun: flags.dryRun,
    force: flags.force,
    keepStale: flags.keepStale ?? false,
    ...(distributionId ? { distributionId } : {}),
    ...(s3Endpoint ? { s3Endpoint } : {}),
    ...(cloudFrontEndpoint ? { cloudFrontEndpoint } : {}),
  };
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
  const target = `${path.relative(process.cwd(), path.resolve(settings.dir)) || '.'}/ → s3://${settings.bucket}/${settings.prefix} (${settings.region})`;
  const started = performance.now();
  try {
    const result = await deploy({
      dir: settings.dir,
      bucket: settings.bucket,
      prefix: settings.prefix,
      dryRun: settings.dryRun,
      force: settings.force,
      keepStale: settings.keepStale,
      s3,
      cdn,
      ...(settings.distributionId ? { distributionId: settings.distributionId } : {}),
      onPlan: (plan, paths) => { for (const line of formatPlan(plan, paths, settings.dryRun, target)) io.out(line); },
      onProgress: progressReporter(io.out),
    });
    if (!result.dryRun) {
      for (const line of formatOutcome(result, settings.distributionId)) io.out(line);
      io.out(`  in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    return 0;
  } catch (error) {
    io.err(`site deploy failed: ${describeError(error)}`);
    return 1;
  } finally {
    made?.destroy();
  }
}
