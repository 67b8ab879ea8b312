import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for a state the page reaches; its default second is shorter than a
    // hydration on a loaded machine. Waits are not timing assertions: those drive page.clock.
    expect: { poll: { timeout: 10_000 } },
    // Two cores: one browser per worker at most.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
