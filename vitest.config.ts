import { configDefaults, defineConfig } from 'vitest/config';
import { PAGE_TEMPLATES, pageTemplatesSource } from './src/bundle/page-templates.ts';
import { templateModules } from './src/routes/kinds.ts';
import LongestFirst from './quality/longest-first.ts';

/**
 * Files that need a process of their own. The others share their worker's process, one file after
 * another (`isolate: false`): each file loading React, the AWS SDK, zod and the build afresh in a new
 * process cost the unit tests a quarter of their CPU (two quiet cores, 30 November 2026: 518 s wall
 * and 783 s CPU with every file isolated, 400 s and 573 s as here). These hold what a process has once:
 * - the markdown parser a process chose, and its one warning (a build without the native parser);
 * - `site serve` with its watcher and its builds, which a test stops mid-build or holds on a signal
 *   never fired. In one shared run of three, live-site's new article was never served (83 s, the
 *   machine loaded); the two files side by side in one process passed in every order tried, so
 *   the cause is not known, and they keep a process each.
 */
const OWN_PROCESS = ['tests/pool/fallback-build.test.ts', 'tests/serve/live-site.test.ts', 'tests/serve/startup-save.test.ts'];

export default defineConfig({
  // The templates of every kind of page, as the build's bundles gather them (src/bundle/page-templates.ts).
  plugins: [{
    name: 'page-templates',
    resolveId: (id) => (id === PAGE_TEMPLATES ? `\0${PAGE_TEMPLATES}` : undefined),
    load: (id) => (id === `\0${PAGE_TEMPLATES}` ? pageTemplatesSource(process.cwd(), templateModules()) : undefined),
  }],
  test: {
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
    // The longest files first, on a clean clone too (quality/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      // Its files' project copies made with `seeded` take a seed build's cache (tests/support/seed-cache.ts).
      { extends: true, test: { name: 'shared', isolate: false, include: ['tests/**/*.test.{ts,tsx}'], exclude: [...configDefaults.exclude, ...OWN_PROCESS], globalSetup: ['tests/support/seed-setup.ts'] } },
      { extends: true, test: { name: 'own process', include: OWN_PROCESS } },
    ],
  },
});
