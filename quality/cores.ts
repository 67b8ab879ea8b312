/**
 * How much of the machine `npm test` may use, and a share of it for each step.
 *
 * The budget is the cores that were idle just before the run: all of them, less what other work
 * kept busy over a one-second look at /proc/stat (on a machine without it, the one-minute load
 * average stands in). A step asks for the cores it keeps busy, on average, when it runs alone;
 * it starts when that fits beside the steps already running, or when nothing else runs (so a step
 * larger than the budget still runs, alone). Requests are served in order: a large step is never
 * passed over by smaller ones behind it.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';

export interface Budget { cores: number; busyElsewhere: number; free: number; load: number[] }

/** Cores busy over `ms`, from /proc/stat's counters (undefined where there is no /proc/stat). */
export async function busyCores(ms: number): Promise<number | undefined> {
  const sample = async () => {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]!;
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0); // idle + iowait
    return { total: ticks.reduce((a, b) => a + b, 0), idle };
  };
  try {
    const a = await sample();
    await new Promise((r) => setTimeout(r, ms));
    const b = await sample();
    const total = b.total - a.total;
    return total > 0 ? (os.availableParallelism() * (total - (b.idle - a.idle))) / total : 0;
  } catch {
    return undefined;
  }
}

export async function measureBudget(): Promise<Budget> {
  const cores = os.availableParallelism();
  const load = os.loadavg();
  const busy = (await busyCores(1000)) ?? load[0]!;
  return { cores, busyElsewhere: Math.round(busy * 10) / 10, free: freeCores(cores, busy), load };
}

/** The cores left: a core counts as taken when other work kept more than 70 % of one busy; one is always left. */
export function freeCores(cores: number, busy: number): number {
  return Math.max(1, Math.min(cores, cores - Math.floor(busy + 0.3)));
}

export interface Share { release(): void }

/** Shares of `budget` cores, handed out in the order they were asked for. */
export class Cores {
  private used = 0;
  private running = 0;
  private readonly queue: Array<{ weight: number; grant: (share: Share) => void }> = [];
  /** The most steps that held a share at once. */
  peak = 0;

  constructor(readonly budget: number) {}

  take(weight: number): Promise<Share> {
    return new Promise((grant) => { this.queue.push({ weight, grant }); this.serve(); });
  }

  /** Running now, with their weights summed: for the log. */
  get holding(): { steps: number; cores: number } { return { steps: this.running, cores: this.used }; }

  private serve(): void {
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      if (this.running > 0 && this.used + next.weight > this.budget + 1e-9) return;
      this.queue.shift();
      this.used += next.weight;
      this.running += 1;
      this.peak = Math.max(this.peak, this.running);
      let released = false;
      next.grant({
        release: () => {
          if (released) return;
          released = true;
          this.used -= next.weight;
          this.running -= 1;
          this.serve();
        },
      });
    }
  }
}

/**
 * CPU seconds (user + system) of this process and of the processes it has waited for, from
 * /proc/self/stat (at Linux's 100 ticks a second); undefined where there is none. The second is what
 * `/usr/bin/time` counts of a step: a process its child left to init (Chromium's renderers, forked by
 * its zygote) is in neither.
 */
export async function cpuSeconds(): Promise<{ self: number; children: number } | undefined> {
  try {
    const stat = await readFile('/proc/self/stat', 'utf8');
    // The fields after the command's name (which may hold spaces), from the state on: utime is 14th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    return { self: (f[11]! + f[12]!) / 100, children: (f[13]! + f[14]!) / 100 };
  } catch {
    return undefined;
  }
}
