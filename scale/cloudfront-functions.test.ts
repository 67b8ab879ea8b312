// Every route of a 10,000-article routing table through the CloudFront functions in njs, each
// answer compared with site serve's (resolve()). `npm test` asks a covering sample of the same
// routes (tests/infra/cloudfront-functions.test.ts).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildSite } from '../src/pipeline/build.ts';
import { deployDirFor } from '../src/output/layout.ts';
import type { RoutingTable } from '../src/url-resolution/resolve.ts';
import { all, sweepFunctions, TABLE_OF_URLS } from '../tests/infra/functions-sweep.ts';
import { njsVersion } from '../src/url-resolution/njs-runtime.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
let work: string;
let table: RoutingTable;
let source: { request: string; response: string };

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'site-cf-sweep-'));
  const dist = path.join(work, 'dist');
  await buildSite({ root: ROOT, outDir: dist });
  table = JSON.parse(await readFile(path.join(deployDirFor(dist), 'routing.json'), 'utf8')) as RoutingTable;
  source = {
    request: await readFile(path.join(deployDirFor(dist), 'cloudfront/viewer-request.js'), 'utf8'),
    response: await readFile(path.join(deployDirFor(dist), 'cloudfront/viewer-response.js'), 'utf8'),
  };
});
afterAll(async () => { await rm(work, { recursive: true, force: true }); });

test('at 10,000 articles every route answers in njs as site serve does', async () => {
  const { compared, ms } = await sweepFunctions(ROOT, table, 10_000, TABLE_OF_URLS, all, source);
  expect(compared).toBeGreaterThan(55_000);
  console.log(`njs ${await njsVersion()}: ${compared} routes compared with resolve() at 10,000 articles in ${(ms / 1000).toFixed(1)} s`);
});
