// A deploy through the simulated edges killed before each of its steps in turn (every upload, store
// change, deletion, the invalidation, each wait), and run again ten minutes later: no wrong answer at
// any edge, the new site at every edge, nothing stale left in the bucket or the store.
// tests/deploy/lagging-edges.test.ts kills it before a sample of these steps.
import { expect, test } from 'vitest';
import { deployThroughTheEdges, edgeDeploys, NEW_SITE } from '../tests/deploy/edge-deploy.ts';

const sorted = (entries: ReadonlyMap<string, string>) => JSON.stringify([...entries].sort(([a], [b]) => a.localeCompare(b)));
/** More than the deploy has steps: one bucket a run. */
const RUNS = 60;
edgeDeploys(['counted', ...Array.from({ length: RUNS }, (_, i) => `killed-${i}`)]);

test('a deploy killed before any one of its steps, run again, gives no wrong answer and leaves nothing stale', async () => {
  const { steps } = await deployThroughTheEdges('counted', 'ordered');
  expect(steps.length).toBeGreaterThan(10);
  expect(steps.length).toBeLessThanOrEqual(RUNS);
  const failures: string[] = [];
  for (const [i, step] of steps.entries()) {
    // By name and occurrence, not index: the uploads go up eight at a time, in no fixed order.
    const occurrence = steps.slice(0, i).filter((s) => s === step).length;
    let seen = 0;
    const run = await deployThroughTheEdges(`killed-${i}`, 'ordered', { killAt: (s) => s === step && seen++ === occurrence });
    const wrong = [
      ...(run.killed?.err[0] === `site deploy failed: Error: killed before ${step}` ? [] : [`killed: ${run.killed?.err.join(' ')}`]),
      ...(run.exit === 0 ? [] : [`run again: exit ${run.exit}: ${run.err.join(' ')}`]),
      ...run.problems.slice(0, 3),
      ...(run.bucketKeys.join(' ') === NEW_SITE.files.join(' ') ? [] : [`the bucket holds ${run.bucketKeys.join(' ')}`]),
      ...(sorted(run.store) === sorted(NEW_SITE.entries) ? [] : [`the store holds ${sorted(run.store)}`]),
    ];
    if (wrong.length > 0) failures.push(`killed before step ${i + 1} of ${steps.length} (${step}):\n  ${wrong.join('\n  ')}`);
  }
  console.log(`killed before each of ${steps.length} steps: ${steps.join(' | ')}`);
  expect(failures).toEqual([]);
});
