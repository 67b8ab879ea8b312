/**
 * The lead model's sweep kept in seed ranges (scale/lead-model-ranges.ts): ranges run apart add
 * up to the sweep of all their seeds, and the record says which seeds are still to run, which ran
 * twice, and what broke.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawSchedule, exercised, runSchedule, startModelBackends, type ScheduleResult } from './lead-model.ts';
import { readRanges, recordRange, summarise, type RangeRecord } from '../../scale/lead-model-ranges.ts';

let dir: string;
const results = new Map<number, ScheduleResult>();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'site-lead-ranges-'));
  const backends = await startModelBackends();
  try {
    for (let seed = 1; seed <= 6; seed++) results.set(seed, await runSchedule(backends, drawSchedule(seed)));
  } finally {
    await backends.close();
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A range's record as the script makes it, from the schedules run above. */
const range = (first: number, schedules: number, broken = 0): RangeRecord => ({
  first, schedules, broken,
  figures: exercised(Array.from({ length: schedules }, (_, i) => results.get(first + i)!)),
  commit: 'abc1234', date: '2026-11-30', processes: 2, seconds: 1,
});

describe('the lead model’s sweep in seed ranges', () => {
  it('adds ranges run apart up to the figures of one sweep over all their seeds', () => {
    const summary = summarise([range(4, 3), range(1, 3)], 6);
    expect(summary.figures).toEqual(exercised([...results.values()]));
    expect(summary).toMatchObject({ covered: [[1, 6]], gaps: [], overlaps: [], broken: 0 });
  });

  it('names the seeds still to run, the seeds run twice and what broke', () => {
    const summary = summarise([range(1, 2, 1), range(2, 2), range(5, 1)], 8);
    expect(summary.gaps).toEqual([[4, 4], [6, 8]]);
    expect(summary.overlaps).toEqual(['seeds 2–3 overlap seeds 1–2']);
    expect(summary.broken).toBe(1);
    // Six schedules fall short of the bar (each range holds it alone, too): the shortfalls say so.
    expect(summary.shortfalls.length).toBeGreaterThan(0);
  });

  it('keeps each range in the record file, in seed order, and refuses one that overlaps a range kept', async () => {
    const file = path.join(dir, 'ranges.json');
    await recordRange(range(4, 3), file);
    await recordRange(range(1, 3), file);
    expect((await readRanges(file)).map((r) => r.first)).toEqual([1, 4]);
    await expect(recordRange(range(3, 2), file)).rejects.toThrow(/seeds 3–4 overlap the range kept from 1/);
    expect(JSON.parse(await readFile(file, 'utf8'))).toHaveLength(2);
  });
});
