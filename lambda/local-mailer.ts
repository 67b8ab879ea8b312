// `site serve`'s scheduled mailer: the production retry mailer (leads/resend-job.ts) run on a short
// timer instead of every 5 minutes, with the same rules (the handler's grace period, backoff, the
// quiet period after an unanswered send, digests past the limits), so a lead held for the digest or
// one whose first send failed reaches the local mail viewer as it would reach the inbox.
import type { Logger } from './log.ts';

/** How often `site serve` runs the mailer: often enough that a due lead shows up within seconds. */
export const LOCAL_MAILER_EVERY_MS = 10_000;

export interface LocalMailer {
  /** Stops the timer and waits for a run in progress, so nothing is sent after the servers close. */
  stop(): Promise<void>;
}

/** Runs `job` every `everyMs`, one run at a time; a failed run is logged and the next goes ahead. */
export function startLocalMailer(job: () => Promise<unknown>, options: { everyMs?: number; log: Logger }): LocalMailer {
  const everyMs = options.everyMs ?? LOCAL_MAILER_EVERY_MS;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = job().then(() => undefined, (error: unknown) => {
        options.log({ level: 'error', event: 'local_mailer_error', name: error instanceof Error ? error.name : typeof error });
      }).finally(schedule);
    }, everyMs);
    // The dev server's own listeners keep the process alive, not this.
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
