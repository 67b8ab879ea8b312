import { defineConfig } from 'vitest/config';
import LongestFirst from '../quality/longest-first.ts';

export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    // Hang guards, not races (see vitest.config.ts): a browser test takes a few seconds on a quiet
    // machine, a file's start (a server, a page) a few more.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ['default', './quality/guard-reporter.ts'],
    // expect.poll waits for a state the page reaches, however long the machine takes to get there;
    // its timeout is a hang guard too. Timing is asserted only through page.clock.
    expect: { poll: { timeout: 60_000 } },
    // One browser page per worker; `npm test` passes --maxWorkers from the cores it found free.
    maxWorkers: 2,
    fileParallelism: true,
    // The longest files first, on a clean clone too (quality/longest-first.ts).
    sequence: { sequencer: LongestFirst },
  },
});
