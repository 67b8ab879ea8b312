// Saves made while `site serve`'s first build runs over the pages an earlier build left: answered
// from the last run's records until the build has planned (recorded-saves.ts), then from its plan,
// rather than after the whole build (see server.ts).
import { performance } from 'node:perf_hooks';
import { goAhead } from '../concurrency.ts';
import type { LiveSite } from './live-site.ts';
import type { RecordedSaves } from './recorded-saves.ts';

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
 * Saves made while serve's first build runs, when an earlier build's pages are being served: until
 * the build has planned, each article body saved is answered from the last run's records
 * (`recorded`, whose pages serve answers until the build's own live site does, unless the plan's has
 * a newer one); any other save, and every save once the build has planned, is applied to a live site made
 * from the build's site and routes (`live`: undefined when the build failed first), before any page
 * renders. Either way it reloads at once rather than after the build. The saves applied are applied
 * again to the build's own live site once it is done (it may have read the article before the save).
 */
export interface StartupSaves {
  live: Promise<LiveSite | undefined>; ready: (live: LiveSite | undefined) => void; planned: boolean;
  recorded?: RecordedSaves; applied: Set<string>; chain: Promise<void>;
  /** Saves the records could not answer, answered once the build has planned. */
  waiting?: Promise<void>;
}

export function startupSaves(recorded?: RecordedSaves): StartupSaves {
  const saves: StartupSaves = { live: Promise.resolve(undefined), ready: () => undefined, planned: false, applied: new Set(), chain: Promise.resolve(), ...(recorded ? { recorded } : {}) };
  saves.live = new Promise<LiveSite | undefined>((resolve) => { saves.ready = (live) => { saves.planned = true; resolve(live); }; });
  return saves;
}

/** The saves noted, answered from the last run's records if the build has not planned yet; false if they cannot be (the log says why). */
async function answerFromRecords(state: SavesState, startup: StartupSaves): Promise<boolean> {
  const recorded = startup.recorded!;
  const rels = [...state.saved];
  state.saved.clear();
  const start = performance.now();
  const made = await recorded.apply(rels).catch((error: unknown) => { recorded.reason = error instanceof Error ? error.message : String(error); return undefined; });
  if (!made) {
    for (const rel of rels) state.saved.add(rel);
    state.log(`answered once the first build has planned: ${recorded.reason}`);
    return false;
  }
  for (const rel of rels) startup.applied.add(rel);
  const stages = Object.entries(made.stages).map(([name, ms]) => `${name} ${Math.round(ms)}`).join(', ');
  state.log(`built ${made.pages} page${made.pages === 1 ? '' : 's'} in ${Math.round(performance.now() - start)} ms from the last run's records, while the first build loads (${stages} ms)`);
  state.reload.reload();
  return true;
}

/**
 * The saves noted, answered: during serve's start-up build from the last run's records until it has
 * planned, from its plan once planned (see StartupSaves), one after another; else, or if a save needs
 * a build (a new article, a template), by a pass.
 */
export function answerSaves(state: SavesState, queue: () => Promise<void>): void {
  const { startup, log } = state;
  if (!startup || state.session.codeChanged) return void queue();
  startup.chain = startup.chain.then(async () => {
    if (!state.saved.size) return; // taken by an earlier call: a save is often two events
    if (state.startup === startup && !startup.planned && startup.recorded) {
      // The build's loops wait while the save is answered (never while it waits for the build's plan).
      if (await goAhead(() => answerFromRecords(state, startup))) return;
      // Left for the plan, without holding up the saves after it (a save's second event, once its write is whole, may be answered from the records).
      if (!startup.waiting) startup.waiting = startup.live.then(() => { startup.waiting = undefined; answerSaves(state, queue); });
      return;
    }
    const live = await startup.live;
    const rels = [...state.saved];
    if (!rels.length) return;
    if (!live || state.startup !== startup) return void queue();
    state.saved.clear();
    const start = performance.now();
    const applied = await goAhead(() => live.apply(rels, state.opts.now ?? new Date())).catch(() => undefined);
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

