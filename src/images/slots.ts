/**
 * How wide each kind of image is shown, in CSS pixels, read from the stylesheets: the page
 * container is `min(100% - 2.5rem, 72rem)`, grids gap 1.5rem. One table gives both the `sizes`
 * attribute and the widths built for it, so the two cannot drift.
 */

/** A length in CSS px: `vw` per cent of the viewport plus `px`. */
export interface Length { vw?: number; px?: number }
export interface Slot {
  /** First match wins, as in `sizes`: from the widest viewport down; the last has no condition. */
  sizes: Array<{ minWidth?: number; width: Length }>;
  /** Widths built (never wider than the source): about 1×, 2× and 3× of the common screens. */
  widths: number[];
  /** AVIF quality of its own, where the slot shows its image dimmed (ENCODER_SETTINGS otherwise). */
  avifQuality?: number;
}

const CONTAINER = 1152;
const GUTTER = 40;
const full: Length = { vw: 100, px: -GUTTER };

const slots = {
  /**
   * Full-bleed background of the home hero, under the navy overlay that keeps its text readable
   * (88 % opaque under 768 px, 94 to 30 % across wider screens): AVIF at quality 40, half the bytes of
   * 50 on the test photo (750 px: 50.0 → 25.7 KB, 1440 px: 158 → 103 KB) for no difference seen
   * through the overlay, and the phone's LCP image arrives a round trip sooner.
   */
  hero: { sizes: [{ width: { vw: 100 } }], widths: [480, 750, 1080, 1440, 1920], avifQuality: 40 },
  /** The picture heading an article or a case study (at most 52rem). */
  article: { sizes: [{ minWidth: 832 + GUTTER, width: { px: 832 } }, { width: full }], widths: [480, 750, 832, 1080, 1664] },
  /** An image in a markdown body: the prose column, 68ch (754 px measured in Chromium). */
  body: { sizes: [{ minWidth: 754 + GUTTER, width: { px: 754 } }, { width: full }], widths: [480, 754, 1080, 1508] },
  /** Beside text in a two-column split (page heroes, the case-study teaser). */
  figure: { sizes: [{ minWidth: CONTAINER + GUTTER, width: { px: (CONTAINER - 48) / 2 } }, { minWidth: 900, width: { vw: 50, px: -(GUTTER + 48) / 2 } }, { width: full }], widths: [400, 552, 750, 1104] },
  /** A card in the three-column grid. */
  card: { sizes: [{ minWidth: CONTAINER + GUTTER, width: { px: (CONTAINER - 48) / 3 } }, { minWidth: 1024, width: { vw: 100 / 3, px: -(GUTTER + 48) / 3 } }, { minWidth: 640, width: { vw: 50, px: -(GUTTER + 24) / 2 } }, { width: full }], widths: [400, 560, 720, 1080] },
  /** The logo in the header and footer (2.25rem). */
  icon: { sizes: [{ width: { px: 36 } }], widths: [36, 72, 108] },
} satisfies Record<string, Slot>;

export type SlotName = keyof typeof slots;
export const SLOTS: Record<SlotName, Slot> = slots;
export const SLOT_NAMES = Object.keys(SLOTS) as SlotName[];

const round = (n: number) => Math.round(n * 100) / 100;

function lengthText({ vw = 0, px = 0 }: Length): string {
  if (!vw) return `${round(px)}px`;
  if (!px) return `${round(vw)}vw`;
  return `calc(${round(vw)}vw ${px < 0 ? '-' : '+'} ${round(Math.abs(px))}px)`;
}

/** The `sizes` attribute of a slot. */
export function sizesAttribute(slot: SlotName): string {
  return SLOTS[slot].sizes.map((s) => (s.minWidth ? `(min-width: ${s.minWidth}px) ${lengthText(s.width)}` : lengthText(s.width))).join(', ');
}

/** How many CSS px wide the slot is on a viewport `viewport` CSS px wide, as the browser reads `sizes`. */
export function slotWidth(slot: SlotName, viewport: number): number {
  const { width } = SLOTS[slot].sizes.find((s) => !s.minWidth || viewport >= s.minWidth)!;
  return ((width.vw ?? 0) * viewport) / 100 + (width.px ?? 0);
}
