import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { BuildResult, PlannedBuild } from '../pipeline/build.ts';
import { describeBuildError } from '../pipeline/errors.ts';
import { formatContentError } from '../content/errors.ts';
import type { RoutingTable } from '../url-resolution/resolve.ts';
import { LIVE_RELOAD_TAG, ReloadChannel } from './live-reload.ts';
import { formatSummary } from '../measure/summary.ts';
import { outputLayout, serveFamilyOf, serveOutDirOf } from '../output/layout.ts';
import { HEADERS_FILE, parseHeadersFile } from '../response-headers.ts';
import { watchFolders } from './watch-folders.ts';
import type { LiveSite } from './live-site.ts';
import { DEFAULT_FORM_ENDPOINT } from '../../forms/names.ts';
import type { LocalFormBackend } from '../../lambda/local-backend.ts';
import { answerSaves, endStartup, startupSaves } from './startup-saves.ts';
import { requestHandler } from './request-handler.ts';
import { isLoopback, ownOrigins } from './own-origins.ts';
import type { ServeState, ServerOptions } from './serve-state.ts';
import { previewContext } from '../cms/preview-context.ts';

export interface RunningServer {
  url: string;
  /** Whether the content manager's local API takes saves (see ServerOptions.cmsWrites). */
  cmsWrites: boolean;
  /** The local form backend, when `forms` is on: its mail viewer, and a way to stop its SES server. */
  forms?: LocalFormBackend;
  close(): Promise<void>;
  rebuild(): Promise<void>;
}

/** How long after listening serve waits for a first request before it loads its form backend and builds (see `settled`). */
const STARTUP_GRACE_MS = 250;

/** The path of a same-origin form endpoint; an absolute URL is served elsewhere. */
function endpointPath(endpoint: string): string | undefined {
  return endpoint.startsWith('/') ? endpoint : undefined;
}

async function readHeaders(state: ServeState): Promise<void> {
  state.headers = parseHeadersFile(await readFile(path.join(state.layout.deployDir, HEADERS_FILE), 'utf8').catch(() => '{}'));
}

/** A whole build. The first reports with the full summary (as `site build` does), rebuilds with one line. */
async function runBuild(state: ServeState, first = false): Promise<void> {
  const { opts, log, session, startup } = state;
  const start = Date.now();
  try {
    // A preview: drafts and scheduled articles are built too, each with its banner.
    // Loaded here, not with the server: it answers from the last build's pages while these load (see `firstBuild`).
    const [{ buildSite }, { LiveSite }, { writeServeRecord }] = await Promise.all([import('../pipeline/build.ts'), import('./live-site.ts'), import('./recorded-saves.ts')]);
    // During the start-up build, requests are answered from the earlier build's pages and, once the build has planned, from its live site.
    const planned = startup && (async (plan: PlannedBuild) => {
      const early = new LiveSite(opts.root, plan, plan.live, session);
      early.warm();
      state.live = early;
      startup.ready(early);
      await opts.firstBuildPlanned?.();
    });
    // Its pages, its routing table and its live site taken together, once its pages are swapped in:
    // a request between the two would resolve a new article's URL by the last table, to /blog.
    const swapped = async (done: PlannedBuild) => {
      state.table = done.table;
      const next = new LiveSite(opts.root, done, done.live, session);
      next.warm();
      // Meanwhile the start-up build's early live site answers: made from the same plan, the same table.
      if (startup) await endStartup(state, startup, next);
      const before = state.live;
      state.live = next;
      state.failure = undefined;
      void before?.close();
      await dropRecorded(state);
      // What the next run answers its first saves from (see recorded-saves.ts).
      await writeServeRecord(state.layout, done).catch((error: unknown) => log(`warning: serve's record of this build not written (the next start answers saves once it has planned): ${error instanceof Error ? error.message : String(error)}`));
      await readHeaders(state);
    };
    if (startup) await opts.firstBuildStarting?.();
    const result: BuildResult = await buildSite({ root: opts.root, outDir: state.outDir, family: state.layout.family, extraHead: LIVE_RELOAD_TAG, preview: true, now: opts.now, session, warn: log, swapped, ...(planned ? { planned } : {}) });
    state.formPath = endpointPath(result.site.settings.formEndpoint) ?? state.formPath;
    state.cmsFacts = { name: result.site.settings.name, url: result.site.settings.url, categories: [...new Set(result.site.posts.flatMap((p) => p.categories ?? []))].sort(), styles: session.assets ? [session.assets.css] : [], preview: previewContext(result.site, result.routes, opts.now ?? new Date()) };
    const stages = Object.entries(result.summary.stages).map(([name, ms]) => `${name} ${Math.round(ms)}`).join(', ');
    log(first ? formatSummary(result.summary) : `built ${result.summary.pages} pages in ${Date.now() - start} ms (${result.redone.rendered} rendered, the rest unchanged; ${stages} ms)`);
    for (const w of result.warnings) log(`warning (a production build stops here): ${formatContentError(w)}`);
    // The index is made after the reload: said only when it fails, or once it is first ready.
    session.search?.then((built) => {
      if (first && built) log(`  search index: ${built.pages} pages, ${built.indexed ? 'indexed' : 'reused from the cache'} in ${Math.round(built.ms)} ms`);
    }, (error: unknown) => log(`search index failed (the search page says so): ${error instanceof Error ? error.message : String(error)}`));
  } catch (error) {
    // Failed before its swap (after it, the start-up saves were handed over with its live site).
    if (startup && state.startup === startup) await endStartup(state, startup, undefined);
    await dropRecorded(state);
    state.failure = describeBuildError(error);
    log(`build failed; the browser shows why:\n  ${state.failure.join('\n  ')}`);
  }
}

/** The pages made from the last run's records go, once the start-up build's own live site answers (or it failed). */
async function dropRecorded(state: ServeState): Promise<void> {
  const { recorded } = state;
  state.recorded = undefined;
  await recorded?.close();
}

/**
 * The saves since the last pass: applied to the live site when each is an article it can take
 * (its page made in memory, the rest of what it changed when asked for), else a build.
 */
async function pass(state: ServeState, first: boolean): Promise<void> {
  const { log, live } = state;
  const rels = [...state.saved];
  // The start-up build's saves are answered beside it (see startup-saves.ts), those made before it started too.
  if (!state.startup) state.saved.clear();
  const build = state.wholeBuild || state.session.codeChanged || !!state.failure || !live;
  // Nothing saved since (the saves were answered during the start-up build): nothing to do.
  if (!build && !rels.length) return;
  state.wholeBuild = false;
  if (!build) {
    const start = performance.now();
    try {
      const applied = await live!.apply(rels, state.opts.now ?? new Date());
      if (!applied && live!.reason) log(`building the site: ${live!.reason}`);
      if (applied) {
        const stages = Object.entries(applied.stages).map(([name, ms]) => `${name} ${Math.round(ms)}`).join(', ');
        return log(`built ${applied.pages} page${applied.pages === 1 ? '' : 's'} in ${Math.round(performance.now() - start)} ms (${applied.rendered} rendered, ${applied.waiting} more when asked for; ${stages} ms)`);
      }
    } catch (error) {
      log(`could not apply ${rels.join(', ')} (${error instanceof Error ? error.message : String(error)}): building the site`);
    }
  }
  await runBuild(state, first);
}

/** One pass at a time; saves made meanwhile make another, and open pages reload after the last. */
function passQueue(state: ServeState): (first?: boolean) => Promise<void> {
  let building: Promise<void> | undefined;
  let again = false;
  return (first = false) => {
    if (building) { again = true; return building; }
    building = (async () => {
      // Again while saves wait: made meanwhile, or left by the start-up build (see endStartup).
      do { again = false; await pass(state, first); first = false; } while (again || state.saved.size);
      building = undefined;
      state.reload.reload();
    })();
    return building;
  };
}

/**
 * The form backend and the first build load a great deal of code, synchronously: begun once the
 * first request is answered (`answered`), or a moment after listening, so that a page asked for as
 * serve starts is answered from the last build's pages rather than after them.
 */
function startupGrace(): { settled: Promise<void>; answered: () => void } {
  let answered = () => {};
  const settled = new Promise<void>((ok) => {
    const timer = setTimeout(ok, STARTUP_GRACE_MS);
    answered = () => { clearTimeout(timer); ok(); };
  });
  return { settled, answered: () => answered() };
}

/** The local form backend, when asked for. Same-origin posts only: the browser's Origin is serve's own, under either loopback name. */
async function startForms(opts: ServerOptions, host: string, port: number): Promise<LocalFormBackend | undefined> {
  if (!opts.forms) return undefined;
  const { startLocalFormBackend } = await import('../../lambda/local-backend.ts');
  // The local SES server on a thread of its own: loading it would hold this one, which answers saves, for half a second.
  return startLocalFormBackend({ allowedOrigins: [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://${host}:${port}`], log: opts.formLog ?? (() => {}), sesOnOwnThread: true, ...opts.formsOptions });
}

/** Watches content/, templates/ and islands/: each save noted, and a pass queued a moment after the last of its events. */
function watchSaves(state: ServeState, queue: () => Promise<void>): { ready: Promise<void>; close(): Promise<void> } | undefined {
  const { opts, log, session } = state;
  if (opts.watch === false) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const watcher = watchFolders(['content', 'templates', 'islands'].map((d) => path.join(opts.root, d)), (file) => {
    const rel = path.relative(opts.root, file);
    if (!rel.startsWith('content' + path.sep)) session.codeChanged = true;
    state.saved.add(rel);
    clearTimeout(timer);
    // Short: a save is often a few events (write, rename) in a millisecond or two, and a pass
    // that starts too early runs once more anyway (see `again` in passQueue).
    timer = setTimeout(() => { log(`changed: ${rel}`); answerSaves(state, queue); }, 10);
  });
  return { ready: watcher.ready, close: async () => { clearTimeout(timer); await watcher.close(); } };
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const layout = opts.outDir ? outputLayout(opts.outDir) : outputLayout(serveOutDirOf(opts.root), serveFamilyOf(opts.root));
  const state: ServeState = {
    opts, log: opts.log ?? (() => {}), outDir: layout.outDir, layout, reload: new ReloadChannel(), session: { codeChanged: false },
    formPath: DEFAULT_FORM_ENDPOINT, saved: new Set(), wholeBuild: true, headers: { default: {}, paths: [] },
  };
  const queue = passQueue(state);
  const rebuild = () => { state.wholeBuild = true; return queue(); };

  // Served while the first build runs, if serve has built before: the pages reload once it is done.
  const deploy = state.layout.deployDir;
  if (opts.prebuilt || existsSync(path.join(deploy, 'routing.json'))) {
    const previous = JSON.parse(await readFile(path.join(deploy, 'routing.json'), 'utf8')) as Partial<RoutingTable>;
    // A table of an older format (its page URLs under `pages`) is not answered from: the first build writes a new one.
    if (Array.isArray(previous.pageUrls)) state.table = previous as RoutingTable;
    await readHeaders(state);
  }
  // Started once the server listens (see below): its synchronous stretches would hold up the listening.
  let startBuild!: () => void;
  const firstBuild = new Promise<void>((resolve) => { startBuild = resolve; }).then(() => (opts.prebuilt ? undefined : queue(true)));

  const handle = requestHandler(state, firstBuild);
  const { settled, answered } = startupGrace();
  const server = http.createServer((req, res) => {
    res.once('finish', answered);
    handle(req, res).catch((error: unknown) => {
      state.log(`error answering ${req.url}: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ok, fail) => { server.once('error', fail); server.listen(opts.port, opts.host, ok); });
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  opts.listening?.(`http://${host}:${port}`);
  state.formsLoading = (async () => {
    if (state.table) await settled;
    return startForms(opts, host, port);
  })();
  // Served from an earlier build while the first runs: a save meanwhile is answered from the last run's
  // records or the build's plan. Watched once the first request is answered, before the form backend
  // and the content manager load: a save made while they load is seen.
  if (state.table) await settled;
  if (state.table && !opts.prebuilt && opts.watch !== false) {
    // Loaded after the first answer, as the build's modules are.
    const { RecordedSaves } = await import('./recorded-saves.ts');
    state.recorded = new RecordedSaves(opts.root, layout);
    state.startup = startupSaves(state.recorded);
  }
  const watcher = watchSaves(state, queue);
  // The folders watched before the first build starts (a few folders listed): a save made during the build is seen.
  await watcher?.ready;
  state.forms = await state.formsLoading;
  const cmsWrites = opts.cms !== false && (isLoopback(opts.host) || opts.cmsWrites === true);
  if (opts.cms !== false) {
    const origins = ownOrigins(opts.host, port);
    const validate = async (contentDir: string) => (await import('../content/load.ts')).loadSite(contentDir);
    // Loaded here, after the first answer, not with the server: its config is made from the schemas (zod).
    const { serveCms } = await import('../cms/serve-cms.ts');
    state.cms = serveCms(opts.root, validate, () => state.cmsFacts, () => origins, state.log, { writes: cmsWrites });
  }

  // The records loaded before the build starts, a save meanwhile answered as soon as they are.
  const warming = state.recorded?.warm();
  if (warming) { const start = performance.now(); await warming; state.log(`answering saves from the last run's records (ready in ${Math.round(performance.now() - start)} ms)`); }
  startBuild();
  await firstBuild;

  return {
    url: `http://${host}:${port}`,
    cmsWrites,
    forms: state.forms,
    rebuild,
    async close() {
      await watcher?.close();
      state.reload.close();
      await state.forms?.close().catch(() => {});
      await state.live?.close();
      await state.session.cards?.close();
      // Nor does a search index a rebuild started go on writing into the cache once serve has stopped.
      await state.session.search?.catch(() => undefined);
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
