// One sender at a time, over a thousand random schedules: the model of tests/lambda/lead-model.ts
// (the handler, two mailer runs, `site leads resend --unsent` and `--id`, SES's events, in a seeded
// random order, with at most one fault each) against dynalite and aws-ses-v2-local through the
// real SDK clients. Every lead reaches the inbox once SES works; never twice without the "may
// already have arrived" marker; at most twice under one fault; none stays unsent without an alarm.
// `npx tsx scripts/lead-model.ts 20000` runs it longer. LEAD_MODEL_SCHEDULES sets the count here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenInvariants, drawSchedule, FAULTS, runSchedule, startModelBackends, type ModelBackends } from './lead-model.ts';

const SCHEDULES = Number(process.env.LEAD_MODEL_SCHEDULES ?? 1000);

let backends: ModelBackends;
beforeAll(async () => { backends = await startModelBackends(); });
afterAll(() => backends?.close());

describe('the lead model', () => {
  it(`keeps every invariant over ${SCHEDULES} seeded schedules, each fault among them`, async () => {
    const broken: string[] = [];
    const faults = new Map<string, number>();
    for (let seed = 1; seed <= SCHEDULES; seed += 1) {
      const result = await runSchedule(backends, drawSchedule(seed));
      faults.set(result.schedule.fault, (faults.get(result.schedule.fault) ?? 0) + 1);
      for (const problem of brokenInvariants(result)) broken.push(`seed ${seed} (${result.schedule.fault}): ${problem}; order ${result.trace.join(' ')}`);
    }
    expect(broken).toEqual([]);
    // Every fault was drawn, and often: the schedules are not all the easy one.
    for (const fault of FAULTS) expect(faults.get(fault) ?? 0, fault).toBeGreaterThan(SCHEDULES / 20);
  }, 1_800_000);
});
