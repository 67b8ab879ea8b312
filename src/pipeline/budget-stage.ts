// The page budgets, checked once the pages are written and measured.
import { BudgetError, checkBudgets, loadBudgets, withExactHtml, type Budgets } from '../measure/budgets.ts';
import type { BuildSummary } from '../measure/summary.ts';

/**
 * After `measure` (untimed): the page budgets; checked after writing, so that an over-budget build leaves its pages to
 * inspect, in the staging tree: dist/ keeps the last build that passed. `keptAt` names that tree in the error.
 * Returns the budgets it held the pages to (none: undefined).
 */
export async function budgetStage(
  root: string, option: Budgets | false | undefined, summary: BuildSummary,
  read: (url: string) => Promise<Uint8Array>, keptAt: { pages: string; outDir: string },
): Promise<Budgets | undefined> {
  try {
    const budgets = option === false ? undefined : option ?? await loadBudgets(root);
    if (!budgets) return undefined;
    summary.perPage = await withExactHtml(summary.perPage, budgets, read);
    const over = checkBudgets(summary.perPage, budgets);
    if (over.length) throw new BudgetError(over, summary.perPage);
    summary.budgetsChecked = true;
    return budgets;
  } catch (error) {
    if (error instanceof BudgetError) error.keptAt = keptAt;
    throw error;
  }
}
