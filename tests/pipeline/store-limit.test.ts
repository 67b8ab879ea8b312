/**
 * The routing entries go into a CloudFront KeyValueStore, whose limits the service states: a build
 * whose entries it would refuse fails (exit 1), one line per problem naming the page, and leaves
 * dist/ as it was; a build within them says in its summary how much of the store it takes.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCommand } from '../../src/pipeline/build-command.ts';
import { STORE_LIMITS } from '../../src/url-resolution/store-data.ts';
import { editFile, filesOf, scratchProject } from '../scratch-project.ts';

let dir: string;
beforeAll(async () => { dir = await scratchProject('site-store-limit-', { seeded: true }); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

async function build(): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await buildCommand({ root: dir, out: path.join(dir, 'dist'), clockFrom: '--now', jsonSummary: false, search: false }, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out, err };
}

it('states the store\'s size and headroom, and refuses a page whose URL is over the key limit: exit 1, the page named, dist/ as it was', async () => {
  const first = await build();
  expect(first.code).toBe(0);
  expect(first.err).toEqual([]);
  const summary = first.out.join('\n');
  expect(summary).toMatch(/routing store: \d+ entries, [\d.]+ KB of the CloudFront KeyValueStore's 5\.0 MB \(\d+\.\d%\), [\d.]+ MB to spare/);
  expect(summary).not.toMatch(/warning/i);
  const before = await filesOf(path.join(dir, 'dist'));

  // A category's page is /blog/category/<its name as a slug>: a 600-letter name makes a key over 512 bytes.
  const long = 'Data '.repeat(120).trim();
  await editFile(dir, 'content/blog/what-is-data.md', (s) => s.replace('  - Data Culture\n', `  - Data Culture\n  - ${long}\n`));
  const second = await build();
  expect(second.code).toBe(1);
  const url = `/blog/category/${'data-'.repeat(119)}data`;
  expect(second.err).toEqual([
    `error: ${url.slice(0, 80)}…: its URL is ${url.length} bytes, and the CloudFront KeyValueStore takes keys of at most ${STORE_LIMITS.keyBytes}; give it a shorter slug`,
    'build stopped: 1 routing entry the CloudFront KeyValueStore would refuse (dist/ left as it was)',
  ]);
  expect(await filesOf(path.join(dir, 'dist'))).toEqual(before);
}, 180_000);
