// The lead model's full sweep (tests/lambda/lead-model.ts): LEAD_MODEL_SCHEDULES drawn schedules
// (100,000 by default) from seed 1, each with none, one or two of production's faults, in a seeded
// random order, against dynalite and aws-ses-v2-local through the real SDK clients, in one process
// per core, each with its own servers (tests/lambda/lead-model-sweep.ts; LEAD_MODEL_PROCESSES sets
// how many). `npm test` runs its covering sample (tests/lambda/one-sender.test.ts). Every invariant
// holds in every schedule, and the sweep exercised what it claims: each fault kind fired at least
// 95% of the times it was drawn, at least 10% of schedules made a second send attempt, at least 20%
// raced three actors on one lead. `npx tsx scripts/lead-model.ts N` runs the same from the command
// line, printing the figures.
import { describe, expect, it } from 'vitest';
import { exercised, shortfalls, type ScheduleResult } from '../tests/lambda/lead-model.ts';
import { sweep } from '../tests/lambda/lead-model-sweep.ts';

const SCHEDULES = Number(process.env.LEAD_MODEL_SCHEDULES ?? 100_000);
const PROCESSES = process.env.LEAD_MODEL_PROCESSES ? Number(process.env.LEAD_MODEL_PROCESSES) : undefined;
// The hang guard scales with the sweep: a schedule costs about 0.25 s of CPU (0.4 s with the
// servers' system time), so 100,000 take 3-6 hours on two cores; ten times that per schedule
// on one core is 4 s.
const GUARD_MS = Math.max(3_600_000, SCHEDULES * 4_000);

describe('the lead model, the full sweep', () => {
  it(`keeps every invariant over ${SCHEDULES} seeded schedules, and exercised what it claims`, async () => {
    const broken: string[] = [];
    const results: ScheduleResult[] = [];
    await sweep(1, SCHEDULES, ({ result, broken: problems }) => {
      results.push({ ...result, trace: [] });
      for (const problem of problems) broken.push(`seed ${result.schedule.seed} (${result.schedule.faults.map((f) => `${f.kind}@${f.actor}`).join(', ')}): ${problem}; order ${result.trace.join(' ')}`);
    }, PROCESSES);
    expect(results).toHaveLength(SCHEDULES);
    expect(broken).toEqual([]);
    expect(shortfalls(exercised(results))).toEqual([]);
  }, GUARD_MS);
});
