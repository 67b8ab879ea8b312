import { inflateSync } from 'node:zlib';

/**
 * The advance widths and character coverage of a WOFF font, read straight from its tables (head,
 * hhea, hmtx, cmap): enough to lay a title out in lines before the renderer draws it, and to leave out
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

interface WoffTable { tag: string; checksum: number; data: Buffer }

function woffTableList(buf: Buffer): WoffTable[] {
  if (buf.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF font (the cards read .woff files)');
  const count = buf.readUInt16BE(12);
  const tables: WoffTable[] = [];
  for (let i = 0; i < count; i++) {
    const at = 44 + i * 20;
    const offset = buf.readUInt32BE(at + 4);
    const compLength = buf.readUInt32BE(at + 8);
    const origLength = buf.readUInt32BE(at + 12);
    const data = buf.subarray(offset, offset + compLength);
    tables.push({ tag: buf.toString('latin1', at, at + 4), checksum: buf.readUInt32BE(at + 16), data: compLength < origLength ? inflateSync(data) : data });
  }
  return tables;
}

function woffTables(buf: Buffer): Map<string, Buffer> {
  return new Map(woffTableList(buf).map((t) => [t.tag, t.data]));
}

/**
 * The WOFF font as the plain OpenType (sfnt) file it wraps: its tables inflated and laid out behind
 * a table directory. takumi's WebAssembly build reads no WOFF, and both builds are handed the same bytes.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  const tables = woffTableList(woff).sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  const n = tables.length;
  const pow = 2 ** Math.floor(Math.log2(n));
  const header = Buffer.alloc(12 + 16 * n);
  header.writeUInt32BE(woff.readUInt32BE(4), 0);
  header.writeUInt16BE(n, 4);
  header.writeUInt16BE(pow * 16, 6);
  header.writeUInt16BE(Math.log2(pow), 8);
  header.writeUInt16BE(n * 16 - pow * 16, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((t, i) => {
    const at = 12 + 16 * i;
    header.write(t.tag, at, 'latin1');
    header.writeUInt32BE(t.checksum, at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(t.data.length, at + 12);
    // Each table starts on a four-byte boundary.
    const padded = Buffer.alloc((t.data.length + 3) & ~3);
    t.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
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
 * the renderer falls back through its fonts); undefined where none has it.
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
