import { describe, expect, it, vi } from 'vitest';
import { mapLimit, sideBySide, turnTaker } from '../src/concurrency.ts';

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
