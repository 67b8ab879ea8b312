/**
 * A worker thread of the build's pool, bundled fresh for each build (see code.ts): it parses
 * markdown files, renders pages (and writes their documents) and draws share cards, plain data in and out, until it is closed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parseMarkdownFile } from '../content/markdown-file.ts';
import type { MarkdownJob, ParsedMarkdownFile } from '../content/markdown-job.ts';
import type { CardJob } from '../cards/plan.ts';
import { mapLimit } from '../concurrency.ts';
import type { PagesTask, UnwrittenPage } from '../render/page-output.ts';
import { BOOT_DATA } from './boot.ts';

export type Task =
  | { kind: 'markdown'; jobs: MarkdownJob[] }
  | { kind: 'cards'; jobs: CardJob[] }
  | { kind: 'pages'; task: PagesTask };

/** What the pool tells each worker: where the bundled renderer (the templates and React) and card drawer are. */
export interface WorkerData { renderUrl: string; cardsUrl: string }

/** In workerData, or, for a worker started before the code was bundled, where boot.ts put it. */
const data = ((globalThis as Record<symbol, unknown>)[BOOT_DATA] as WorkerData | undefined) ?? (workerData as WorkerData);

type Renderer = typeof import('../render/server-entry.tsx');
type Drawer = typeof import('../cards/draw.tsx');
/** takumi and the fonts load only in a worker that is handed a card to draw. */
let drawer: Promise<Drawer> | undefined;
const loadDrawer = () => (drawer ??= import(data.cardsUrl) as Promise<Drawer>);

/**
 * The renderer is imported when first needed, or as soon as the worker has been idle a moment: a
 * build parses markdown first, and loading React and the templates before that (a second or so of
 * module loading on a busy machine) kept the first markdown files waiting. Idle moments come while
 * the main thread checks the parsed content and plans the routes.
 */
let renderer: Promise<Renderer> | undefined;
const loadRenderer = () => (renderer ??= import(data.renderUrl) as Promise<Renderer>);
const WARM_AFTER_IDLE_MS = 50;
let warm: NodeJS.Timeout | undefined;
const warmWhenIdle = () => { clearTimeout(warm); if (!renderer) warm = setTimeout(loadRenderer, WARM_AFTER_IDLE_MS); };

async function run(task: Task): Promise<unknown[]> {
  if (task.kind === 'markdown') return Promise.all(task.jobs.map(parseMarkdownFile));
  // Two at a time, not the whole batch: each card in flight holds megabytes of pixels.
  if (task.kind === 'cards') { const { drawCard } = await loadDrawer(); return mapLimit(task.jobs, 2, drawCard); }
  return (await loadRenderer()).makePages(task.task);
}

/**
 * The buffers made here, each of its own (see pack-value.ts): an article body's cache entry and a
 * page's document handed back. Handed over, not copied.
 */
const transferOf = (results: unknown[]) => results.flatMap((r) => {
  const bytes = (r as Partial<ParsedMarkdownFile>).bodyEntry ?? (r as Partial<UnwrittenPage>).document;
  return bytes ? [bytes.buffer as ArrayBuffer] : [];
});

parentPort?.on('message', (message: { id: number; task: Task }) => {
  clearTimeout(warm);
  run(message.task).then(
    (results) => parentPort!.postMessage({ id: message.id, results }, transferOf(results)),
    (error: unknown) => parentPort!.postMessage({ id: message.id, error: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) }),
  ).finally(warmWhenIdle);
});
warmWhenIdle();
// Tasks come only once the module is here to take them.
parentPort?.postMessage({ ready: true });
