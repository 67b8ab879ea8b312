import { vp, VIEWPORTS } from './browser.ts';
import type { Budgets } from '../src/measure/budgets.ts';
import { fmtKb, KB, type GateReport } from './report.ts';
import type { OversizedImage, PageView } from './page-view.ts';

/**
 * Runs in the page. Raster images only: an SVG draws sharp at any size. The intrinsic width comes
 * from the file once loaded, and from the width attribute (the build writes the file's own) while
 * a lazy one waits.
 */
export function imageSlots(ratio: number): { checked: number; oversized: OversizedImage[] } {
  const out: { checked: number; oversized: OversizedImage[] } = { checked: 0, oversized: [] };
  for (const img of document.querySelectorAll('img')) {
    const src = img.currentSrc || img.src;
    const slot = img.getBoundingClientRect().width;
    if (!src || /\.svg(\?|#|$)/i.test(src) || src.startsWith('data:image/svg') || slot === 0) continue;
    const intrinsic = img.naturalWidth || Number(img.getAttribute('width')) || 0;
    out.checked++;
    if (intrinsic > slot * ratio) out.oversized.push({ src: new URL(src, location.href).pathname, intrinsic, slot: Math.round(slot) });
  }
  return out;
}

/** JavaScript and image bytes before interaction for a returning visitor at both first screens, and images within their slots. */
export function runtimeReport(allViews: PageView[], budgets: Budgets): GateReport {
  const views = allViews.filter((v) => !v.state);
  const limit = budgets.page.jsBeforeInteractionKb * KB;
  const exempt = (url: string) => budgets.jsBeforeInteractionExempt.includes(url);
  const over = (v: PageView) => v.jsBeforeInteraction > limit && !exempt(v.url);
  const imageLimit = budgets.images.beforeInteractionKb * KB;
  const labels = [...new Set(views.map((v) => v.label))];
  const [w0, w1] = VIEWPORTS.map((v) => v.width) as [number, number];
  const find = (label: string, width: number) => views.find((v) => v.label === label && v.viewport.width === width);
  const cell = (v: PageView | undefined) => (!v ? '-' : v.error ? 'error' : `${over(v) ? '> ' : ''}${fmtKb(v.jsBeforeInteraction)}${exempt(v.url) ? ' (exempt)' : ''}`);
  const failures = views.flatMap((v) => [
    ...(over(v) ? [`${v.label} @${vp(v.viewport)}: JS before interaction ${fmtKb(v.jsBeforeInteraction)} > ${budgets.page.jsBeforeInteractionKb} KB (${v.scripts.join(', ')})`] : []),
    ...(v.imagesBeforeInteraction > imageLimit ? [`${v.label} @${vp(v.viewport)}: images before interaction ${fmtKb(v.imagesBeforeInteraction)} > ${budgets.images.beforeInteractionKb} KB (${v.imageFiles.join(', ')})`] : []),
    ...v.images.oversized.map((i) => `${v.label} @${vp(v.viewport)}: image ${i.src} is ${i.intrinsic} px wide for a ${i.slot} px slot (limit ${budgets.images.maxPixelsPerSlotPixel}×)`),
  ]);
  const largest = (list: PageView[]) => fmtKb(Math.max(0, ...list.map((v) => v.jsBeforeInteraction)));
  return {
    gate: 'budgets in the browser (returning visitor)',
    columns: ['page', `JS before interaction @${w0}`, `@${w1}`, 'images before interaction (larger view)', 'images over slot'],
    rows: [
      ['(limit)', `${budgets.page.jsBeforeInteractionKb} KB`, `${budgets.page.jsBeforeInteractionKb} KB`, `${budgets.images.beforeInteractionKb} KB`, '0'],
      ...labels.map((l) => {
        const [a, b] = [find(l, w0), find(l, w1)];
        const images = Math.max(a?.imagesBeforeInteraction ?? 0, b?.imagesBeforeInteraction ?? 0);
        return [l, cell(a), cell(b), `${images > imageLimit ? '> ' : ''}${fmtKb(images)}`, String((a?.images.oversized.length ?? 0) + (b?.images.oversized.length ?? 0))];
      }),
    ],
    failures,
    warnings: [],
    summary: `browser budgets: ${views.length} views; largest JS before interaction ${largest(views.filter((v) => !exempt(v.url)))} (exempt pages: ${largest(views.filter((v) => exempt(v.url)))}); ${views.reduce((n, v) => n + v.images.checked, 0)} raster images checked against their slots`,
  };
}
