// The model-based test of the lead's mail (tests/lambda/lead-model.ts) run for longer than `npm test`
// runs it: `npx tsx scripts/lead-model.ts [schedules] [first seed]` (default 20,000 from seed 1). It
// prints the count of schedules by fault, the requests they made, the time taken, and every schedule
// that broke an invariant with its seed and trace (run it again alone with that seed); the exit code
// is 1 if any did.
import { brokenInvariants, FAULTS, runSchedule, drawSchedule, startModelBackends } from '../tests/lambda/lead-model.ts';

const count = Number(process.argv[2] ?? 20_000);
const first = Number(process.argv[3] ?? 1);
const backends = await startModelBackends();
const byFault = new Map<string, number>(FAULTS.map((fault) => [fault, 0]));
let requests = 0;
let failures = 0;
const started = performance.now();
try {
  for (let seed = first; seed < first + count; seed += 1) {
    const result = await runSchedule(backends, drawSchedule(seed));
    byFault.set(result.schedule.fault, (byFault.get(result.schedule.fault) ?? 0) + 1);
    requests += result.requests;
    const broken = brokenInvariants(result);
    if (broken.length) {
      failures += 1;
      console.log(JSON.stringify({ seed, schedule: result.schedule, broken, leads: result.leads, trace: result.trace.join(' ') }));
    }
    if ((seed - first + 1) % 1000 === 0) console.error(`${seed - first + 1} schedules, ${failures} broken, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
} finally {
  await backends.close();
}
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ schedules: count, firstSeed: first, broken: failures, byFault: Object.fromEntries(byFault), requests, seconds: Math.round(seconds * 10) / 10, perSchedule: `${((seconds * 1000) / count).toFixed(1)} ms` }));
process.exitCode = failures > 0 ? 1 : 0;
