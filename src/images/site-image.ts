import type { SourceFormat } from './formats.ts';

/** An image of content/images, keyed by the path authors write (/images/x.jpg); content/images.ts reads them. */
export interface SiteImage {
  /** The one file served where a <picture> cannot be (og:image, JSON-LD, the favicon): an SVG as it is, a raster source as its fallback format at most 1200 px wide. */
  src: string;
  width: number;
  height: number;
  /** content/images/x.jpg, for errors. */
  file: string;
  bytes: number;
  /** The source as its bytes say: format, size after EXIF orientation, alpha, SHA-256 of the content. */
  source: { format: SourceFormat; width: number; height: number; alpha: boolean; hash: string };
}
