// `site deploy`: dist/ → the bucket, then one CloudFront invalidation. Order matters to visitors:
// new and changed files go up first (assets before the pages that link to them), stale objects
// are deleted only once every upload has succeeded, and the CDN is told last.
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { deleteKeys, listRemote, putFile } from './bucket.ts';
import type { Invalidator } from './cdn.ts';
import { invalidationPaths } from './invalidation.ts';
import { readLocalFiles, type LocalFile } from './local-files.ts';
import { carriesDevMarkup } from '../serve/live-reload.ts';
import { sealProblem } from '../output/seal.ts';
import { planDeploy, type DeployPlan } from './plan.ts';

export interface DeployOptions {
  dir: string;
  bucket: string;
  /** Key prefix inside the bucket ('' for the root); normalised to end with '/'. */
  prefix?: string;
  distributionId?: string;
  dryRun?: boolean;
  /** Upload every file even when the bucket already has the same bytes (e.g. to rewrite headers). */
  force?: boolean;
  /** Delete no stale object this once (see planDeploy). */
  keepStale?: boolean;
  s3: S3Client;
  cdn?: Invalidator;
  concurrency?: number;
  /** Called once the plan is known, before anything is changed. */
  onPlan?: (plan: DeployPlan, invalidationPaths: readonly string[]) => void;
  onProgress?: (progress: UploadProgress) => void;
}

export interface UploadProgress {
  done: number;
  total: number;
  bytesDone: number;
  bytesTotal: number;
  key: string;
}

export interface DeployResult {
  plan: DeployPlan;
  invalidation: { paths: string[]; id?: string };
  dryRun: boolean;
}

export class DeployError extends Error {
  override name = 'DeployError';
}

/** Files every build of this site has; without them the folder is not a build, and deleting would empty the site. */
const REQUIRED_FILES = ['index.html', '404.html'];

export function normalisePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed ? `${trimmed}/` : '';
}

/** The pages `site serve` built (they load its live-reload script, a 404 and a console error in production). */
async function devPages(files: readonly LocalFile[]): Promise<string[]> {
  const found: string[] = [];
  for (const file of files) {
    if (file.key.endsWith('.html') && carriesDevMarkup(await readFile(file.absolutePath, 'utf8'))) found.push(file.key);
  }
  return found;
}

async function mapLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export async function deploy(options: DeployOptions): Promise<DeployResult> {
  const dir = path.resolve(options.dir);
  for (const file of REQUIRED_FILES) {
    try {
      await access(path.join(dir, file));
    } catch {
      throw new DeployError(`${path.join(dir, file)} is missing: ${dir} is not a site build (run \`site build\` first)`);
    }
  }
  const prefix = normalisePrefix(options.prefix);
  const files = await readLocalFiles(dir);
  // Before the bucket is asked anything: only a complete build, exactly as it left the folder, goes up.
  const unsealed = await sealProblem(dir, files);
  if (unsealed) throw new DeployError(unsealed);
  const dev = await devPages(files);
  if (dev.length > 0) {
    const which = dev.length === 1 ? dev[0] : `${dev[0]} and ${dev.length - 1} other page${dev.length === 2 ? '' : 's'}`;
    throw new DeployError(`${which} in ${dir} ${dev.length === 1 ? 'carries' : 'carry'} the development markup of \`site serve\` (its live-reload script): deploy the output of \`site build\` instead`);
  }
  const remote = await listRemote(options.s3, options.bucket, prefix);
  const plan = planDeploy(files, remote, { force: options.force ?? false, keepStale: options.keepStale ?? false });
  const changed = [...plan.uploads.map((u) => u.file.key), ...plan.deletes];
  const paths = options.distributionId ? invalidationPaths(changed) : [];
  options.onPlan?.(plan, paths);
  if (options.dryRun) return { plan, invalidation: { paths }, dryRun: true };

  const bytesTotal = plan.uploads.reduce((sum, u) => sum + u.file.size, 0);
  let done = 0;
  let bytesDone = 0;
  // HTML waits for everything else: a page must not be live before its assets are.
  const html = plan.uploads.filter((u) => u.file.key.endsWith('.html'));
  const rest = plan.uploads.filter((u) => !u.file.key.endsWith('.html'));
  for (const group of [rest, html]) {
    await mapLimit(group, options.concurrency ?? 8, async ({ file }) => {
      await putFile(options.s3, options.bucket, prefix, file);
      done += 1;
      bytesDone += file.size;
      options.onProgress?.({ done, total: plan.uploads.length, bytesDone, bytesTotal, key: file.key });
    });
  }

  if (plan.deletes.length > 0) await deleteKeys(options.s3, options.bucket, prefix, plan.deletes);

  let id: string | undefined;
  if (options.distributionId && paths.length > 0) {
    if (!options.cdn) throw new DeployError('a distribution id was given but no CloudFront client');
    id = (await options.cdn.invalidate(options.distributionId, paths)).id;
  }
  return { plan, invalidation: { paths, ...(id ? { id } : {}) }, dryRun: false };
}
