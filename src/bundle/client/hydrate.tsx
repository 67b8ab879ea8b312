import { Component, type ComponentType, type ReactNode } from 'react';
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
  root = hydrateRoot(el, <Boundary onError={fail}><C {...props} /></Boundary>, {
    onRecoverableError: (error) => console.warn(`[island ${name}] recovered from`, error),
  });
  // Resolve once React has committed and run the island's effects, so replayed events reach it.
  return new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
}
