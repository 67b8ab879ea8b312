// `npm test` runs its steps side by side only as far as the free cores allow (quality/cores.ts).
import { describe, expect, it } from 'vitest';
import { Cores, freeCores, measureBudget } from '../../quality/cores.ts';

/** Whether a promise has settled once the work queued so far has run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => { done = true; });
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('shares of the free cores', () => {
  it('starts a step beside others only while the shares fit the budget', async () => {
    const cores = new Cores(2);
    const a = await cores.take(1);
    const b = await cores.take(0.5);
    const c = cores.take(1);
    expect(await settled(c)).toBe(false); // 1 + 0.5 + 1 > 2
    b.release();
    expect(await settled(c)).toBe(true); // 1 + 1 fits
    expect(cores.holding).toEqual({ steps: 2, cores: 2 });
    a.release();
    (await c).release();
    expect(cores.holding).toEqual({ steps: 0, cores: 0 });
    expect(cores.peak).toBe(2);
  });

  it('serves in the order asked: a large step is not passed over by smaller ones behind it', async () => {
    const cores = new Cores(2);
    const a = await cores.take(1);
    const large = cores.take(2);
    const small = cores.take(0.5);
    expect(await settled(large)).toBe(false);
    expect(await settled(small)).toBe(false); // it would fit, but the large one asked first
    a.release();
    expect(await settled(large)).toBe(true);
    expect(await settled(small)).toBe(false);
    (await large).release();
    expect(await settled(small)).toBe(true);
  });

  it('runs a step larger than the budget, alone, rather than never', async () => {
    const cores = new Cores(1);
    const all = cores.take(3);
    expect(await settled(all)).toBe(true);
    const next = cores.take(0.1);
    expect(await settled(next)).toBe(false);
    (await all).release();
    (await all).release(); // a second release changes nothing
    expect(await settled(next)).toBe(true);
    expect(cores.holding).toEqual({ steps: 1, cores: 0.1 });
  });
});

describe('the budget', () => {
  it('leaves out each core that other work kept busy, and always leaves one', () => {
    expect(freeCores(2, 0)).toBe(2);
    expect(freeCores(2, 0.6)).toBe(2); // a core now and then is not taken
    expect(freeCores(2, 1)).toBe(1); // stress-ng --cpu 1
    expect(freeCores(2, 5)).toBe(1); // a machine busy beyond its cores still runs the suite
    expect(freeCores(8, 2.9)).toBe(5);
  });

  it('is measured on this machine: between one core and all of them', async () => {
    const budget = await measureBudget();
    expect(budget.free).toBeGreaterThanOrEqual(1);
    expect(budget.free).toBeLessThanOrEqual(budget.cores);
  });
});
