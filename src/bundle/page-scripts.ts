import type { PageIslands } from '../page-api/island.tsx';
import type { BundleResult } from './bundle.ts';

/** The scripts one page loads: before interaction (`eager`), all it can load (`every`), and the ones to preload. */
export function pageScripts(page: { islands: PageIslands }, assets: Pick<BundleResult, 'runtime' | 'islands' | 'closure'>) {
  const eager = new Set<string>();
  const every = new Set<string>();
  if (assets.runtime && page.islands.size) { eager.add(assets.runtime); every.add(assets.runtime); }
  for (const [name, strategies] of page.islands) {
    const url = assets.islands[name];
    if (!url) continue;
    for (const f of assets.closure[url] ?? [url]) {
      every.add(f);
      if (strategies.has('load') || strategies.has('idle')) eager.add(f);
    }
  }
  return { eager, every, preload: [...eager].filter((u) => u !== assets.runtime && [...page.islands].some(([, s]) => s.has('load'))) };
}
