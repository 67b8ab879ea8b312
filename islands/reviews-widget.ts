/**
 * The third-party reviews widget: its script is added once, only when it is configured and the
 * footer comes near the screen, and initialised after it loads, or after 100 ms if already present.
 */
export const REINIT_DELAY_MS = 100;

export default function mount(root: HTMLElement, props: { src?: string }): void {
  const target = root.querySelector<HTMLElement>('[data-reviews-widget]');
  if (!props.src || !target) return;
  const init = () => target.dispatchEvent(new CustomEvent('reviews-widget:init', { bubbles: true }));
  const existing = [...document.scripts].find((s) => s.src === props.src);
  if (existing) { setTimeout(init, REINIT_DELAY_MS); return; }
  const script = document.createElement('script');
  script.src = props.src;
  script.async = true;
  script.addEventListener('load', init);
  script.addEventListener('error', () => console.warn('The reviews widget could not be loaded'));
  document.body.append(script);
}
