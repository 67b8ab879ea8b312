// The lead model (tests/lambda/lead-model.ts) from the command line: `npx tsx scripts/lead-model.ts
// [schedules] [first seed] [processes]` runs that many drawn schedules (default 20,000 from seed 1)
// in that many processes at once (default: one per core; tests/lambda/lead-model-sweep.ts);
// `npx tsx scripts/lead-model.ts sample` runs the covering sample `npm test` runs, in this process.
// It prints every schedule that broke an invariant with its seed and trace, then what was exercised
// (per fault kind drawn and fired, second send attempts, races of three actors on one lead), the
// shortfalls against the model's bar, and the time taken (`/usr/bin/time` gives the CPU, the
// shares' included); interrupted (SIGINT), the figures so far. The exit code is 1 if any schedule
// broke or fell short.
//
// A sweep too long for one sitting runs in seed ranges: `--record` appends a range that ran to its
// end to scale/lead-model-ranges.json with the commit it ran at, and `npx tsx scripts/lead-model.ts
// ranges [upTo]` reads the ranges kept there as one sweep of seeds 1 to upTo (100,000 by default):
// the seeds still to run, what broke, the figures summed and their shortfalls.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readRanges, recordRange, summarise } from '../scale/lead-model-ranges.ts';
import { brokenInvariants, coveringSample, exercised, runSchedule, shortfalls, startModelBackends, type ScheduleResult } from '../tests/lambda/lead-model.ts';
import { sweep, type SweptSchedule } from '../tests/lambda/lead-model-sweep.ts';

const record = process.argv.includes('--record');
const args = process.argv.slice(2).filter((a) => a !== '--record');
if (args[0] === 'ranges') {
  const upTo = Number(args[1] ?? 100_000);
  const summary = summarise(await readRanges(), upTo);
  const seeds = (runs: Array<[number, number]>) => runs.map(([a, b]) => `${a}–${b}`).join(', ') || 'none';
  console.log(JSON.stringify({ covered: seeds(summary.covered), toRun: seeds(summary.gaps), overlaps: summary.overlaps, broken: summary.broken, figures: summary.figures, shortfalls: summary.shortfalls }, null, 1));
  process.exit(summary.gaps.length || summary.overlaps.length || summary.broken || summary.shortfalls.length ? 1 : 0);
}
const sample = args[0] === 'sample';
const count = sample ? 0 : Number(args[0] ?? 20_000);
const first = Number(args[1] ?? 1);
const processes = args[2] === undefined ? undefined : Number(args[2]);
const results: ScheduleResult[] = [];
let failures = 0;
let requests = 0;
const started = performance.now();

function take({ result, broken }: SweptSchedule): void {
  // Only what the figures need is kept: a long sweep would otherwise hold every trace.
  results.push({ ...result, trace: [] });
  requests += result.requests;
  if (process.env.LEAD_MODEL_UNFIRED && result.fired.some((f) => !f.fired)) console.log(JSON.stringify({ unfired: result.schedule, fired: result.fired }));
  if (broken.length) {
    failures += 1;
    console.log(JSON.stringify({ seed: result.schedule.seed, faults: result.schedule.faults, broken, leads: result.leads, trace: result.trace.join(' ') }));
  }
  if (results.length % 1000 === 0) console.error(`${results.length} schedules, ${failures} broken, ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The figures so far, printed and given back; `stopped` when the run was interrupted (SIGINT) before its last seed. */
function report(stopped: boolean): ReturnType<typeof exercised> {
  const seconds = (performance.now() - started) / 1000;
  const figures = exercised(results);
  const short = shortfalls(figures);
  console.log(JSON.stringify({ schedules: results.length, ...(stopped ? { stopped } : {}), broken: failures, figures, shortfalls: short, requests, seconds: Math.round(seconds * 10) / 10, perSchedule: `${((seconds * 1000) / results.length).toFixed(1)} ms` }, null, 1));
  process.exitCode = failures > 0 || short.length > 0 ? 1 : 0;
  return figures;
}

/** The commit this tree is at, with `+` when its files differ from it. */
function commit(): string {
  const git = (...a: string[]) => execFileSync('git', a, { encoding: 'utf8' }).trim();
  try { return git('rev-parse', '--short', 'HEAD') + (git('status', '--porcelain', '--untracked-files=no') ? '+' : ''); } catch { return 'unknown'; }
}
// Interrupted, it prints what it ran (its shares stop when this process goes).
process.once('SIGINT', () => { report(true); process.exit(); });

if (sample) {
  const backends = await startModelBackends();
  try {
    for (const schedule of coveringSample()) {
      const result = await runSchedule(backends, schedule);
      take({ result, broken: brokenInvariants(result) });
    }
  } finally {
    await backends.close();
  }
} else {
  await sweep(first, count, take, processes);
}
const figures = report(false);
if (record && !sample) {
  await recordRange({ first, schedules: results.length, broken: failures, figures, commit: commit(), date: new Date().toISOString().slice(0, 10), processes: processes ?? availableParallelism(), seconds: Math.round((performance.now() - started) / 100) / 10 });
  console.error(`recorded seeds ${first}–${first + results.length - 1} in scale/lead-model-ranges.json`);
}
