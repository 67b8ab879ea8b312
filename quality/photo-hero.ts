import path from 'node:path';
import { buildSite } from '../src/pipeline/build.ts';
import { startServer, type RunningServer } from '../src/serve/server.ts';
import type { Budgets } from '../src/measure/budgets.ts';
import { photoHeroContent } from './photo-fixture.ts';

/**
 * The site with the fixture phone photo as the home hero, built into `work` (held to the same
 * budgets; its variants cached in .site/cache like any build's) and served on a free port: the
 * home page as an author's 4 MB photo makes it, for Lighthouse.
 */
export async function servePhotoHero(opts: { root: string; work: string; budgets: Budgets }): Promise<RunningServer> {
  const dir = path.join(opts.work, 'photo-hero');
  const { contentDir } = await photoHeroContent(opts.root, dir);
  const outDir = path.join(dir, 'dist');
  await buildSite({ root: opts.root, contentDir, outDir, budgets: opts.budgets });
  return startServer({ root: opts.root, outDir, port: 0, host: '127.0.0.1', watch: false, prebuilt: true });
}
