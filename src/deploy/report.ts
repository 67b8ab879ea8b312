// What `site deploy` prints: the plan, progress while uploading, and the outcome.
import type { DeployResult, StorePlan, UploadProgress } from './deploy.ts';
import type { DeployPlan } from './plan.ts';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function formatPlan(plan: DeployPlan, paths: readonly string[], dryRun: boolean, target: string, store?: StorePlan): string[] {
  const files = plan.uploads.length + plan.unchanged.length;
  const bytes = plan.uploads.reduce((sum, u) => sum + u.file.size, 0);
  const reasons = (['new', 'changed', 'forced', 'status'] as const)
    .map((r) => [r, plan.uploads.filter((u) => u.reason === r).length] as const)
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${n} ${r === 'status' ? 'for its error status' : r}`);
  const lines = [
    `${dryRun ? 'Dry run, nothing will be changed: ' : ''}${target}`,
    `  ${count(files, 'file')} in the build: ${plan.uploads.length} to upload${reasons.length ? ` (${reasons.join(', ')}, ${formatBytes(bytes)})` : ''}, ${plan.unchanged.length} unchanged, ${plan.kept.length ? `${count(plan.kept.length, 'stale object')} kept (--keep-stale)` : `${count(plan.deletes.length, 'stale object')} to delete`}`,
  ];
  if (store) lines.push(`  ${count(store.unchanged + store.puts.length, 'routing key')} in the build: ${store.added} to add, ${store.changed} to change, ${store.unchanged} unchanged, ${store.deletes.length} to remove`);
  if (dryRun) {
    // In the order the deploy takes: objects up, keys in, invalidation, keys out, objects deleted.
    for (const u of plan.uploads) lines.push(`  would upload  ${u.reason.padEnd(7)}  ${u.file.key}  (${formatBytes(u.file.size)}, ${u.file.contentType}, ${u.file.cacheControl})`);
    for (const e of store?.puts ?? []) lines.push(`  would put key  ${e.key}  → ${e.value}`);
    if (paths.length) lines.push(`  would invalidate  ${paths.join(' ')}`);
    for (const key of store?.deletes ?? []) lines.push(`  would remove key  ${key}`);
    for (const key of plan.deletes) lines.push(`  would delete  ${key}`);
  }
  return lines;
}

/** Progress lines: each file for a short upload, otherwise about every tenth of the way. */
export function progressReporter(out: (line: string) => void): (p: UploadProgress) => void {
  let lastStep = -1;
  return (p) => {
    const step = p.total <= 10 ? p.done : Math.floor((p.done / p.total) * 10);
    if (step === lastStep && p.done !== p.total) return;
    lastStep = step;
    const detail = p.total <= 10 ? `  ${p.key}` : '';
    out(`  uploaded ${p.done}/${p.total} files, ${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}${detail}`);
  };
}

/** `preview`: a pull request's preview, which nothing invalidates (its distribution revalidates every page with the bucket). */
export function formatOutcome(result: DeployResult, distributionId: string | undefined, preview = false): string[] {
  const lines: string[] = [];
  const store = result.store;
  if (store) {
    const { plan, calls } = store;
    const total = calls.journal + calls.puts + calls.deletes;
    lines.push(`  routing store: ${plan.added} key${plan.added === 1 ? '' : 's'} added, ${plan.changed} changed, ${plan.deletes.length} removed, in ${count(total, 'UpdateKeys call')}${calls.journal ? ' (one noting the paths to invalidate until CloudFront has them)' : ''}`);
  }
  if (result.plan.deletes.length) lines.push(`  deleted ${count(result.plan.deletes.length, 'stale object')}`);
  const { paths, id } = result.invalidation;
  if (preview) lines.push('  a preview: nothing to invalidate (its distribution asks the bucket again for every page)');
  else if (!distributionId) lines.push('  no --distribution-id: CloudFront was not asked to invalidate anything');
  else if (paths.length === 0) lines.push('  nothing changed that CloudFront has cached: no invalidation');
  else lines.push(`  invalidation ${id ?? ''} on ${distributionId}: ${paths.join(' ')}`);
  const keys = store ? store.plan.puts.length + store.plan.deletes.length : 0;
  lines.push(result.plan.uploads.length || result.plan.deletes.length || keys ? 'Deployed.' : 'Already up to date.');
  return lines;
}
