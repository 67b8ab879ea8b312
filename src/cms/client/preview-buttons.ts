// Decap's buttons over the preview (show the preview, sync scrolling) float, stacked, over its top
// right corner, where the site's sticky header keeps its Menu button. They are laid out in a row in a
// strip of their own above the preview's frame, which starts below them, at any width and scroll.
import type CMS from 'decap-cms-app';

const STRIP = '56px';

export function keepPreviewButtonsOffThePage(cms: typeof CMS): void {
  const words = cms.getLocale('en') as { editor?: { editorInterface?: { togglePreview?: string } } } | undefined;
  const title = words?.editor?.editorInterface?.togglePreview ?? 'Toggle preview';
  const controls = `div:has(> button[title="${title.replace(/["\\]/g, '\\$&')}"])`;
  const style = document.createElement('style');
  style.textContent = [
    `${controls} { display: flex; gap: 8px; top: 8px; }`,
    `${controls} > button { margin: 0; }`,
    `div:has(> #preview-pane) { padding-top: ${STRIP}; box-sizing: border-box; }`,
  ].join('\n');
  document.head.append(style);
}
