// One process's share of a lead-model sweep (lead-model-sweep.ts starts it): it takes the seeds and
// the stack's alarms from its parent, runs each seed's schedule against its own dynalite and local
// SES, and sends back each result (its trace kept only when the schedule broke) with the broken
// invariants, then exits.
import { brokenInvariants, drawSchedule, runSchedule, startModelBackends } from './lead-model.ts';
import type { AlarmRule } from './stack-alarms.ts';

/** What the parent sends: every seed from `first` up to `last`, stepping by `step`. */
export interface ShareOrder { first: number; last: number; step: number; alarms: AlarmRule[] }

// Its parent gone (stopped, or killed), the share stops too: nothing would read its results.
process.once('disconnect', () => process.exit(0));
process.once('message', (order: ShareOrder) => void (async () => {
  const backends = await startModelBackends({ alarms: order.alarms });
  try {
    for (let seed = order.first; seed <= order.last; seed += order.step) {
      const result = await runSchedule(backends, drawSchedule(seed));
      const broken = brokenInvariants(result);
      const sent = new Promise<void>((resolve, reject) => process.send!({ result: broken.length ? result : { ...result, trace: [] }, broken }, (error: Error | null) => (error ? reject(error) : resolve())));
      await sent;
    }
  } finally {
    await backends.close();
  }
  process.removeAllListeners('disconnect');
  process.disconnect();
})().catch((error: unknown) => { console.error(error); process.exit(1); }));
