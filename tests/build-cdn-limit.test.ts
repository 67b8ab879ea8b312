/**
 * The routing functions hold every page's URL, and CloudFront takes none over 10 KB: a blog that
 * outgrows them hears it from `site build`, not first from a failed deploy.
 */
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSite } from '../src/build.ts';
import { FUNCTION_SIZE_LIMIT } from '../src/routing/cloudfront-functions.ts';
import { scratchProject } from './scratch-project.ts';

let dir: string;
beforeAll(async () => { dir = await scratchProject('site-cdn-limit-'); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

async function build(): Promise<string[]> {
  const lines: string[] = [];
  await buildSite({ root: dir, outDir: path.join(dir, 'dist'), budgets: false, warn: (line) => lines.push(line) });
  return lines;
}

it('warns, naming the file, its size and the page count, once the request function is over 10 KB', async () => {
  expect(await build()).toEqual([]);
  const request = path.join(dir, 'build/cloudfront/viewer-request.js');
  expect((await stat(request)).size).toBeLessThan(FUNCTION_SIZE_LIMIT);

  // 200 more articles, each the first one under a slug of its own (one title: one share card to draw).
  const source = await readFile(path.join(dir, 'content/blog/what-is-data.md'), 'utf8');
  for (let i = 0; i < 200; i++) await writeFile(path.join(dir, `content/blog/a-longer-article-slug-of-the-kind-authors-write-${i}.md`), source);
  const warnings = await build();
  const size = (await stat(request)).size;
  expect(size).toBeGreaterThanOrEqual(FUNCTION_SIZE_LIMIT);
  const table = JSON.parse(await readFile(path.join(dir, 'build/routing.json'), 'utf8')) as { pages: string[] };
  expect(warnings.filter((line) => line.includes('viewer-request.js'))).toEqual([`warning: build/cloudfront/viewer-request.js is ${(size / 1024).toFixed(1)} KB, and CloudFront Functions must be under 10 KB: the infrastructure (infra/) will not deploy this build. The routing functions hold the URL of every page (${table.pages.length} in this build); see docs/owners.md, "When something goes wrong".`]);
}, 120_000);
