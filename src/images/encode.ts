import type { AvifOptions, JpegOptions, PngOptions, WebpOptions } from 'sharp';
import type { Variant } from './plan.ts';

/**
 * One variant from the source's bytes: turned upright by its EXIF orientation, resized to the
 * planned size, encoded. sharp writes no metadata unless asked, so EXIF (GPS included), XMP and
 * IPTC stay behind; colours are converted to sRGB. A file damaged past its header fails here.
 * Encoded with the variant's settings (its format's, or its slot's own AVIF quality: plan.ts).
 */
export async function encode(input: Buffer, v: Variant): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const pipeline = sharp(input, { autoOrient: true, failOn: 'error' }).resize({ width: v.width, height: v.height, fit: 'fill' });
  switch (v.format) {
    case 'avif': return pipeline.avif(v.settings as AvifOptions).toBuffer();
    case 'webp': return pipeline.webp(v.settings as WebpOptions).toBuffer();
    case 'jpeg': return pipeline.jpeg(v.settings as JpegOptions).toBuffer();
    case 'png': return pipeline.png(v.settings as PngOptions).toBuffer();
  }
}
