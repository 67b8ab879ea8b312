/** The unit tests' global set-up: the seed whose cache project copies take (seed-cache.ts). */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSite } from '../../src/pipeline/build.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';
import { scratchProject } from '../scratch-project.ts';

export default async function setup(project: TestProject) {
  const root = await scratchProject('site-seed-');
  await buildSite({ root, outDir: path.join(root, 'dist'), budgets: false });
  project.provide('seedCache', path.join(root, CACHE_DIR));
  return () => rm(root, { recursive: true, force: true });
}
