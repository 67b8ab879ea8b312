import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Hang guards, not races: ten times and more what a test or a fixture takes on a quiet two-core
    // machine. A test that needs longer says so itself; quality/guard-reporter.ts names any test
    // that came within a tenth of its timeout.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ['default', './quality/guard-reporter.ts'],
    // Two files at a time on two cores (`npm test` passes --maxWorkers from the cores it found
    // free): most files wait on child processes, servers and the disk much of the time.
    maxWorkers: 2,
  },
});
