/**
 * How each format is encoded. Part of every variant's name and cache key, so a change here
 * rebuilds every variant under new names; raise `version` when the pipeline changes otherwise.
 * AVIF at effort 2: effort 4 costs 4.5-6 times the CPU for files 2-21 % smaller (measured on the
 * test photo, quality/photo-fixture.ts: 750 px 0.4 s → 2.5 s CPU, 50.0 → 48.8 KB; 1920 px
 * 2.0 s → 8.9 s, 231 → 181 KB). The phone's file barely changes; a cold build would take minutes.
 */
export const ENCODER_SETTINGS = {
  version: 1,
  avif: { quality: 50, effort: 2, chromaSubsampling: '4:2:0' },
  webp: { quality: 75, effort: 4 },
  jpeg: { quality: 75, mozjpeg: true },
  png: { compressionLevel: 9, adaptiveFiltering: true },
} as const;
