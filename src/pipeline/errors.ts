import { ContentErrors, formatContentError } from '../content/errors.ts';
import { SettingsOverrideError } from '../content/apply-overrides.ts';
import { BudgetError } from '../measure/budgets.ts';
import { OutputFolderError } from '../output/swap.ts';
import { IslandRegistryError } from '../bundle/island-registry.ts';
import { StoreLimitError } from '../url-resolution/store-data.ts';
import { FunctionRuntimeError } from '../url-resolution/function-runtime.ts';

/**
 * What went wrong with a build, as lines for a person: the CLI prints them, `site serve` shows them
 * in the browser. A mistake the author can fix reads as `what (hint: how)`; anything else is a bug
 * and keeps its stack.
 */
export function describeBuildError(error: unknown): string[] {
  if (error instanceof ContentErrors) {
    const files = new Set(error.errors.map((e) => e.file)).size;
    return [
      ...error.errors.map(formatContentError),
      `build stopped: ${error.errors.length} content error${error.errors.length === 1 ? '' : 's'} in ${files} file(s)`,
    ];
  }
  if (error instanceof SettingsOverrideError) {
    return [...error.problems.map(formatContentError), 'build stopped: invalid setting override'];
  }
  if (error instanceof BudgetError) return error.lines;
  if (error instanceof StoreLimitError) return error.lines;
  if (error instanceof FunctionRuntimeError) return error.lines;
  if (error instanceof OutputFolderError) return [`build stopped: ${error.message}`];
  if (error instanceof IslandRegistryError) return [...error.problems, 'build stopped: the islands and their registry disagree'];
  return [`build failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`];
}
