/**
 * The order test files start in: the longest first, so that the last to start are short and the
 * workers end together. vitest orders so itself from the durations it kept of the last run, which
 * a clean clone does not have: it then starts the largest files first, and a file that is small
 * but slow (one that starts a browser, say) can start last and run alone. Here the durations
 * kept in quality/test-durations.json stand in for the missing ones (`npm run test:durations`
 * writes them from the last run); a file in neither starts first, as vitest starts unknown files.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const DURATIONS_FILE = path.join(import.meta.dirname, 'test-durations.json');

/** Seconds each file took, by `project:path` (vitest's own key), as kept in the durations file. */
function keptDurations(file: string): Record<string, number> {
  try { return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>; } catch { return {}; }
}

export default class LongestFirst extends BaseSequencer {
  private readonly kept: Record<string, number>;

  constructor(ctx: ConstructorParameters<typeof BaseSequencer>[0], durations = DURATIONS_FILE) {
    super(ctx);
    this.kept = keptDurations(durations);
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const key = (spec: TestSpecification) => `${spec.project.name}:${path.relative(config.root, spec.moduleId)}`;
    const known = (spec: TestSpecification) => {
      const last = cache.getFileTestResults(key(spec));
      return { failed: last?.failed ?? false, seconds: last ? last.duration / 1000 : this.kept[key(spec)] };
    };
    return [...files].sort((a, b) => {
      // As vitest's own order: by group, then project, an isolated project's files first.
      const groups = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (groups !== 0) return groups;
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      if (a.project.config.isolate !== b.project.config.isolate) return a.project.config.isolate ? -1 : 1;
      const [ka, kb] = [known(a), known(b)];
      if (ka.failed !== kb.failed) return ka.failed ? -1 : 1;
      if (ka.seconds === undefined || kb.seconds === undefined) return ka.seconds === kb.seconds ? 0 : ka.seconds === undefined ? -1 : 1;
      return kb.seconds - ka.seconds;
    });
  }
}
