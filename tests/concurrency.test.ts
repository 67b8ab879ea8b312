import { describe, expect, it, vi } from 'vitest';
import { goAhead, mapLimit, sideBySide, timeSlicer, turnTaker } from '../src/concurrency.ts';

describe('turnTaker', () => {
  it('lets the event loop run during a long loop of synchronous work, every lane pausing for it', async () => {
    const turn = turnTaker(32);
    // Where the loop had got to each time the event loop had a turn (a worker's message, say, waiting for it).
    const seen: number[] = [];
    let done = 0;
    let stop = false;
    const tick = () => setImmediate(() => { seen.push(done); if (!stop) tick(); });
    tick();
    await mapLimit(Array.from({ length: 1000 }, (_, i) => i), 48, async () => { await turn(); done++; });
    stop = true;
    // Without it, 48 lanes of microtasks run the whole loop before any other callback: seen would be [0, 1000].
    // With it, a turn comes after at most 32 calls more than the lanes that were waiting for the last one.
    const steps = seen.slice(1).map((n, i) => n - seen[i]!);
    expect(Math.max(...steps)).toBeLessThanOrEqual(32 + 48);
    expect(seen.length).toBeGreaterThanOrEqual(Math.floor(1000 / (32 + 48)));
    expect(done).toBe(1000);
  });

  it('costs nothing between turns', () => {
    const turn = turnTaker(4);
    expect([turn(), turn(), turn()]).toEqual([undefined, undefined, undefined]);
    expect(turn()).toBeInstanceOf(Promise);
  });
});

/** Where a loop had got to each time the event loop had a turn (a save or a request waiting on the thread, say). */
function turnsSeen(progress: () => number): { seen: number[]; stop: () => void } {
  const seen: number[] = [];
  let stopped = false;
  const tick = () => setImmediate(() => { seen.push(progress()); if (!stopped) tick(); });
  tick();
  return { seen, stop: () => { stopped = true; } };
}
/** How far the loop went between one turn and the next, from its start to its end. */
const steps = (seen: number[], end: number) => [0, ...seen, end].slice(1).map((n, i, all) => n - (i ? all[i - 1]! : 0));

describe('timeSlicer', () => {
  it('gives the event loop a turn once a slice of work has passed, every lane pausing for it', async () => {
    let now = 0;
    const pause = timeSlicer(20, () => now);
    let done = 0;
    const turns = turnsSeen(() => done);
    // Each item takes a millisecond of the slicer's clock; the lanes never wait on anything else.
    const items = Array.from({ length: 1000 }, (_, i) => i);
    await mapLimit(items, 48, async () => { now += 1; done++; const p = pause(); if (p) await p; });
    turns.stop();
    expect(done).toBe(1000);
    // A turn after at most a slice's items more than the lanes that were waiting for the last one.
    expect(Math.max(...steps(turns.seen, done))).toBeLessThanOrEqual(20 + 48);
    expect(turns.seen.length).toBeGreaterThanOrEqual(Math.floor(1000 / (20 + 48)));
  });

  it('costs nothing within a slice, and gives one turn to every caller waiting', async () => {
    let now = 0;
    const pause = timeSlicer(20, () => now);
    now = 19;
    expect([pause(), pause()]).toEqual([undefined, undefined]);
    now = 20;
    const turn = pause();
    expect(turn).toBeInstanceOf(Promise);
    expect(pause()).toBe(turn);
    await turn;
    // The slice starts again at the turn.
    expect(pause()).toBeUndefined();
  });
});

describe('mapLimit', () => {
  it('pauses its lanes for the event loop when the items hold the thread, as loading ten thousand articles from memory does', async () => {
    let done = 0;
    const turns = turnsSeen(() => done);
    // Each item holds the thread a millisecond by the real clock, and answers at once.
    const busy = () => { const until = performance.now() + 1; while (performance.now() < until) { /* the thread held */ } };
    await mapLimit(Array.from({ length: 300 }, (_, i) => i), 48, async () => { busy(); done++; });
    turns.stop();
    expect(done).toBe(300);
    // Without the pauses, no turn would come until every item was done.
    expect(Math.max(...steps(turns.seen, done))).toBeLessThanOrEqual(20 + 48);
  });
});

describe('goAhead', () => {
  it("holds every sliced loop at its next turn while the work runs, the work's own loops running on", async () => {
    let now = 0;
    const pause = timeSlicer(20, () => now);
    const events: string[] = [];
    let loopDone = 0;
    // A build's loop: a millisecond of the clock an item, pausing when the slicer says.
    const loop = (async () => {
      for (let i = 0; i < 200; i++) { now += 1; loopDone++; const p = pause(); if (p) await p; }
      events.push('loop done');
    })();
    // A save's answer, begun once the loop has run a while: its own loop over 100 items, waiting on timers between.
    await new Promise((resolve) => setImmediate(resolve));
    const atStart = loopDone;
    const work = goAhead(async () => {
      let inner = 0;
      await mapLimit(Array.from({ length: 100 }, (_, i) => i), 4, async () => { now += 1; inner++; const p = pause(); if (p) await p; });
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push(`work done, ${inner} items`);
    });
    await work;
    // The build's loop took no more than the turn it was in while the work ran.
    expect(loopDone - atStart).toBeLessThanOrEqual(20);
    await loop;
    expect(events).toEqual(['work done, 100 items', 'loop done']);
    expect(loopDone).toBe(200);
  });
});

describe('sideBySide', () => {
  const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
  const failAfter = (ms: number, message: string) => new Promise<never>((_, reject) => setTimeout(() => reject(new Error(message)), ms));

  it("gives every task's result in the tasks' order, whichever ends first", async () => {
    const stop = vi.fn();
    expect(await sideBySide<[string, number]>([after(20, 'slow'), after(1, 2)], stop)).toEqual(['slow', 2]);
    expect(stop).not.toHaveBeenCalled();
  });

  it('stops the rest at the first failure, waits for them to settle, then throws that first failure', async () => {
    const events: string[] = [];
    const stop = vi.fn(() => events.push('stop'));
    const slow = after(30, 'slow').then((v) => { events.push('slow settled'); return v; });
    const run = sideBySide<[string, never, never]>([slow, failAfter(1, 'first'), failAfter(10, 'second')], stop);
    await expect(run).rejects.toThrow('first');
    // Nothing of the failed build is still running once its error is reported.
    expect(events).toEqual(['stop', 'slow settled']);
    expect(stop).toHaveBeenCalledTimes(1);
  });
});
