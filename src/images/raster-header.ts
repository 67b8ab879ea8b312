import zlib from 'node:zlib';

/** What a raster source's header says: its size upright (after EXIF orientation) and whether it has transparency. */
export interface RasterHeader { width: number; height: number; alpha: boolean }

/**
 * A PNG's or a JPEG's header read here, without sharp: loading sharp (libvips) costs a build's start
 * 0.15 s and more, and a site whose only raster image is its default share card needs nothing else
 * of it on a build whose images are cached. Undefined for any other format, and for a header this
 * reader does not find whole and as the format's specification lays it out: sharp reads those, and
 * words their faults.
 */
export function rasterHeader(buf: Uint8Array, format: string): RasterHeader | undefined {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  try {
    if (format === 'png') return pngHeader(buf, view);
    if (format === 'jpeg') return jpegHeader(buf, view);
  } catch (error) {
    // Read past the end: a header cut short, for sharp to name.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
  return undefined;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ascii = (buf: Uint8Array, at: number, length: number) => String.fromCharCode(...buf.subarray(at, at + length));

/**
 * IHDR, checked by its CRC, then the chunks before the image data: transparency is an alpha channel
 * (colour types 4 and 6) or a tRNS chunk, which libvips loads as one.
 */
function pngHeader(buf: Uint8Array, view: DataView): RasterHeader | undefined {
  if (!PNG_SIGNATURE.every((b, i) => buf[i] === b)) return undefined;
  // zlib.crc32 came in Node 22.2: before it, sharp reads the header.
  const crc = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
  if (!crc || view.getUint32(8) !== 13 || ascii(buf, 12, 4) !== 'IHDR' || view.getUint32(29) !== crc(buf.subarray(12, 29))) return undefined;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const colourType = buf[25]!;
  if (width === 0 || height === 0 || ![0, 2, 3, 4, 6].includes(colourType)) return undefined;
  let alpha = colourType === 4 || colourType === 6;
  for (let at = 33; !alpha; ) {
    const length = view.getUint32(at);
    const type = ascii(buf, at + 4, 4);
    if (type === 'IDAT' || type === 'IEND') break;
    if (type === 'tRNS') alpha = true;
    at += 12 + length;
  }
  return { width, height, alpha };
}

/** Start-of-frame markers (baseline, progressive and the rest); not DHT (C4), JPG (C8) or DAC (CC). */
const isFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** The frame's size, turned a quarter where EXIF's orientation (5 to 8) stands the picture on its side. */
function jpegHeader(buf: Uint8Array, view: DataView): RasterHeader | undefined {
  if (buf[0] !== 0xff || buf[1] !== 0xd8) return undefined;
  let orientation = 1;
  for (let at = 2; ; ) {
    if (buf[at] !== 0xff) return undefined;
    const marker = buf[at + 1]!;
    // Fill bytes, and the markers that carry no length.
    if (marker === 0xff) { at += 1; continue; }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { at += 2; continue; }
    if (marker === 0xd9 || marker === 0xda) return undefined;
    const length = view.getUint16(at + 2);
    if (length < 2) return undefined;
    if (marker === 0xe1 && ascii(buf, at + 4, 6) === 'Exif\0\0') orientation = exifOrientation(view, at + 10, at + 2 + length) ?? orientation;
    if (isFrame(marker)) {
      const height = view.getUint16(at + 5);
      const width = view.getUint16(at + 7);
      if (width === 0 || height === 0) return undefined;
      return orientation >= 5 && orientation <= 8 ? { width: height, height: width, alpha: false } : { width, height, alpha: false };
    }
    at += 2 + length;
  }
}

/** The Orientation tag (0x0112) of the TIFF structure at `tiff`, within the segment's `end`. */
function exifOrientation(view: DataView, tiff: number, end: number): number | undefined {
  const order = view.getUint16(tiff);
  if (order !== 0x4949 && order !== 0x4d4d) return undefined;
  const little = order === 0x4949;
  const ifd = tiff + view.getUint32(tiff + 4, little);
  if (ifd + 2 > end) return undefined;
  const count = view.getUint16(ifd, little);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return undefined;
    if (view.getUint16(entry, little) === 0x0112) return view.getUint16(entry + 8, little);
  }
  return undefined;
}
