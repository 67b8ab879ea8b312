import { afterEach, describe, expect, it, vi } from 'vitest';
import mount, { REINIT_DELAY_MS } from '../../islands/reviews-widget.ts';

const SRC = 'https://widget.reviews.example/w.js';

/** Just enough of a document for the widget loader: its scripts, and a body to append to. */
function fakePage(existing: string[] = []) {
  const appended: Array<{ src: string; async: boolean; listeners: Record<string, () => void> }> = [];
  const inits: string[] = [];
  const target = { dispatchEvent: (e: Event) => { inits.push(e.type); return true; } };
  const root = { querySelector: () => target } as unknown as HTMLElement;
  vi.stubGlobal('CustomEvent', class extends Event {});
  vi.stubGlobal('document', {
    scripts: existing.map((src) => ({ src })),
    createElement: () => {
      const listeners: Record<string, () => void> = {};
      const el = { src: '', async: false, listeners, addEventListener: (type: string, fn: () => void) => { listeners[type] = fn; } };
      return el;
    },
    body: { append: (el: (typeof appended)[number]) => appended.push(el) },
  });
  return { root, appended, inits };
}

afterEach(() => { vi.unstubAllGlobals(); vi.useRealTimers(); });

describe('reviews widget', () => {
  it('adds its script once, async, and initialises when it has loaded', () => {
    const page = fakePage();
    mount(page.root, { src: SRC });
    expect(page.appended).toHaveLength(1);
    expect(page.appended[0]).toMatchObject({ src: SRC, async: true });
    expect(page.inits).toEqual([]);
    page.appended[0]!.listeners.load!();
    expect(page.inits).toEqual(['reviews-widget:init']);
  });

  it('with the script already on the page, adds nothing and initialises after 100 ms', () => {
    vi.useFakeTimers();
    const page = fakePage([SRC]);
    mount(page.root, { src: SRC });
    expect(page.appended).toHaveLength(0);
    vi.advanceTimersByTime(REINIT_DELAY_MS - 1);
    expect(page.inits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(page.inits).toEqual(['reviews-widget:init']);
  });

  it('does nothing when no script is configured', () => {
    const page = fakePage();
    mount(page.root, {});
    expect(page.appended).toHaveLength(0);
  });
});
