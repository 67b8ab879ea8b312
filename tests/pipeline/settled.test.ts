/**
 * A build that fails has finished with the disk when it reports: nothing it started (the bundles of
 * its code and of the site's islands, run by esbuild beside the content's load) writes into
 * .site/cache/ afterwards, where the next build of `site serve`, or an author clearing the cache,
 * would meet it half-written.
 */
import { appendFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { ContentErrors } from '../../src/content/errors.ts';
import { scratchProject } from '../scratch-project.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';

let dir: string;
beforeAll(async () => { dir = await scratchProject('site-settled-'); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

/** Every file under `folder` with its size and time of change. */
async function snapshot(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return Promise.all(entries.map(async (e) => {
    const file = path.join(e.parentPath, e.name);
    const info = await stat(file);
    return `${path.relative(folder, file)} ${info.size} ${info.mtimeMs}`;
  })).then((lines) => lines.sort());
}

it('has stopped writing to .site/cache/ when it reports a content error', async () => {
  // Built once, then the stylesheet edited: the build's own code is reused, so the content loads at
  // once, while the islands and stylesheet bundle again.
  await buildSite({ root: dir, outDir: path.join(dir, 'dist'), budgets: false });
  await appendFile(path.join(dir, 'templates/styles/site.css'), '\n.settled-test { color: inherit; }\n');
  // And the content has an error: in site.yaml, the first file the load reads.
  await writeFile(path.join(dir, 'content/site.yaml'), 'name: [unclosed\n');
  const error = await buildSite({ root: dir, outDir: path.join(dir, 'dist'), budgets: false }).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ContentErrors);
  const cache = path.join(dir, CACHE_DIR);
  const atReport = await snapshot(cache);
  // Longer than either bundle takes here.
  await sleep(3000);
  expect(await snapshot(cache)).toEqual(atReport);
});
