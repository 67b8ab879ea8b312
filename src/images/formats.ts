/** The source formats the site takes, told apart by their bytes, never by their names. */
export type SourceFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'svg';
/** What the build writes for a raster source. */
export type OutputFormat = 'avif' | 'webp' | 'jpeg' | 'png';

export const FORMAT_NAMES: Record<SourceFormat | 'gif' | 'heic' | 'tiff', string> = {
  jpeg: 'JPEG', png: 'PNG', webp: 'WebP', avif: 'AVIF', svg: 'SVG', gif: 'GIF', heic: 'HEIC', tiff: 'TIFF',
};

export const EXTENSIONS: Record<string, SourceFormat> = {
  '.jpg': 'jpeg', '.jpeg': 'jpeg', '.png': 'png', '.webp': 'webp', '.avif': 'avif', '.svg': 'svg',
};

/** The name ending a source of each format should have. */
export const SOURCE_EXTENSION: Record<SourceFormat, string> = { jpeg: '.jpg', png: '.png', webp: '.webp', avif: '.avif', svg: '.svg' };

export const MIME: Record<OutputFormat | 'svg', string> = {
  avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg', png: 'image/png', svg: 'image/svg+xml',
};

export const EXTENSION_OF: Record<OutputFormat, string> = { avif: '.avif', webp: '.webp', jpeg: '.jpg', png: '.png' };

const ascii = (buf: Uint8Array, from: number, to: number) => Buffer.from(buf.subarray(from, to)).toString('latin1');

/**
 * The format a file's first bytes announce: JPEG's SOI marker, PNG's signature, a RIFF/WEBP
 * header, an ISO-BMFF `ftyp` box whose brands say AVIF (or HEIC), or text that opens an <svg>.
 * Formats the site refuses are named too, so the error can say what the file really is.
 */
export function sniff(buf: Uint8Array): SourceFormat | 'gif' | 'heic' | 'tiff' | undefined {
  if (buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (ascii(buf, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 12) === 'WEBP') return 'webp';
  if (ascii(buf, 4, 8) === 'ftyp') {
    const size = Math.min(Buffer.from(buf).readUInt32BE(0), buf.length, 64);
    const brands = [ascii(buf, 8, 12), ...Array.from({ length: Math.max(0, (size - 16) / 4) }, (_, i) => ascii(buf, 16 + i * 4, 20 + i * 4))];
    if (brands.some((b) => b === 'avif' || b === 'avis')) return 'avif';
    if (brands.some((b) => /^(heic|heix|mif1|msf1)$/.test(b))) return 'heic';
    return undefined;
  }
  if (ascii(buf, 0, 6) === 'GIF87a' || ascii(buf, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(buf, 0, 4) === 'II*\0' || ascii(buf, 0, 4) === 'MM\0*') return 'tiff';
  // Text: a byte-order mark, an XML declaration, comments and a doctype may come before <svg.
  const head = Buffer.from(buf.subarray(0, 4096)).toString('utf8').replace(/^\uFEFF/, '');
  if (/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head)) return 'svg';
  return undefined;
}
