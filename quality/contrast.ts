import type { Page } from 'playwright-core';
import type { Result } from 'axe-core';

/**
 * Colour contrast where axe cannot decide: text over a gradient, an image or a pseudo-element.
 * We measure what the visitor sees instead: hide the text, photograph where its lines are, and
 * hold the text colour against the lightest and the darkest background pixel there. The worse of
 * the two must meet the ratio axe expected (4.5:1, or 3:1 for large text).
 */
export interface ContrastFinding { target: string; ratio: number; expected: number }

/** axe's reasons for leaving a text undecided that a photograph of its background settles. */
const UNDECIDED = new Set(['bgGradient', 'bgImage', 'pseudoContent', 'shortTextContent', 'bgOverlap', 'partiallyObscured', 'outsideViewport']);

type Rgb = [number, number, number];

export function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrastRatio(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** Nodes axe left undecided for a reason a photograph settles. */
export function undecidedNodes(incomplete: Result[]): Array<{ selector: string; expected: number }> {
  return incomplete.filter((r) => r.id === 'color-contrast').flatMap((r) => r.nodes.flatMap((n) => {
    const data = n.any[0]?.data as { messageKey?: string; expectedContrastRatio?: string } | undefined;
    const selector = n.target[0];
    if (!data?.messageKey || !UNDECIDED.has(data.messageKey) || typeof selector !== 'string' || n.target.length !== 1) return [];
    return [{ selector, expected: Number.parseFloat(data.expectedContrastRatio ?? '4.5') }];
  }));
}

interface Box { x: number; y: number; width: number; height: number }
/** `covered`: under something fixed (an open dialog's backdrop): not text the visitor reads now. */
interface Prepared { selector: string; color: string; boxes: Box[]; covered: boolean }

/**
 * Runs in the page: hides the text of every element to measure (and anything fixed or sticky
 * that could cover it), loads lazy images, and returns where each element's text is, in page
 * coordinates. The view ends after this, so nothing is restored.
 */
async function prepare(selectors: string[]): Promise<Prepared[]> {
  const found = selectors.map((selector) => ({ selector, el: document.querySelector(selector) })).filter((f): f is { selector: string; el: HTMLElement } => f.el instanceof HTMLElement);
  const out: Prepared[] = found.map(({ selector, el }) => {
    let rects: DOMRect[];
    if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) {
      // A control's text sits in its content box (the padding holds its border and arrow).
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      const px = (p: string) => Number.parseFloat(cs.getPropertyValue(p)) || 0;
      const left = r.left + px('border-left-width') + px('padding-left');
      const top = r.top + px('border-top-width') + px('padding-top');
      rects = [DOMRect.fromRect({ x: left, y: top, width: r.right - px('border-right-width') - px('padding-right') - left, height: r.bottom - px('border-bottom-width') - px('padding-bottom') - top })];
    } else {
      // Only where the text is, line by line: not the element's padding, border or corners; and not
      // text clipped out of sight for screen readers ('opens in a new tab'), which no eye reads.
      const seen = (n: Node) => {
        for (let e = n.parentElement; e && e !== el.parentElement; e = e.parentElement) {
          const r = e.getBoundingClientRect();
          if (r.width <= 1 && r.height <= 1 && getComputedStyle(e).overflow === 'hidden') return false;
        }
        return true;
      };
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      rects = [];
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent?.trim() || !seen(n)) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        rects.push(...range.getClientRects());
      }
    }
    const boxes = rects.filter((b) => b.width >= 1 && b.height >= 1).map((b) => {
      const x = Math.ceil(b.left + scrollX), y = Math.ceil(b.top + scrollY);
      return { x, y, width: Math.floor(b.right + scrollX) - x, height: Math.floor(b.bottom + scrollY) - y };
    }).filter((b) => b.width >= 1 && b.height >= 1);
    const first = rects.find((b) => b.width >= 1 && b.height >= 1);
    const hit = first && document.elementFromPoint(first.left + first.width / 2, first.top + first.height / 2);
    let fixed = false;
    for (let n: Element | null = hit ?? null; n && !fixed; n = n.parentElement) fixed = getComputedStyle(n).position === 'fixed';
    const covered = Boolean(hit && hit !== el && !el.contains(hit) && !hit.contains(el) && fixed);
    return { selector, color: getComputedStyle(el).color, boxes, covered };
  });
  for (const { el } of found) {
    for (const n of [el, ...el.querySelectorAll<HTMLElement>('*')]) {
      for (const p of ['color', '-webkit-text-fill-color']) n.style.setProperty(p, 'transparent', 'important');
      n.style.setProperty('text-shadow', 'none', 'important');
    }
  }
  for (const e of document.querySelectorAll<HTMLElement>('body *')) {
    // A fixed or sticky bar (the header, the cookie bar) would cover a text once scrolled to it.
    if (['fixed', 'sticky'].includes(getComputedStyle(e).position) && !found.some(({ el }) => e.contains(el))) e.style.setProperty('visibility', 'hidden', 'important');
  }
  for (const img of document.images) img.loading = 'eager';
  await Promise.all([...document.images].map((img) => img.decode().catch(() => undefined)));
  return out;
}

/** Runs in the page: the darkest and the lightest pixel inside each box of a screenshot. */
async function extremes([dataUrl, groups]: [string, Box[][]]): Promise<Array<{ dark: Rgb; light: Rgb } | undefined>> {
  const img = new Image();
  img.src = dataUrl;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.width; canvas.height = img.height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(img, 0, 0);
  const lin = (c: number) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  return groups.map((boxes) => {
    let min = 2, max = -1;
    let dark: Rgb = [0, 0, 0], light: Rgb = [0, 0, 0];
    for (const b of boxes) {
      const w = Math.min(b.width, img.width - b.x), h = Math.min(b.height, img.height - b.y);
      if (w < 1 || h < 1) continue;
      const px = ctx.getImageData(b.x, b.y, w, h).data;
      for (let i = 0; i < px.length; i += 4) {
        const rgb: Rgb = [px[i]!, px[i + 1]!, px[i + 2]!];
        const l = 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2]);
        if (l < min) { min = l; dark = rgb; }
        if (l > max) { max = l; light = rgb; }
      }
    }
    return max < 0 ? undefined : { dark, light };
  });
}

/** `rgb(…)` or `rgba(…)` as computed styles write it. */
export function parseColor(css: string): { rgb: Rgb; alpha: number } | undefined {
  const m = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+%?))?/.exec(css);
  if (!m) return undefined;
  const a = m[4] === undefined ? 1 : m[4].endsWith('%') ? Number.parseFloat(m[4]) / 100 : Number(m[4]);
  return { rgb: [Number(m[1]), Number(m[2]), Number(m[3])], alpha: a };
}

/** Translucent text is seen blended with what is behind it. */
export function textOver(fg: { rgb: Rgb; alpha: number }, bg: Rgb): number {
  const mix = fg.rgb.map((c, i) => c * fg.alpha + bg[i]! * (1 - fg.alpha)) as Rgb;
  return contrastRatio(luminance(mix), luminance(bg));
}

/** Runs in the page: scrolls (instantly) and says where the page really is. */
function scrollToY(y: number): number {
  window.scrollTo({ top: y, left: 0, behavior: 'instant' });
  return window.scrollY;
}

/**
 * Photographs the undecided texts' backgrounds with the texts hidden, a viewport at a time (a
 * full-page capture resizes the viewport, which moves anything sized in vh), and returns those
 * whose worst background pixel fails. Call it last in a view: it leaves the page altered.
 */
export async function pixelContrast(page: Page, incomplete: Result[]): Promise<{ checked: number; covered: number; failing: ContrastFinding[]; unreadable: string[] }> {
  const all = undecidedNodes(incomplete);
  if (!all.length) return { checked: 0, covered: 0, failing: [], unreadable: [] };
  const measured = await page.evaluate(prepare, all.map((n) => n.selector));
  const prepared = measured.filter((p) => !p.covered);
  const nodes = all.filter((n) => prepared.some((p) => p.selector === n.selector) || !measured.some((p) => p.selector === n.selector));
  const viewport = page.viewportSize() ?? { width: 1366, height: 768 };
  const backgrounds = new Map<string, { dark: Rgb; light: Rgb }>();
  // Texts in page order, in runs that fit one screen; each run is one photograph.
  const pending = prepared.filter((p) => p.boxes.length).sort((a, b) => Math.min(...a.boxes.map((x) => x.y)) - Math.min(...b.boxes.map((x) => x.y)));
  while (pending.length) {
    const top = Math.min(...pending[0]!.boxes.map((b) => b.y));
    const run = pending.filter((p) => Math.max(...p.boxes.map((b) => b.y + b.height)) <= top + viewport.height);
    if (!run.length) { pending.shift(); continue; } // taller than the screen: left for review
    for (const p of run) pending.splice(pending.indexOf(p), 1);
    const scrolled = await page.evaluate(scrollToY, top);
    const boxes = run.map((p) => p.boxes.map((b) => ({ ...b, y: b.y - scrolled })));
    const inRun = boxes.flat();
    // A page that cannot scroll there (a modal locks it) leaves those texts for review.
    if (inRun.some((b) => b.y < 0 || b.y + b.height > viewport.height)) continue;
    const clip = { x: Math.min(...inRun.map((b) => b.x)), y: Math.min(...inRun.map((b) => b.y)), width: 0, height: 0 };
    clip.width = Math.max(...inRun.map((b) => b.x + b.width)) - clip.x;
    clip.height = Math.max(...inRun.map((b) => b.y + b.height)) - clip.y;
    const shot = await page.screenshot({ clip, animations: 'disabled', caret: 'hide' });
    const shifted = boxes.map((list) => list.map((b) => ({ ...b, x: b.x - clip.x, y: b.y - clip.y })));
    const found = await page.evaluate(extremes, [`data:image/png;base64,${shot.toString('base64')}`, shifted] as [string, Box[][]]);
    run.forEach((p, i) => { if (found[i]) backgrounds.set(p.selector, found[i]!); });
  }
  const failing: ContrastFinding[] = [];
  const unreadable: string[] = [];
  let checked = 0;
  for (const { selector, expected } of nodes) {
    const fg = parseColor(prepared.find((p) => p.selector === selector)?.color ?? '');
    const bg = backgrounds.get(selector);
    if (!fg || !bg) { unreadable.push(selector); continue; }
    checked++;
    const ratio = Math.min(textOver(fg, bg.dark), textOver(fg, bg.light));
    if (ratio < expected) failing.push({ target: selector, ratio: Math.floor(ratio * 100) / 100, expected });
  }
  return { checked, covered: measured.length - prepared.length, failing, unreadable };
}
