import { gzipSync } from 'node:zlib';
import type { PageImageFigures } from '../images/figures.ts';
import { EXACT_GZIP_LEVEL, PAGE_GZIP_LEVEL } from './gzip.ts';
import type { Pruned } from '../images/prune.ts';
import type { ArticleFigures } from '../content/published.ts';

export interface SizeFigure { raw: number; gzip: number }

export function sizeOf(contents: string | Uint8Array): SizeFigure {
  const buf = typeof contents === 'string' ? Buffer.from(contents) : contents;
  return { raw: buf.byteLength, gzip: gzipSync(buf, { level: 9 }).byteLength };
}

export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const mb = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : kb(n));

/** One page's figures, gzip bytes (images: as served), for the budgets in budgets.json. */
export interface PageFigures extends PageImageFigures {
  url: string;
  /** The document gzipped at level 1 (see gzip.ts); the CSS and JS, at level 9. */
  html: number;
  /** The document gzipped at level 9, where its level-1 figure is too near the limit to tell the verdict (see budgets.ts). */
  htmlExact?: number;
  css: number;
  /** JavaScript loaded before the visitor interacts (the runtime, islands hydrated at load or idle). */
  jsInitial: number;
  /** All JavaScript the page can load. */
  jsAll: number;
  renderBlockingScripts: number;
  imagesWithoutSize: number;
}

/** What the image stage made and kept (pipeline/image-stage.ts). */
export interface ImageStats {
  /** Raster sources turned into variants, and their bytes. */
  sources: number;
  sourceBytes: number;
  /** Variants encoded by this build, and those taken from the cache. */
  processed: number;
  reused: number;
  variantBytes: number;
  /** Per source, its bytes less the largest file a modern browser gets for it: its largest AVIF, or its share file where no page shows it. */
  saved: number;
  svgs: number;
  /** Cached variants deleted after the build, unused for 30 days (see prune.ts). */
  pruned?: { files: number; bytes: number };
}

export interface BuildSummary {
  pages: number;
  perPage: PageFigures[];
  /** The whole build by the clock, start to summary (stages overlap: code and bundle run beside load). */
  wallMs?: number;
  /** Set when budgets.json was checked (and every page was within it). */
  budgetsChecked?: boolean;
  html: SizeFigure;
  css: SizeFigure;
  js: SizeFigure;
  /** Template name → gzip bytes of JS loaded before interaction, and of all JS it can load. */
  jsByTemplate: Record<string, { initial: number; all: number; pages: number }>;
  images: ImageStats;
  /** Share cards (og:image): drawn by this build (and their bytes), and taken from the cache. */
  cards?: { drawn: number; reused: number; bytes: number; pruned?: Pruned };
  /** The search index (dist/pagefind/): pages indexed, its bytes, its stage's time, and whether pagefind ran (false: the last index reused). */
  search?: { pages: number; bytes: number; ms: number; indexed: boolean };
  /** The content manager's bundle (dist/admin/cms.js), raw and gzip: apart from the pages' JavaScript and budgets. */
  cms?: { bytes: number; gzip: number };
  /** The routing entries for the CloudFront KeyValueStore: how many, their bytes, and the store's limit. */
  store?: { keys: number; bytes: number; limit: number };
  stages: Record<string, number>;
  /** How many articles are live, draft, scheduled and expired at the build's clock, and when that next changes. */
  articles: ArticleFigures;
}

/** 'next change: 2026-12-01 09:00 Europe/London, publishes a; expires b', or that nothing is dated. */
export function formatNextChange(a: ArticleFigures): string {
  const next = a.nextChange;
  if (!next) return 'next change: none scheduled';
  const what = [next.publishes.length ? `publishes ${next.publishes.join(', ')}` : '', next.expires.length ? `expires ${next.expires.join(', ')}` : ''].filter(Boolean);
  return `next change: ${next.local}, ${what.join('; ')}`;
}

export function formatArticles(a: ArticleFigures): string[] {
  return [`  articles: ${a.live} live, ${a.draft} draft, ${a.scheduled} scheduled, ${a.expired} expired`, `  ${formatNextChange(a)}`];
}

/** The figures for a CI job (`site build --json-summary`): everything but the per-page rows, which budgets.json reads. */
export function summaryJson(s: BuildSummary): string {
  const { perPage: _perPage, ...figures } = s;
  return JSON.stringify({ ...figures, stages: Object.fromEntries(Object.entries(s.stages).map(([k, v]) => [k, Math.round(v)])) }, null, 2);
}

export function formatSummary(s: BuildSummary): string {
  const lines = [
    `built ${s.pages} pages`,
    ...formatArticles(s.articles),
    `  HTML ${kb(s.html.raw)} (${kb(s.html.gzip)} gzip level ${PAGE_GZIP_LEVEL})   CSS ${kb(s.css.raw)} (${kb(s.css.gzip)} gzip)   JS ${kb(s.js.raw)} (${kb(s.js.gzip)} gzip)`,
    '  JavaScript per page type (gzip): before interaction / all it can load',
  ];
  const rows = Object.entries(s.jsByTemplate).sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(...rows.map(([t]) => t.length), 8);
  for (const [template, f] of rows) lines.push(`    ${template.padEnd(width)}  ${kb(f.initial).padStart(8)} / ${kb(f.all).padStart(8)}  (${f.pages} page${f.pages === 1 ? '' : 's'})`);
  const i = s.images;
  lines.push(`  images: ${i.sources} raster source${i.sources === 1 ? '' : 's'} (${mb(i.sourceBytes)}) → ${i.processed + i.reused} file${i.processed + i.reused === 1 ? '' : 's'} (${mb(i.variantBytes)}): ${i.processed} processed, ${i.reused} reused from the cache; ${mb(i.saved)} saved (each source less the largest file a modern browser gets for it); ${i.svgs} SVG${i.svgs === 1 ? '' : 's'} copied as they are`);
  if (s.cards) lines.push(`  share cards: ${s.cards.drawn + s.cards.reused}: ${s.cards.drawn} drawn (${mb(s.cards.bytes)}), ${s.cards.reused} reused from the cache`);
  if (s.search) lines.push(`  search index: ${s.search.pages} page${s.search.pages === 1 ? '' : 's'}, ${mb(s.search.bytes)}, ${s.search.indexed ? 'indexed' : 'unchanged, reused from the cache'} in ${Math.round(s.search.ms)} ms`);
  if (s.cms) lines.push(`  cms: /admin's bundle ${mb(s.cms.bytes)} (${mb(s.cms.gzip)} gzip level 9), not page JavaScript: outside the page budgets`);
  if (s.store) lines.push(`  routing store: ${s.store.keys} entries, ${kb(s.store.bytes)} of the CloudFront KeyValueStore's ${mb(s.store.limit)} (${(100 * s.store.bytes / s.store.limit).toFixed(1)}%), ${mb(s.store.limit - s.store.bytes)} to spare`);
  if (i.pruned?.files) lines.push(`  image cache: ${i.pruned.files} variant${i.pruned.files === 1 ? '' : 's'} (${mb(i.pruned.bytes)}) no build had used for 30 days deleted from .site/cache/images/`);
  const c = s.cards?.pruned;
  if (c?.files) lines.push(`  card cache: ${c.files} card${c.files === 1 ? '' : 's'} (${mb(c.bytes)}) no build had used for 30 days deleted from .site/cache/cards/`);
  if (s.budgetsChecked) lines.push(`  budgets.json: every page within budget (largest per page, gzip: JS ${kb(Math.max(...s.perPage.map((p) => p.jsAll)))}, CSS ${kb(Math.max(...s.perPage.map((p) => p.css)))}, HTML ${kb(Math.max(...s.perPage.map((p) => p.html)))} at level ${PAGE_GZIP_LEVEL}, each page within at level ${EXACT_GZIP_LEVEL})`);
  // Code and bundle run beside load, so the stages add up to more than the build took: the total is the build's own clock.
  lines.push(`  time: ${Object.entries(s.stages).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(', ')}, total ${Math.round(s.wallMs ?? Object.values(s.stages).reduce((a, b) => a + b, 0))} ms`);
  return lines.join('\n');
}
