import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fontMetrics, type FontMetrics } from './font-metrics.ts';

/** A font as the renderer registers it. */
export interface CardFont { name: string; data: Buffer; weight: 400 | 700; style: 'normal' }

export interface CardFonts {
  /** Latin first, then latin-ext: the renderer falls back through them in this order, character by character. */
  fonts: CardFont[];
  /** Metrics per weight, latin first, then latin-ext. */
  metrics: Record<400 | 700, FontMetrics[]>;
}

/** The family the template names. latin-ext is a family of its own, which the renderer falls back to for what latin lacks. */
export const CARD_FONT = 'Inter';
const FILES: Array<{ file: string; name: string; weight: 400 | 700 }> = [
  { file: 'inter-latin-700-normal.woff', name: CARD_FONT, weight: 700 },
  { file: 'inter-latin-400-normal.woff', name: CARD_FONT, weight: 400 },
  { file: 'inter-latin-ext-700-normal.woff', name: `${CARD_FONT} Latin Ext`, weight: 700 },
  { file: 'inter-latin-ext-400-normal.woff', name: `${CARD_FONT} Latin Ext`, weight: 400 },
];

function fontFiles(): Array<{ data: Buffer; name: string; weight: 400 | 700 }> {
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
 * no system fonts. WOFF, which both the renderer and font-metrics.ts read. Loaded once per thread.
 */
export function cardFonts(): CardFonts {
  if (loaded) return loaded;
  const files = fontFiles().map((f) => ({ ...f, font: { name: f.name, data: f.data, weight: f.weight, style: 'normal' as const }, metrics: fontMetrics(f.data) }));
  const metricsOf = (weight: 400 | 700) => files.filter((f) => f.weight === weight).map((f) => f.metrics);
  loaded = { fonts: files.map((f) => f.font), metrics: { 400: metricsOf(400), 700: metricsOf(700) } };
  return loaded;
}
