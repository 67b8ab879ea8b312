/**
 * The real site's share cards, and the comparison the golden test holds them to: pixel by pixel,
 * with room for the references' own rounding (they are stored with a palette of 256 colours, to keep
 * them small) and no room for text that has moved.
 */
import path from 'node:path';
import sharp from 'sharp';
import { loadSite } from '../../src/content/load.ts';
import { publishedSite } from '../../src/content/published.ts';
import { routes } from '../../src/routes/table.ts';
import { planCards, type CardJob } from '../../src/cards/plan.ts';

export const GOLDEN_DIR = path.resolve('tests/cards/golden');
/** `UPDATE_CARD_GOLDENS=1 npx vitest run tests/cards/golden.test.ts` draws the references again (never in CI). */
export const UPDATE_ENV = 'UPDATE_CARD_GOLDENS';
/** A pixel differs when one of its channels is further off than this (the palette's rounding stays under 24). */
export const CHANNEL_THRESHOLD = 40;
/** A card matches when at most this fraction of its pixels differ: 378 of 756,000 (one letter more in a title moves 800). */
export const MAX_DIFFERING = 0.0005;

/** Every card the real site draws, at a fixed clock, each with the name of its reference file. */
export async function realCards(): Promise<Array<{ job: CardJob; name: string }>> {
  const content = path.resolve('content');
  const { site } = publishedSite(await loadSite(content), new Date('2026-06-01T12:00:00Z'), 'production');
  const { jobs } = planCards(site, routes(site), content, 'golden');
  return jobs.map((job) => ({ job, name: `${path.basename(job.url).replace(/-[0-9a-f]{12}\.png$/, '')}.png` }));
}

/** The reference as stored: a palette PNG of the card (lossless wherever the card has 256 colours or fewer). */
export function reference(png: Uint8Array): Promise<Buffer> {
  return sharp(png).png({ palette: true, colours: 256, dither: 0, effort: 10, compressionLevel: 9 }).toBuffer();
}

const rgba = async (png: Uint8Array) => sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });

/** How many pixels of `a` and `b` differ by more than CHANNEL_THRESHOLD in some channel, as a fraction of all. */
export async function differing(a: Uint8Array, b: Uint8Array): Promise<number> {
  const [x, y] = await Promise.all([rgba(a), rgba(b)]);
  if (x.info.width !== y.info.width || x.info.height !== y.info.height) return 1;
  let count = 0;
  for (let i = 0; i < x.data.length; i += 4) {
    for (let c = 0; c < 4; c++) if (Math.abs(x.data[i + c]! - y.data[i + c]!) > CHANNEL_THRESHOLD) { count++; break; }
  }
  return count / (x.info.width * x.info.height);
}
