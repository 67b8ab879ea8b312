// Saves made while `site serve`'s first build runs over the pages an earlier build left: answered
// from the build's plan as soon as it has one, rather than after the whole build (see server.ts).
import { performance } from 'node:perf_hooks';
import type { LiveSite } from './live-site.ts';

/** What of serve's state the start-up saves read and change. */
export interface SavesState {
  startup?: StartupSaves;
  /** Project-relative paths saved since the last pass. */
  readonly saved: Set<string>;
  readonly session: { readonly codeChanged: boolean };
  readonly opts: { readonly now?: Date };
  readonly log: (line: string) => void;
  readonly reload: { reload(): void };
}

/**
 * Saves made while serve's first build runs, when an earlier build's pages are being served: each is
 * applied to a live site made from the build's site and routes as soon as they are planned, before
 * any page renders (`live`: undefined when the build failed first), so that it reloads at once rather
 * than after the build. The saves applied are applied again to the build's own live site once it is
 * done (it may have read the article before the save).
 */
export interface StartupSaves { live: Promise<LiveSite | undefined>; ready: (live: LiveSite | undefined) => void; applied: Set<string>; chain: Promise<void> }

export function startupSaves(): StartupSaves {
  let ready!: StartupSaves['ready'];
  const live = new Promise<LiveSite | undefined>((resolve) => { ready = resolve; });
  return { live, ready, applied: new Set(), chain: Promise.resolve() };
}

/**
 * The saves noted, answered: during serve's start-up build from its plan, once planned (see
 * StartupSaves), one after another; else, or if a save needs a build (a new article, a template), by a pass.
 */
export function answerSaves(state: SavesState, queue: () => Promise<void>): void {
  const { startup, log } = state;
  if (!startup || state.session.codeChanged) return void queue();
  startup.chain = startup.chain.then(async () => {
    const live = await startup.live;
    const rels = [...state.saved];
    if (!rels.length) return; // taken by an earlier call: a save is often two events
    if (!live || state.startup !== startup) return void queue();
    state.saved.clear();
    const start = performance.now();
    const applied = await live.apply(rels, state.opts.now ?? new Date()).catch(() => undefined);
    if (!applied) {
      for (const rel of rels) state.saved.add(rel);
      log(`building the site once the first build is done: ${live.reason || `${rels.join(', ')} could not be applied`}`);
      return void queue();
    }
    for (const rel of rels) startup.applied.add(rel);
    log(`built ${applied.pages} page${applied.pages === 1 ? '' : 's'} in ${Math.round(performance.now() - start)} ms, while the first build runs (${applied.rendered} rendered)`);
    state.reload.reload();
  });
}

/**
 * The start-up build done (`next`, its live site) or failed: saves go to passes from here on, and those
 * answered from its plan are applied to `next` too, before it answers (it may have read an article
 * before its save); any it cannot take, or all if the build failed, are left for the next pass.
 */
export async function endStartup(state: SavesState, startup: StartupSaves, next: LiveSite | undefined): Promise<void> {
  state.startup = undefined;
  startup.ready(undefined);
  await startup.chain;
  const rels = [...startup.applied];
  const applied = rels.length && next ? await next.apply(rels, state.opts.now ?? new Date()).catch(() => undefined) : undefined;
  if (rels.length && !applied) for (const rel of rels) state.saved.add(rel);
}

