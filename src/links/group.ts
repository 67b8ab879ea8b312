/**
 * Layout grouping, as Docusaurus does: a link broken the same way on every page that has it, when
 * it is on all pages (or ≥ 90% of them, and at least 3), comes from the layout; report it once.
 */
import type { DuplicateId, GroupedProblem, Problem } from './types.ts';

export const LAYOUT_SHARE = 0.9;

/** Whether something found on `count` of `total` pages is in the layout. */
export function inLayout(count: number, total: number): boolean {
  return count >= 2 && (count === total || (count >= 3 && count >= LAYOUT_SHARE * total));
}

export function groupLayoutProblems(problems: Problem[], linkPages: Map<string, number>, totalPages: number): { broken: Problem[]; grouped: GroupedProblem[] } {
  const byKey = new Map<string, Problem[]>();
  for (const p of problems) {
    const key = p.link + '\u0000' + p.reason;
    const list = byKey.get(key);
    if (list) list.push(p);
    else byKey.set(key, [p]);
  }
  const grouped: GroupedProblem[] = [];
  const layoutKeys = new Set<string>();
  for (const [key, list] of byKey) {
    const first = list[0]!;
    const everywhereItIs = list.length === (linkPages.get(first.link) ?? 0);
    if (everywhereItIs && inLayout(list.length, totalPages)) {
      grouped.push({ link: first.link, reason: first.reason, kind: first.kind, pages: list.length });
      layoutKeys.add(key);
    }
  }
  const broken = problems.filter((p) => !layoutKeys.has(p.link + '\u0000' + p.reason));
  return { broken, grouped };
}

/** Duplicate ids grouped the same way: an id doubled on (nearly) every page is a layout's. */
export function groupDuplicateIds(dups: DuplicateId[], totalPages: number): { perPage: DuplicateId[]; layout: Array<{ id: string; pages: number }> } {
  const pagesById = new Map<string, number>();
  for (const d of dups) pagesById.set(d.id, (pagesById.get(d.id) ?? 0) + 1);
  const layout = [...pagesById].filter(([, n]) => inLayout(n, totalPages)).map(([id, pages]) => ({ id, pages }));
  const layoutIds = new Set(layout.map((l) => l.id));
  return { perPage: dups.filter((d) => !layoutIds.has(d.id)), layout };
}
