import { Component, startTransition, useEffect, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';

class Boundary extends Component<{ onError: (error: unknown) => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() { return { failed: true }; }
  override componentDidCatch(error: unknown) { this.props.onError(error); }
  override render() { return this.state.failed ? null : this.props.children; }
}

/**
 * Hydrates one island. If it throws while rendering, the server HTML is put back and the error
 * logged, so the page keeps the content and links it had before any script ran.
 */
export function hydrate<P extends object>(el: HTMLElement, component: ComponentType<P>, props: P, name: string): Promise<void> {
  const snapshot = el.innerHTML;
  let root: Root | undefined;
  const fail = (error: unknown) => {
    console.error(`[island ${name}] failed; keeping its server-rendered HTML`, error);
    window.dispatchEvent(new CustomEvent('site:island-error', { detail: { name, error } }));
    queueMicrotask(() => {
      root?.unmount();
      el.innerHTML = snapshot;
    });
  };
  const C = component as ComponentType<P>;
  return new Promise((done) => {
    // Resolve once React has committed, run the island's effects and re-rendered for them
    // (a link that becomes a button, say), so a replayed click reaches the final element.
    const committed = () => void settled(el).then(done);
    // As a transition, hydration yields to the browser every few milliseconds instead of
    // running as one long task (Total Blocking Time, budgets.json).
    startTransition(() => {
      root = hydrateRoot(el, <Boundary onError={fail}><Committed onCommit={committed}><C {...props} /></Committed></Boundary>, {
        onRecoverableError: (error) => console.warn(`[island ${name}] recovered from`, error),
      });
    });
  });
}

function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  // A parent's effect runs after its children's, so this fires once the island's have.
  useEffect(() => onCommit(), []);
  return children;
}

/** Resolves when a task passes with no DOM change under `el` (bounded, in case it never calms). */
function settled(el: HTMLElement): Promise<void> {
  return new Promise((done) => {
    let changed = true;
    let ticks = 0;
    const observer = new MutationObserver(() => { changed = true; });
    observer.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
    const tick = () => {
      if (!changed || ticks++ > 20) { observer.disconnect(); done(); return; }
      changed = false;
      setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
  });
}
