import { createContext, useContext, type ComponentType } from 'react';
import { islands, type IslandName, type ScriptIslandName } from '../../islands/index.ts';
import type { ReactNode } from 'react';

export type HydrateStrategy = 'load' | 'idle' | 'visible' | 'interaction';

/** A page's islands, each with the hydrations its markers ask for. */
export type PageIslands = Map<IslandName | ScriptIslandName, Set<HydrateStrategy>>;

/** Records, per page render, which islands were used and how, so only those are bundled and linked. */
export class IslandCollector {
  readonly used: PageIslands = new Map();
  add(name: IslandName | ScriptIslandName, strategy: HydrateStrategy) {
    const set = this.used.get(name) ?? new Set();
    set.add(strategy);
    this.used.set(name, set);
  }
}

export const IslandCollectorContext = createContext<IslandCollector | null>(null);

const names = new Map<ComponentType<never>, IslandName>(
  (Object.entries(islands) as Array<[IslandName, ComponentType<never>]>).map(([name, component]) => [component, name]),
);

/** JSON that is safe inside <script>: no `</script>`, `<!--` or line separators can break out. */
export function serializeProps(props: unknown): string {
  return JSON.stringify(props ?? {})
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Server-renders an island's component inside a marker that the browser runtime hydrates.
 * The props travel as JSON beside the markup, so they must be plain data.
 */
export function Island<P extends object>({ component, props, hydrate }: { component: ComponentType<P>; props: P; hydrate: HydrateStrategy }) {
  const collector = useContext(IslandCollectorContext);
  const name = names.get(component as unknown as ComponentType<never>);
  if (!name) throw new Error(`<Island> was given a component that is not registered in islands/index.ts`);
  collector?.add(name, hydrate);
  const Component = component;
  return (
    <div className="island" data-island={name} data-hydrate={hydrate}>
      <script type="application/json" dangerouslySetInnerHTML={{ __html: serializeProps(props) }} />
      <div className="island-root">
        <Component {...props} />
      </div>
    </div>
  );
}

/**
 * A React-free island: the server renders `children` as they are, and in the browser the plain
 * module islands/<name>.ts is imported when the strategy says and given the marker's root.
 * `wakeParam`: an 'interaction' island that wakes at once when the page's address has this query
 * parameter (the search page opened as /search?q=…, whose visitor has already asked).
 */
export function ScriptIsland({ name, props, hydrate, wakeParam, children }: { name: ScriptIslandName; props?: object; hydrate: HydrateStrategy; wakeParam?: string; children?: ReactNode }) {
  useContext(IslandCollectorContext)?.add(name, hydrate);
  return (
    <div className="island" data-island={name} data-hydrate={hydrate} {...(wakeParam ? { 'data-wake-param': wakeParam } : {})}>
      <script type="application/json" dangerouslySetInnerHTML={{ __html: serializeProps(props ?? {}) }} />
      <div className="island-root">{children}</div>
    </div>
  );
}
