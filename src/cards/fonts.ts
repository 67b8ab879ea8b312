import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fontMetrics, type FontMetrics } from './font-metrics.ts';

/** A font as satori takes it. */
export interface CardFont { name: string; data: Buffer; weight: 400 | 700; style: 'normal' }

export interface CardFonts {
  /** Latin only: what nearly every card needs, and quicker for satori to load. */
  latin: CardFont[];
  /** Latin and latin-ext, for a card with letters beyond Latin-1 and general punctuation. */
  all: CardFont[];
  /** Metrics per weight, latin first, then latin-ext. */
  metrics: Record<400 | 700, FontMetrics[]>;
  /** Latin's metrics per weight: a text they cover is drawn with `latin`. */
  latinMetrics: Record<400 | 700, FontMetrics[]>;
}

export const CARD_FONT = 'Inter';
const FILES: Array<{ file: string; weight: 400 | 700; latin: boolean }> = [
  { file: 'inter-latin-700-normal.woff', weight: 700, latin: true },
  { file: 'inter-latin-400-normal.woff', weight: 400, latin: true },
  { file: 'inter-latin-ext-700-normal.woff', weight: 700, latin: false },
  { file: 'inter-latin-ext-400-normal.woff', weight: 400, latin: false },
];

function fontFiles(): Array<{ data: Buffer; weight: 400 | 700; latin: boolean }> {
  // The package's exports map names only CSS; its LICENSE is exported and sits beside files/.
  const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('@fontsource/inter/LICENSE')), 'files');
  return FILES.map((f) => ({ ...f, data: readFileSync(path.join(dir, f.file)) }));
}

let hash: string | undefined;
/** Of every font file's bytes: a card drawn with other fonts gets another name. Reads the files, parses nothing. */
export function cardFontsHash(): string {
  if (hash) return hash;
  const h = createHash('sha256');
  for (const f of fontFiles()) h.update(f.data);
  return (hash = h.digest('hex').slice(0, 20));
}

let loaded: CardFonts | undefined;

/**
 * Inter from @fontsource/inter, read from node_modules: the same bytes on every machine, no network,
 * no system fonts. WOFF, since satori cannot read WOFF2. Loaded once per thread.
 */
export function cardFonts(): CardFonts {
  if (loaded) return loaded;
  const files = fontFiles().map((f) => ({ ...f, font: { name: CARD_FONT, data: f.data, weight: f.weight, style: 'normal' as const }, metrics: fontMetrics(f.data) }));
  const metricsOf = (weight: 400 | 700, latinOnly: boolean) => files.filter((f) => f.weight === weight && (f.latin || !latinOnly)).map((f) => f.metrics);
  loaded = {
    latin: files.filter((f) => f.latin).map((f) => f.font),
    all: files.map((f) => f.font),
    metrics: { 400: metricsOf(400, false), 700: metricsOf(700, false) },
    latinMetrics: { 400: metricsOf(400, true), 700: metricsOf(700, true) },
  };
  return loaded;
}
