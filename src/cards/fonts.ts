import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fontMetrics, type FontMetrics } from './font-metrics.ts';

/** A font as satori takes it. */
export interface CardFont { name: string; data: Buffer; weight: 400 | 700; style: 'normal' }

export interface CardFonts {
  fonts: CardFont[];
  /** Metrics per weight, latin first, then latin-ext for the rest of Europe's letters. */
  metrics: Record<400 | 700, FontMetrics[]>;
  /** Of every font file's bytes: a card drawn with other fonts gets another name. */
  hash: string;
}

export const CARD_FONT = 'Inter';
const FILES: Array<{ file: string; weight: 400 | 700 }> = [
  { file: 'inter-latin-700-normal.woff', weight: 700 },
  { file: 'inter-latin-ext-700-normal.woff', weight: 700 },
  { file: 'inter-latin-400-normal.woff', weight: 400 },
  { file: 'inter-latin-ext-400-normal.woff', weight: 400 },
];

let loaded: CardFonts | undefined;

/**
 * Inter from @fontsource/inter, read from node_modules: the same bytes on every machine, no network,
 * no system fonts. WOFF, since satori cannot read WOFF2. Loaded once per thread.
 */
export function cardFonts(): CardFonts {
  if (loaded) return loaded;
  // The package's exports map names only CSS; its LICENSE is exported and sits beside files/.
  const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('@fontsource/inter/LICENSE')), 'files');
  const hash = createHash('sha256');
  const fonts = FILES.map(({ file, weight }) => {
    const data = readFileSync(path.join(dir, file));
    hash.update(data);
    return { name: CARD_FONT, data, weight, style: 'normal' as const };
  });
  const metricsOf = (weight: 400 | 700) => fonts.filter((f) => f.weight === weight).map((f) => fontMetrics(f.data));
  loaded = { fonts, metrics: { 400: metricsOf(400), 700: metricsOf(700) }, hash: hash.digest('hex').slice(0, 20) };
  return loaded;
}
