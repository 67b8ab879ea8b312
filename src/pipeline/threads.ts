// The build's threads and processes besides its main thread: the worker pool and the card process,
// started as early as each can be useful, and stopped together.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BuildCache } from '../cache/build-cache.ts';
import { CardProcess } from '../cards/card-process.ts';
import { markdownFileCount, type ParseMarkdown } from '../content/load.ts';
import { isArticleFile, parseJob } from '../content/markdown-job.ts';
import { parseMarkdownFile } from '../content/markdown-file.ts';
import { BuildWorkers } from '../pool/build-workers.ts';
import type { BuildCode } from '../pool/code.ts';

/** What of a build's run its threads need: where the project and its cache are, the pool's threshold, serve's BuildSession. */
export interface ThreadsRun {
  root: string; contentDir: string; cacheDir: string; poolThreshold?: number;
  /** serve's, which keeps its card process from one build to the next. */
  session?: { cards?: CardProcess };
}

/**
 * The worker threads, made once the build's code is bundled; a build with many markdown files the
 * cache does not hold (not serve's, whose saves touch a few) starts them at once, so that they load
 * the packages the code imports while esbuild bundles it. `parse` is the load's: a project whose code
 * cannot be bundled still has its content checked, with the parser built into the generator, since a
 * content error is the more useful report. The card process is serve's, kept from one build to the
 * next, else this build's: started at once on a small site's first build (no cards cached), so that
 * it loads beside esbuild, or else when a card is first to be drawn.
 */
export function startThreads(run: ThreadsRun, cache: BuildCache, codeReady: Promise<BuildCode | Error>) {
  const early = run.session ? undefined : markdownFileCount(run.contentDir)
    .then((count) => BuildWorkers.startEarly(run.root, count - cache.markdownEntries, run.poolThreshold)).catch(() => undefined);
  let own: CardProcess | undefined;
  let stopped = false;
  const drawer = () => (run.session ? (run.session.cards ??= new CardProcess()) : (own ??= new CardProcess()));
  // A large site's cards are drawn by the pool, so only a small site's first build starts it at once.
  if (early && !existsSync(path.join(run.cacheDir, 'cards'))) {
    void early.then((pool) => {
      if (pool || stopped) return;
      const cards = drawer();
      void codeReady.then((code) => { if (!(code instanceof Error)) cards.load(code.cardsUrl); });
    });
  }
  let workers: BuildWorkers | undefined;
  // serve's thread answers the browser while it builds: only `site build`'s helps its workers.
  const forCode = async (code: BuildCode) => (workers ??= new BuildWorkers(code, run.poolThreshold, await early, drawer, !run.session));
  const parse: ParseMarkdown = async (jobs) => {
    const code = await codeReady;
    if (code instanceof Error) return Promise.all(jobs.map((job) => parseMarkdownFile(parseJob(job))));
    const pool = await forCode(code);
    return cache.parse(jobs, code.markdownHash, (missing) => pool.parse(missing), (job) => isArticleFile(job.rel));
  };
  return {
    parse, forCode,
    get startedOnce() { return workers?.startedOnce ?? false; },
    /** Stops the workers, a pool started early but never handed its code (the code did not bundle), and this build's card process; settles once that process has gone. */
    stop: (): Promise<void> => { stopped = true; void workers?.close(); void early?.then((pool) => pool?.close()); return own?.close() ?? Promise.resolve(); },
  };
}
