// One sender at a time, over a covering sample of the lead model (tests/lambda/lead-model.ts): every
// fault kind aimed at every actor it can strike (the handler, two mailer runs, `site leads resend
// --unsent` and `--id`, SES's events), some with a second fault, in seeded random orders, against
// dynalite and aws-ses-v2-local through the real SDK clients. Every lead reaches the inbox once SES
// works; never twice without the "may already have arrived" marker; at most once more per fault;
// none stays unsent without an alarm. The sample also shows it exercised what it claims: each
// fault fired whenever drawn, second send attempts and races of three actors on one lead, and posts
// the volume limits held (its network's share used, the hour's cap reached) among them.
// The full sweep is scale/lead-model.test.ts (`npm run test:scale`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenInvariants, coveringSample, exercised, runSchedule, shortfalls, startModelBackends, type ModelBackends, type ScheduleResult } from './lead-model.ts';

let backends: ModelBackends;
beforeAll(async () => { backends = await startModelBackends(); });
afterAll(() => backends?.close());

describe('the lead model, a covering sample', () => {
  it('keeps every invariant with every fault kind at every actor, each fault firing, and races and second attempts among them', async () => {
    const broken: string[] = [];
    const results: ScheduleResult[] = [];
    for (const schedule of coveringSample()) {
      const result = await runSchedule(backends, schedule);
      results.push(result);
      for (const problem of brokenInvariants(result)) broken.push(`seed ${schedule.seed} (${schedule.faults.map((f) => `${f.kind}@${f.actor}`).join(', ')}): ${problem}; order ${result.trace.join(' ')}`);
    }
    expect(broken).toEqual([]);
    const figures = exercised(results);
    expect(shortfalls(figures)).toEqual([]);
  }, 1_200_000);
});
