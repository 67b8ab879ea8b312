import { inflateSync } from 'node:zlib';

/**
 * The advance widths and character coverage of a WOFF font, read straight from its tables (head,
 * hhea, hmtx, cmap): enough to lay a title out in lines before satori draws it, and to leave out
 * characters no font can draw (an emoji would otherwise be a box). Kerning is ignored, so widths
 * come out a little wider than drawn, the safe side.
 */
export interface FontMetrics {
  unitsPerEm: number;
  /** Glyph index of a code point, 0 when the font has none. */
  glyphOf(codePoint: number): number;
  /** Advance width of a glyph, in font units. */
  advanceOf(glyph: number): number;
}

function woffTables(buf: Buffer): Map<string, Buffer> {
  if (buf.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF font (satori reads .woff, not .woff2)');
  const count = buf.readUInt16BE(12);
  const tables = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const at = 44 + i * 20;
    const tag = buf.toString('latin1', at, at + 4);
    const offset = buf.readUInt32BE(at + 4);
    const compLength = buf.readUInt32BE(at + 8);
    const origLength = buf.readUInt32BE(at + 12);
    const data = buf.subarray(offset, offset + compLength);
    tables.set(tag, compLength < origLength ? inflateSync(data) : data);
  }
  return tables;
}

/** cmap formats 4 (BMP) and 12 (all planes), as fonts from @fontsource carry them. */
function readCmap(cmap: Buffer): Map<number, number> {
  const map = new Map<number, number>();
  const subtables = cmap.readUInt16BE(2);
  const offsets: number[] = [];
  for (let i = 0; i < subtables; i++) {
    const platform = cmap.readUInt16BE(4 + i * 8);
    const encoding = cmap.readUInt16BE(6 + i * 8);
    if (platform === 3 && (encoding === 1 || encoding === 10)) offsets.push(cmap.readUInt32BE(8 + i * 8));
    else if (platform === 0) offsets.push(cmap.readUInt32BE(8 + i * 8));
  }
  for (const o of offsets) {
    const format = cmap.readUInt16BE(o);
    if (format === 4) {
      const segs = cmap.readUInt16BE(o + 6) / 2;
      const ends = o + 14, starts = ends + segs * 2 + 2, deltas = starts + segs * 2, ranges = deltas + segs * 2;
      for (let s = 0; s < segs; s++) {
        const end = cmap.readUInt16BE(ends + s * 2), start = cmap.readUInt16BE(starts + s * 2);
        const delta = cmap.readInt16BE(deltas + s * 2), range = cmap.readUInt16BE(ranges + s * 2);
        for (let c = start; c <= end && c !== 0xffff; c++) {
          let glyph: number;
          if (range === 0) glyph = (c + delta) & 0xffff;
          else {
            const g = cmap.readUInt16BE(ranges + s * 2 + range + (c - start) * 2);
            glyph = g === 0 ? 0 : (g + delta) & 0xffff;
          }
          if (glyph && !map.has(c)) map.set(c, glyph);
        }
      }
    } else if (format === 12) {
      const groups = cmap.readUInt32BE(o + 12);
      for (let g = 0; g < groups; g++) {
        const at = o + 16 + g * 12;
        const start = cmap.readUInt32BE(at), end = cmap.readUInt32BE(at + 4), first = cmap.readUInt32BE(at + 8);
        for (let c = start; c <= end; c++) if (!map.has(c)) map.set(c, first + c - start);
      }
    }
  }
  return map;
}

export function fontMetrics(woff: Buffer): FontMetrics {
  const tables = woffTables(woff);
  const need = (tag: string) => { const t = tables.get(tag); if (!t) throw new Error(`font has no ${tag} table`); return t; };
  const unitsPerEm = need('head').readUInt16BE(18);
  const longMetrics = need('hhea').readUInt16BE(34);
  const hmtx = need('hmtx');
  const cmap = readCmap(need('cmap'));
  return {
    unitsPerEm,
    glyphOf: (c) => cmap.get(c) ?? 0,
    advanceOf: (glyph) => hmtx.readUInt16BE(Math.min(glyph, longMetrics - 1) * 4),
  };
}

/**
 * The width of `text` in pixels at `size`, each character from the first font that has it (as
 * satori falls back through its fonts); undefined where none has it.
 */
export function textWidth(fonts: FontMetrics[], text: string, size: number): number {
  let width = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    const font = fonts.find((f) => f.glyphOf(c));
    if (font) width += (font.advanceOf(font.glyphOf(c)) / font.unitsPerEm) * size;
  }
  return width;
}

/** Whether some font draws the character (spaces included). */
export function covered(fonts: FontMetrics[], ch: string): boolean {
  const c = ch.codePointAt(0)!;
  return fonts.some((f) => f.glyphOf(c) !== 0);
}
