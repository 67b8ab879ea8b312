import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSite } from '../src/pipeline/build.ts';

/** One production build for every e2e file; each file serves it on its own port. */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'site-e2e-'));
  const outDir = path.join(dir, 'dist');
  await buildSite({ root: process.cwd(), outDir });
  project.provide('distDir', outDir);
  return async () => { await rm(dir, { recursive: true, force: true }); };
}

declare module 'vitest' {
  export interface ProvidedContext { distDir: string }
}
