import path from 'node:path';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { build } from 'esbuild';
import type { Route } from '../routes/table.ts';
import type { RenderContext } from '../page-api/site-context.tsx';
import type { RenderedPage } from './page.tsx';

export type Renderer = (route: Route, ctx: RenderContext) => RenderedPage;

let generation = 0;

/**
 * Bundles the templates with esbuild and imports the result as a fresh module, so a long-running
 * `site serve` renders with the templates as they are on disk now. React stays external and shared.
 */
export async function loadRenderer(root: string): Promise<Renderer> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/render/server-entry.tsx'],
    bundle: true, write: false, platform: 'node', format: 'esm', target: 'node20',
    packages: 'external', jsx: 'automatic', logLevel: 'silent', sourcemap: 'inline',
    loader: { '.css': 'empty' },
  });
  const dir = path.join(root, '.site-cache');
  await mkdir(dir, { recursive: true });
  // Unique per call: worker threads share a pid, and each rebuild needs a fresh module.
  const file = path.join(dir, `render-${process.pid}-${++generation}-${randomUUID().slice(0, 8)}.mjs`);
  await writeFile(file, result.outputFiles[0]!.contents);
  try {
    const mod = (await import(pathToFileURL(file).href)) as { render: Renderer };
    return mod.render;
  } finally {
    await rm(file, { force: true });
  }
}
