import { describe, expect, it } from 'vitest';
import { cardFonts } from '../../src/cards/fonts.ts';
import { drawableText, fitText, TITLE_SIZES } from '../../src/cards/fit.ts';
import { covered, textWidth } from '../../src/cards/font-metrics.ts';
import { cardTitleBox } from '../../templates/share-card/ShareCard.tsx';

const bold = cardFonts().metrics[700];
const box = cardTitleBox(true);

describe('a share card title laid out for its box', () => {
  it('draws a short title at the largest size, on one line', () => {
    expect(fitText(bold, 'What Is Data?', box)).toMatchObject({ fontSize: TITLE_SIZES[0], lines: ['What Is Data?'] });
  });

  it('wraps and shrinks a 140-character title at whole words, every line within the width and the lines within the height', () => {
    const title = 'Why Data Transformation Must Come Before AI Adoption: Five Warning Signs That Your Organisation Is Not Yet Ready for It';
    const long = `${title} Today`.padEnd(140, '!').slice(0, 140);
    expect(long).toHaveLength(140);
    const fitted = fitText(bold, long, box);
    expect(fitted.fontSize).toBeLessThan(TITLE_SIZES[0]!);
    expect(fitted.lines.join(' ')).toBe(long);
    for (const line of fitted.lines) expect(textWidth(bold, line, fitted.fontSize)).toBeLessThanOrEqual(box.width);
    expect(fitted.lines.length * fitted.fontSize * fitted.lineHeight).toBeLessThanOrEqual(box.height);
  });

  it('ends a title too long for any size with an ellipsis after a whole word, inside the box', () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    const fitted = fitText(bold, words, box);
    const text = fitted.lines.join(' ');
    expect(text.endsWith('…')).toBe(true);
    // Every word drawn is one of the title's, whole.
    for (const w of text.slice(0, -1).split(' ')) expect(words.split(' ')).toContain(w);
    expect(fitted.lines.length * fitted.fontSize * fitted.lineHeight).toBeLessThanOrEqual(box.height);
  });

  it('keeps UK punctuation and accented letters, and leaves out an emoji rather than drawing a box', () => {
    const title = 'Café data – the board’s “quick wins”, naïvely';
    expect(drawableText(bold, title)).toBe(title);
    for (const ch of title) expect(covered(bold, ch), ch).toBe(true);
    expect(drawableText(bold, 'Launch day 🚀 for 👩🏽‍💻 teams ✔️')).toBe('Launch day for teams');
  });
});
