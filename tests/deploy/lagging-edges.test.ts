// `site deploy` through a simulated CloudFront distribution (edge-deploy.ts, edge-simulator.ts): four edges that see
// each change to the KeyValueStore 0, 4, 12 and 25 seconds late, each with its own cache of what it
// fetched from the bucket (s3rver, through the real client), kept for the cache policy's TTLs, and
// each reached by an invalidation 5, 30, 60 and 90 seconds after it is made. A deploy that adds a
// page, changes two, turns one into a redirect, removes one and replaces the stylesheet every page
// names runs through the real clients (the store's API stand-in, CloudFront's API faked), on a
// clock of the test's own. Every URL is asked at every edge at each step of the deploy (each
// upload, each store change, each deletion, the invalidation, each second of each wait) and then
// for the next 48 simulated hours. Wrong: an answer that is neither the old site's nor the new
// one's; an old answer after the deploy said it was done; a page whose stylesheet that edge does
// not have. The same deploy in the order deploys took before (the invalidation before the keys
// came out and the objects were deleted, old assets deleted at once) is shown to give them.
import { describe, expect, test } from 'vitest';
import { deployThroughTheEdges, edgeDeploys, HOUR, NEW_SITE, SETTLE } from './edge-deploy.ts';

/** Steps to kill the deploy before, a sample of each kind (scale/interrupted-deploys.test.ts kills it before every one). */
const KILLED_BEFORE = [
  'upload blog/changed.html',
  `wait ${SETTLE} s`,
  'wait for the invalidation',
  'delete assets/site-AAAAAAAA.css',
];

edgeDeploys(['ordered', 'old-order', 'verified', ...KILLED_BEFORE.map((_, i) => `killed-${i}`)]);

describe('a deploy while the edges catch up with the store and their caches', () => {
  test('in the deploy\'s order, no edge gives a wrong answer during the deploy or in the 48 hours after', async () => {
    const { problems, log, out, err, exit } = await deployThroughTheEdges('ordered', 'ordered');
    expect(err).toEqual([]);
    expect(exit).toBe(0);
    expect(out.join('\n')).toMatch(/asking the site what readers get: \d+ URLs/);
    // The answers as they changed on each edge, once the deploy began.
    console.log(log.filter((l) => !l.startsWith(`t=${-HOUR}s `)).join('\n'));
    expect(problems).toEqual([]);
    expect(out.join('\n')).toContain(`waiting ${SETTLE} s for CloudFront's edges to see the routing keys go before deleting 2 stale objects (--settle)`);
    // What a reader sees on a lagging edge meanwhile: the added page is the fallback, not kept, until the edge has its key.
    expect(log.some((l) => /edge \+25s\/\+90s \/blog\/added: 302 → \/blog$/.test(l))).toBe(true);
    expect(log.some((l) => /edge \+25s\/\+90s \/blog\/added: 200 "Added"$/.test(l))).toBe(true);
  }, 120_000);

  test('site deploy asks the edges what readers get: an edge still serving the old /blog/changed is named, and the deploy exits 1', async () => {
    const { err, exit } = await deployThroughTheEdges('verified', 'ordered', { plant: true });
    expect(exit).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(new RegExp(`^site deploy failed: readers do not get what the build holds, ${SETTLE} s after the deploy's last step:\\n  /blog/changed answered 200 \\(ETag [0-9a-f]{32}\\), where the build expects 200 \\(ETag [0-9a-f]{32}\\)$`));
  }, 120_000);

  test('in the old order, the edges keep a removed page for a day and name a deleted stylesheet', async () => {
    const { problems } = await deployThroughTheEdges('old-order', 'old');
    console.log(`${problems.length} wrong answers in the old order, the first of each kind:\n${[/removed\.html: 200/, /names \/assets/].map((re) => problems.find((p) => re.test(p))).join('\n')}`);
    expect(problems.some((p) => /\/blog\/removed\.html: 200 "Removed", the old site's answer after the deploy said it was done/.test(p))).toBe(true);
    expect(problems.some((p) => /the page names \/assets\/site-AAAAAAAA\.css, which the bucket no longer holds/.test(p))).toBe(true);
  }, 120_000);

  test.each(KILLED_BEFORE.map((step, i) => [step, i] as const))('killed before "%s" and run again ten minutes later: no wrong answer at any edge, the new site everywhere, nothing stale kept', async (step, i) => {
    const run = await deployThroughTheEdges(`killed-${i}`, 'ordered', { killAt: (s) => s === step });
    expect(run.killed).toEqual({ exit: 1, err: [`site deploy failed: Error: killed before ${step}`] });
    expect(run.err).toEqual([]);
    expect(run.exit).toBe(0);
    expect(run.problems).toEqual([]);
    expect(run.bucketKeys).toEqual(NEW_SITE.files);
    expect(run.store).toEqual(NEW_SITE.entries);
  }, 120_000);
});
