/**
 * The island runtime: tiny and React-free. It finds island markers and imports each island's
 * chunk when its strategy says. Chunk addresses are baked in by the build.
 */
declare const __ISLAND_CHUNKS__: Record<string, string>;

type Mount = (el: HTMLElement, props: unknown, name: string) => Promise<void> | void;

const WAKE_EVENTS = ['pointerdown', 'pointerover', 'focusin', 'keydown', 'click'] as const;
const INTERACTIVE = 'a[href], button, input, select, textarea, summary, label, [role="button"], [tabindex]';

function pathTo(root: Element, target: Element): number[] | undefined {
  const path: number[] = [];
  for (let node: Element | null = target; node && node !== root; node = node.parentElement) {
    const parent: Element | null = node.parentElement;
    if (!parent) return undefined;
    path.unshift(Array.prototype.indexOf.call(parent.children, node));
  }
  return path;
}

function atPath(root: Element, path: number[]): HTMLElement | undefined {
  let node: Element | undefined = root;
  for (const i of path) node = node?.children[i];
  return node instanceof HTMLElement ? node : undefined;
}

async function wake(marker: HTMLElement): Promise<void> {
  if (marker.dataset.state) return;
  marker.dataset.state = 'loading';
  const name = marker.dataset.island ?? '';
  const url = __ISLAND_CHUNKS__[name];
  const root = marker.querySelector<HTMLElement>(':scope > .island-root');
  const json = marker.querySelector(':scope > script[type="application/json"]')?.textContent ?? '{}';
  if (!url || !root) { console.error(`[island ${name}] has no chunk or root`); return; }
  try {
    const mod = (await import(url)) as { default: Mount };
    // Evaluating the chunk (React, the first time) and hydrating are two tasks, not one long one
    // that blocks input: the gap roughly halves Total Blocking Time on the forms' pages.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await mod.default(root, JSON.parse(json), name);
    marker.dataset.state = 'ready';
    marker.dispatchEvent(new CustomEvent('site:hydrated', { bubbles: true }));
  } catch (error) {
    marker.dataset.state = 'failed';
    console.error(`[island ${name}] could not load; keeping its server-rendered HTML`, error);
  }
}

/**
 * An island that could not load leaves controls without behaviour; one that names a fallback
 * (`data-fallback-href`: the menu button, the footer's links) still takes the visitor there.
 */
function fallBack(root: Element, pendingClick: number[] | undefined) {
  const go = (el: Element | null | undefined) => {
    const href = el?.closest<HTMLElement>('[data-fallback-href]')?.dataset.fallbackHref;
    if (href) location.assign(href);
  };
  go(pendingClick && atPath(root, pendingClick));
  root.addEventListener('click', (event) => go(event.target instanceof Element ? event.target : undefined));
}

/** Hydrate on first focus, pointer or key, and replay a click that arrived before React did. */
function onInteraction(marker: HTMLElement) {
  let pendingClick: number[] | undefined;
  let pendingFocus: number[] | undefined;
  const root = marker.querySelector(':scope > .island-root');
  const handler = (event: Event) => {
    // Replay on the control, not on the icon or text inside it that the pointer happened to hit.
    const hit = event.target instanceof Element ? event.target.closest(INTERACTIVE) ?? event.target : undefined;
    const target = hit && root ? pathTo(root, hit) : undefined;
    if (event.type === 'click' && marker.dataset.state !== 'ready') {
      event.preventDefault();
      event.stopPropagation();
      pendingClick = target;
    } else if (event.type === 'focusin') pendingFocus = target;
    if (marker.dataset.state) return;
    void wake(marker).then(() => {
      for (const type of WAKE_EVENTS) marker.removeEventListener(type, handler, true);
      if (!root) return;
      if (marker.dataset.state === 'failed') return fallBack(root, pendingClick);
      const focusEl = pendingFocus && atPath(root, pendingFocus);
      if (focusEl && (document.activeElement === document.body || !document.activeElement)) focusEl.focus();
      // The control may have changed shape when hydrated (a <summary> becomes a heading's button).
      const at = pendingClick && atPath(root, pendingClick);
      const clickEl = at && !at.matches(INTERACTIVE) ? at.querySelector<HTMLElement>(INTERACTIVE) ?? at : at;
      // Enter in a field sends its form by a click on the submit button: the replayed click leaves
      // focus in the field the visitor is typing in (the search box), as the browser would have.
      const typing = document.activeElement instanceof HTMLInputElement && root.contains(document.activeElement);
      if (clickEl) { if (!typing) clickEl.focus(); clickEl.click(); }
    });
  };
  for (const type of WAKE_EVENTS) marker.addEventListener(type, handler, true);
  // A click that arrives while the chunk is loading is held, then replayed once hydrated.
}

function start() {
  // Markers are display: contents and have no box to intersect: watch the island's first element.
  const watched = new Map<Element, HTMLElement>();
  const visible = 'IntersectionObserver' in window
    ? new IntersectionObserver((entries, observer) => {
      for (const entry of entries) {
        const marker = watched.get(entry.target);
        if (entry.isIntersecting && marker) { observer.unobserve(entry.target); void wake(marker); }
      }
    }, { rootMargin: '200px' })
    : undefined;
  const watch = (marker: HTMLElement) => {
    const box = marker.querySelector(':scope > .island-root > *');
    if (!visible || !box) return void wake(marker);
    watched.set(box, marker);
    visible.observe(box);
  };
  const idle = (fn: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(fn, { timeout: 2000 }) : setTimeout(fn, 200));
  for (const marker of document.querySelectorAll<HTMLElement>('[data-island]:not([data-state])')) {
    const strategy = marker.dataset.hydrate;
    if (strategy === 'load') void wake(marker);
    else if (strategy === 'idle') idle(() => void wake(marker));
    else if (strategy === 'visible') watch(marker);
    // A visitor who arrives with the parameter (/search?q=…) has asked already: no need to wait.
    else if (marker.dataset.wakeParam && new URLSearchParams(location.search).has(marker.dataset.wakeParam)) void wake(marker);
    else onInteraction(marker);
  }
}

start();
