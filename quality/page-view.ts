// What one page view tells the gates: the sweep (sweep.ts) makes it, the gates (axe.ts, runtime.ts
// and the rest) read it.
import type { Result } from 'axe-core';
import type { PageNoise, Viewport } from './browser.ts';
import type { ContrastFinding } from './contrast.ts';

/** An <img> whose file has more pixels across than its slot can show. */
export interface OversizedImage { src: string; intrinsic: number; slot: number }

/** Everything one page view tells the gates. */
export interface PageView {
  label: string;
  url: string;
  viewport: Viewport;
  /** The open state this view was put in, if any. */
  state?: string;
  status?: number;
  /** gzip bytes of every script fetched before any interaction (and before the state was opened). */
  jsBeforeInteraction: number;
  scripts: string[];
  /** Bytes (as served) of every image fetched before any interaction, lazy ones in view included. */
  imagesBeforeInteraction: number;
  imageFiles: string[];
  images: { checked: number; oversized: OversizedImage[] };
  violations: Result[];
  /** Contrast checks axe could not decide and no photograph settled: listed as warnings. */
  incomplete: Result[];
  /** Text over gradients and images, measured in pixels (contrast.ts); `covered`: under an open dialog. */
  contrast: { checked: number; covered: number; failing: ContrastFinding[] };
  noise: PageNoise;
  /** Set when the page or its state could not be reached or checked. */
  error?: string;
}
