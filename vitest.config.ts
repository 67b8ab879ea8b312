import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
    // Two files at a time even on two cores (vitest's default is one fewer than the cores): most files
    // wait on child processes, servers and the disk much of the time. The whole suite on this 2-core
    // machine: 313 s, against 374 s with one at a time.
    maxWorkers: 2,
  },
});
