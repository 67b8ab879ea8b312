import { defineConfig } from 'vitest/config';
import { PAGE_TEMPLATES, pageTemplatesSource } from './src/bundle/page-templates.ts';
import { templateModules } from './src/routes/kinds.ts';

export default defineConfig({
  // The templates of every kind of page, as the build's bundles gather them (src/bundle/page-templates.ts).
  plugins: [{
    name: 'page-templates',
    resolveId: (id) => (id === PAGE_TEMPLATES ? `\0${PAGE_TEMPLATES}` : undefined),
    load: (id) => (id === `\0${PAGE_TEMPLATES}` ? pageTemplatesSource(process.cwd(), templateModules()) : undefined),
  }],
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
