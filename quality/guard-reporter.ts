/**
 * A vitest reporter beside the default one: at the end of a run it names every test that took more
 * than a tenth of its timeout. A timeout here is a hang guard, at least ten times what the test
 * takes on a quiet machine; a test this reporter names has a guard too close to its time, and on a
 * machine half as fast, or beside other work, it would fail for nothing. It fails no test (its
 * figures move with the machine's load); the test's timeout is what to raise, or the test's wait to
 * change into a wait for an event.
 */
import type { Reporter, TestModule } from 'vitest/node';

const RATIO = 10;

export default class GuardReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const close: string[] = [];
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const timeout = test.options.timeout;
        const duration = test.diagnostic()?.duration;
        if (!timeout || duration === undefined || duration * RATIO <= timeout) continue;
        close.push(`  ${module.moduleId.replace(`${process.cwd()}/`, '')} > ${test.fullName}: ${(duration / 1000).toFixed(1)} s of ${(timeout / 1000).toFixed(0)} s`);
      }
    }
    if (close.length === 0) return;
    console.log(`\nhang guards: ${close.length} test${close.length === 1 ? '' : 's'} took more than a tenth of their timeout:\n${close.join('\n')}`);
  }
}
