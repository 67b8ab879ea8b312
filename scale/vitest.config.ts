import { defineConfig } from 'vitest/config';

// `npm run test:scale`: the full sweeps that `npm test` samples (every route of a 10,000-article
// table in njs, the lead model's schedules, a deploy at scale, a deploy killed before each of its steps, a thousand
// of the largest leads in digests). Minutes of CPU each; run them after
// changing the routing functions, the lead store or the deploy. Their last figures are in
// docs/performance.md.
export default defineConfig({
  test: {
    include: ['scale/**/*.test.ts'],
    environment: 'node',
    // Hang guards: a sweep takes minutes on a quiet two-core machine.
    testTimeout: 3_600_000,
    hookTimeout: 600_000,
    maxWorkers: 1,
  },
});
