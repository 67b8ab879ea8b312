// A sweep of the lead model's seeded schedules over several processes at once, each with its own
// dynalite and local SES (lead-model-share.ts): the schedules are independent, so seeds are dealt
// out in turn (seed n to process n mod the count) and each result comes back as it is made. The
// stack's alarms are synthesised once, here, and handed to every process.
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ScheduleResult } from './lead-model.ts';
import type { ShareOrder } from './lead-model-share.ts';
import { stackAlarms } from './stack-alarms.ts';

const SHARE = fileURLToPath(new URL('./lead-model-share.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One schedule's outcome as a share sends it: the result (its trace only when it broke) and what broke. */
export interface SweptSchedule { result: ScheduleResult; broken: string[] }

/** Runs seeds `first` to `first + count - 1` in `processes` processes; `onSchedule` gets each outcome, in the order they finish. */
export async function sweep(first: number, count: number, onSchedule: (swept: SweptSchedule) => void, processes = availableParallelism()): Promise<void> {
  const alarms = stackAlarms();
  const shares = Math.max(1, Math.min(processes, count));
  const children: ChildProcess[] = [];
  const share = (index: number) => new Promise<void>((resolve, reject) => {
    // tsx runs the share's TypeScript, as it runs the scripts; a larger young generation spends less on garbage collection.
    const child = fork(SHARE, [], { cwd: ROOT, execArgv: ['--import', 'tsx', '--max-semi-space-size=32'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(child);
    child.on('message', (swept: SweptSchedule) => {
      try { onSchedule(swept); } catch (error) { reject(error); }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`the share of seeds ${first + index}, ${first + index + shares}, … stopped (${signal ?? `exit code ${code}`})`));
    });
    child.send({ first: first + index, last: first + count - 1, step: shares, alarms } satisfies ShareOrder);
  });
  try {
    await Promise.all(Array.from({ length: shares }, (_, index) => share(index)));
  } finally {
    // One share failed: the others stop with it.
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}
