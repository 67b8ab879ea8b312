// Decap's Rich Text / Markdown switch has no accessible name and cannot be reached by keyboard (its
// Toggle drops the aria-label it is given and has no tabindex). Each one that appears is named
// "Markdown" (on: the body is edited as markdown), made focusable, and turned by Space or Enter.

const NAME = 'Markdown';

function mend(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>('[role="switch"]:not([aria-label]):not([id])')) {
    if (!/Rich Text/.test(el.parentElement?.textContent ?? '')) continue;
    el.setAttribute('aria-label', NAME);
    el.tabIndex = 0;
    el.addEventListener('keydown', (e) => {
      if (e.key === ' ' || e.key === 'Enter') { e.preventDefault(); el.click(); }
    });
  }
}

export function nameSwitches(): void {
  new MutationObserver(() => mend(document)).observe(document.body, { childList: true, subtree: true });
}
