/**
 * How each format is encoded. Part of every variant's name and cache key, so a change here
 * rebuilds every variant under new names; raise `version` when the pipeline changes otherwise.
 * AVIF at effort 2: on this 2-core machine effort 4 costs about six times the CPU for the same
 * visible quality (measured on the test photo; see tests/images).
 */
export const ENCODER_SETTINGS = {
  version: 1,
  avif: { quality: 50, effort: 2, chromaSubsampling: '4:2:0' },
  webp: { quality: 75, effort: 4 },
  jpeg: { quality: 75, mozjpeg: true },
  png: { compressionLevel: 9, adaptiveFiltering: true },
} as const;
