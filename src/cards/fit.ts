import { covered, textWidth, type FontMetrics } from './font-metrics.ts';

/** A title laid out for its box: the size it is drawn at and its lines, each a run of whole words. */
export interface FittedText { fontSize: number; lineHeight: number; lines: string[] }

export interface TextBox { width: number; height: number }

/** Sizes tried, largest first: a short title is drawn big, a long one smaller. */
export const TITLE_SIZES = [72, 66, 60, 54, 50, 46, 42, 38, 35, 32];
export const TITLE_LINE_HEIGHT = 1.15;
/** Widths are measured without kerning and drawn with it; this much is kept spare all the same. */
const SLACK = 0.97;

/**
 * The text as a card can draw it: characters no font has (emoji, rare scripts) left out rather
 * than drawn as boxes, along with the joiners and selectors that went with them; spaces collapsed.
 */
export function drawableText(fonts: FontMetrics[], text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    if (/[\u200d\ufe0e\ufe0f\u20e3]|\p{Emoji_Modifier}/u.test(ch)) continue;
    out += /\s/u.test(ch) ? ' ' : covered(fonts, ch) ? ch : '';
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Greedy word wrap at `size`: undefined when a word alone is wider than the box. */
function wrap(fonts: FontMetrics[], words: string[], size: number, width: number): string[] | undefined {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (textWidth(fonts, next, size) <= width) { line = next; continue; }
    if (!line || textWidth(fonts, word, size) > width) return undefined;
    lines.push(line);
    line = word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The largest size at which `text` wraps into the box at whole words. A title too long even at the
 * smallest size keeps the words that fit and ends with an ellipsis: it is never cut inside a word
 * and never drawn outside the box.
 */
export function fitText(fonts: FontMetrics[], text: string, box: TextBox, sizes = TITLE_SIZES, lineHeight = TITLE_LINE_HEIGHT): FittedText {
  const width = box.width * SLACK;
  const words = text.split(' ').filter(Boolean);
  for (const fontSize of sizes) {
    const most = Math.floor(box.height / (fontSize * lineHeight));
    const lines = wrap(fonts, words, fontSize, width);
    if (lines && lines.length <= most) return { fontSize, lineHeight, lines };
  }
  const fontSize = sizes[sizes.length - 1]!;
  const most = Math.max(1, Math.floor(box.height / (fontSize * lineHeight)));
  // Fewer and fewer words, until they and the ellipsis fit; a single over-long word is left out whole.
  for (let n = words.length - 1; n > 0; n--) {
    const lines = wrap(fonts, [...words.slice(0, n - 1), `${words[n - 1]!.replace(/[\s,.;:–-]+$/u, '')}…`], fontSize, width);
    if (lines && lines.length <= most) return { fontSize, lineHeight, lines };
  }
  return { fontSize, lineHeight, lines: [] };
}
