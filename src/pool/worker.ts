/**
 * A worker thread of the build's pool, bundled fresh for each build (see code.ts): it parses
 * markdown files and renders pages, plain data in and out, until it is closed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { parseMarkdownFile, type MarkdownJob } from '../content/markdown-file.ts';
import type { Route } from '../routes/table.ts';
import type { RenderContext } from '../page-api/site-context.tsx';

export type Task =
  | { kind: 'gzip'; data: Uint8Array }
  | { kind: 'markdown'; jobs: MarkdownJob[] }
  | { kind: 'render'; routes: Route[]; ctx: Omit<RenderContext, 'url'> };

/** What the pool tells each worker: where the bundled renderer (the templates and React) is. */
export interface WorkerData { renderUrl: string }

type Renderer = typeof import('../render/server-entry.tsx');

/**
 * The renderer is imported when first needed, or as soon as the worker has been idle a moment: a
 * build parses markdown first, and loading React and the templates before that (a second or so of
 * module loading on a busy machine) kept the first markdown files waiting. Idle moments come while
 * the main thread checks the parsed content and plans the routes.
 */
let renderer: Promise<Renderer> | undefined;
const loadRenderer = () => (renderer ??= import((workerData as WorkerData).renderUrl) as Promise<Renderer>);
const WARM_AFTER_IDLE_MS = 50;
let warm: NodeJS.Timeout | undefined;
const warmWhenIdle = () => { clearTimeout(warm); if (!renderer) warm = setTimeout(loadRenderer, WARM_AFTER_IDLE_MS); };

async function run(task: Task): Promise<unknown[]> {
  if (task.kind === 'gzip') return [gzipSync(task.data, { level: 9 }).byteLength];
  if (task.kind === 'markdown') return Promise.all(task.jobs.map(parseMarkdownFile));
  const { render } = await loadRenderer();
  // The route goes back without its props: the main thread has them already.
  return task.routes.map((route) => { const { head, body, islands, images, preload } = render(route, { ...task.ctx, url: route.url }); return { head, body, islands, images, preload }; });
}

parentPort?.on('message', (message: { id: number; task: Task }) => {
  clearTimeout(warm);
  run(message.task).then(
    (results) => parentPort!.postMessage({ id: message.id, results }),
    (error: unknown) => parentPort!.postMessage({ id: message.id, error: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) }),
  ).finally(warmWhenIdle);
});
warmWhenIdle();
