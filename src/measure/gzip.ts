import { gzipSync } from 'node:zlib';

/**
 * The zlib level of a page's gzip figure: level 1, which took 0.55–0.65 of level 9's CPU over the
 * 1,545 pages of the site with 1,000 generated articles, for a figure 6–11 % larger. A CDN compresses
 * with its own settings anyway: the figure is the build's measure of a page, not what a visitor gets.
 * The site's assets (a handful of files, gzipped once while they stay the same) keep level 9.
 */
export const PAGE_GZIP_LEVEL = 1;
/** The level budgets.json's verdicts are taken at: a page's HTML is within its limit when its level-9 size is. */
export const EXACT_GZIP_LEVEL = 9;

/**
 * How far a page's level-9 size may be above its level-1 size, as a fraction: none was, over the
 * real site's pages and those of 1,000 generated articles (level 9 was 6–10 % smaller; the test holds
 * every page to this margin), and this much is allowed all the same. A page whose level-1 figure is at most limit / (1 + margin) is
 * within the limit at level 9 too; only a page above that is gzipped again at level 9 for its verdict.
 */
export const LEVEL_MARGIN = 0.02;

export const pageGzipSize = (bytes: Uint8Array): number => gzipSync(bytes, { level: PAGE_GZIP_LEVEL }).byteLength;
export const exactGzipSize = (bytes: Uint8Array): number => gzipSync(bytes, { level: EXACT_GZIP_LEVEL }).byteLength;

/** Whether a page's level-1 figure is too near `limit` (or over it) to tell its level-9 verdict without gzipping it at level 9. */
export const needsExactGzip = (pageFigure: number, limit: number): boolean => pageFigure * (1 + LEVEL_MARGIN) > limit;
