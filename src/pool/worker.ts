/**
 * A worker thread of the build's pool, bundled fresh with the templates for each build (see
 * code.ts): it parses markdown files, renders pages and draws share cards, plain data in and out, until it is closed.
 */
import { parentPort } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { parseMarkdownFile, type MarkdownJob } from '../content/markdown-file.ts';
import { render } from '../render/server-entry.tsx';
import { drawCard } from '../cards/draw.tsx';
import type { CardJob } from '../cards/plan.ts';
import { mapLimit } from '../concurrency.ts';
import type { Route } from '../routes/table.ts';
import type { RenderContext } from '../page-api/site-context.tsx';

export type Task =
  | { kind: 'gzip'; data: Uint8Array }
  | { kind: 'markdown'; jobs: MarkdownJob[] }
  | { kind: 'cards'; jobs: CardJob[] }
  | { kind: 'render'; routes: Route[]; ctx: Omit<RenderContext, 'url'> };

async function run(task: Task): Promise<unknown[]> {
  if (task.kind === 'gzip') return [gzipSync(task.data, { level: 9 }).byteLength];
  if (task.kind === 'markdown') return Promise.all(task.jobs.map(parseMarkdownFile));
  // Two at a time (satori's layout beside sharp's raster), not the whole batch: each card in flight holds megabytes of pixels.
  if (task.kind === 'cards') return mapLimit(task.jobs, 2, drawCard);
  // The route goes back without its props: the main thread has them already.
  return task.routes.map((route) => { const { head, body, islands, images, preload } = render(route, { ...task.ctx, url: route.url }); return { head, body, islands, images, preload }; });
}

parentPort?.on('message', (message: { id: number; task: Task }) => {
  run(message.task).then(
    (results) => parentPort!.postMessage({ id: message.id, results }),
    (error: unknown) => parentPort!.postMessage({ id: message.id, error: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) }),
  );
});
