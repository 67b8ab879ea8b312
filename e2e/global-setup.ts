import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { cmsBundle } from '../src/cms/bundle.ts';
import { buildSite } from '../src/pipeline/build.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../quality/browser.ts';

/**
 * One production build for every e2e file, each file serving it on its own port; and one Chromium,
 * each file connecting to it (a start of Chromium per file cost more than many of the files' tests).
 * `npm test` lends the quality gates' build instead (the same sources, built once): its folder is
 * in SITE_E2E_DIST.
 */
export default async function setup(project: TestProject) {
  // The content manager's bundle, in the project's own cache, for the scratch copies of the tests of
  // /admin to take (scratchProject's `cmsBundle`): made once here, beside Chromium's start, rather
  // than once in each (some ten seconds of esbuild each).
  const [browser] = await Promise.all([chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }), cmsBundle(process.cwd())]);
  project.provide('browserEndpoint', browser.wsEndpoint());
  const lent = process.env.SITE_E2E_DIST;
  let dir: string | undefined;
  if (lent) {
    project.provide('distDir', lent);
  } else {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-e2e-'));
    const outDir = path.join(dir, 'dist');
    await buildSite({ root: process.cwd(), outDir }).catch(async (error: unknown) => { await browser.close(); throw error; });
    project.provide('distDir', outDir);
  }
  return async () => {
    await browser.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext { distDir: string; browserEndpoint: string }
}
