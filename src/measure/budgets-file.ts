/**
 * The one file that holds every limit, at the project's root: named in a module of its own, so that
 * what needs only the name (a quick rebuild's first steps, pipeline/quick-start.ts) does not load the
 * budgets' schema.
 */
export const BUDGETS_FILE = 'budgets.json';
