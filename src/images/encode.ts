import { ENCODER_SETTINGS } from './encoder-settings.ts';
import type { Variant } from './plan.ts';

/**
 * One variant from the source's bytes: turned upright by its EXIF orientation, resized to the
 * planned size, encoded. sharp writes no metadata unless asked, so EXIF (GPS included), XMP and
 * IPTC stay behind; colours are converted to sRGB. A file damaged past its header fails here.
 */
export async function encode(input: Buffer, v: Variant): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const pipeline = sharp(input, { autoOrient: true, failOn: 'error' }).resize({ width: v.width, height: v.height, fit: 'fill' });
  switch (v.format) {
    case 'avif': return pipeline.avif(ENCODER_SETTINGS.avif).toBuffer();
    case 'webp': return pipeline.webp(ENCODER_SETTINGS.webp).toBuffer();
    case 'jpeg': return pipeline.jpeg(ENCODER_SETTINGS.jpeg).toBuffer();
    case 'png': return pipeline.png(ENCODER_SETTINGS.png).toBuffer();
  }
}
