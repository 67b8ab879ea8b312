import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { PageFigures } from './summary.ts';
import { SLOT_NAMES, type SlotName } from '../images/slots.ts';
import { EXACT_GZIP_LEVEL, exactGzipSize, needsExactGzip } from './gzip.ts';
import { BUDGETS_FILE } from './budgets-file.ts';

const kb = z.number().positive();
const count = z.number().int().min(0);

const BudgetsSchema = z.object({
  description: z.string().optional(),
  page: z.object({
    jsBeforeInteractionKb: kb,
    jsAllKb: kb,
    cssKb: kb,
    htmlKb: kb,
    renderBlockingScripts: count,
    imagesWithoutSize: count,
  }),
  /** Pages whose forms hydrate at idle: held to the Lighthouse TBT limit instead. */
  jsBeforeInteractionExempt: z.array(z.string().startsWith('/')),
  images: z.object({
    maxPixelsPerSlotPixel: z.number().min(1),
    /** Bytes (images are not gzipped) of the images a page loads eagerly, at the file a first screen picks. */
    beforeInteractionKb: kb,
    /** Per slot, the largest file a browser may fetch for one image shown in it. */
    largestFileKb: z.strictObject(Object.fromEntries(SLOT_NAMES.map((n) => [n, kb])) as Record<SlotName, typeof kb>),
  }),
  lighthouse: z.object({
    pages: z.array(z.string().startsWith('/')).min(1),
    runs: z.number().int().min(1),
    minScores: z.object({ performance: z.number(), accessibility: z.number(), 'best-practices': z.number(), seo: z.number() }),
    maxTotalBlockingTimeMs: z.number().min(0),
  }),
});

export type Budgets = z.infer<typeof BudgetsSchema>;

/** The project's budgets, or undefined when it has no budgets.json (a fixture site, say). */
export async function loadBudgets(root: string): Promise<Budgets | undefined> {
  const file = path.join(root, BUDGETS_FILE);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return undefined;
  return parseBudgets(text, file);
}

export function parseBudgets(text: string, file = BUDGETS_FILE): Budgets {
  let data: unknown;
  try { data = JSON.parse(text); } catch (error) { throw new Error(`${file}: not valid JSON (${(error as Error).message})`); }
  const parsed = BudgetsSchema.safeParse(data);
  if (!parsed.success) {
    throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

// Kept in its own module, which a build worker loads without zod: see markup.ts.
export { markupFigures } from './markup.ts';

export interface BudgetFinding { page: string; figure: string; value: string; limit: string }

const KB = 1024;
const fmtKb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** One row per figure of a page: its name, the value, the limit, and whether it is over. */
export function pageRows(p: PageFigures, b: Budgets): Array<{ figure: string; value: string; limit: string; over: boolean; detail?: string }> {
  const exempt = b.jsBeforeInteractionExempt.includes(p.url);
  const size = (figure: string, bytes: number, limitKb: number) => ({ figure, value: fmtKb(bytes), limit: `${limitKb} KB`, over: bytes > limitKb * KB });
  return [
    exempt
      ? { figure: 'JS before interaction', value: fmtKb(p.jsInitial), limit: `exempt (TBT ≤ ${b.lighthouse.maxTotalBlockingTimeMs} ms)`, over: false }
      : size('JS before interaction', p.jsInitial, b.page.jsBeforeInteractionKb),
    size('JS all', p.jsAll, b.page.jsAllKb),
    size('CSS', p.css, b.page.cssKb),
    p.htmlExact === undefined ? size('HTML', p.html, b.page.htmlKb) : { ...size('HTML', p.htmlExact, b.page.htmlKb), value: `${fmtKb(p.htmlExact)} (level ${EXACT_GZIP_LEVEL})` },
    { figure: 'render-blocking scripts', value: String(p.renderBlockingScripts), limit: String(b.page.renderBlockingScripts), over: p.renderBlockingScripts > b.page.renderBlockingScripts },
    { figure: 'images without width/height', value: String(p.imagesWithoutSize), limit: String(b.page.imagesWithoutSize), over: p.imagesWithoutSize > b.page.imagesWithoutSize },
    { ...size('images before interaction', p.imagesBeforeInteraction, b.images.beforeInteractionKb), detail: p.eagerImages.map((i) => `${i.src} as ${path.basename(i.url)}, ${fmtKb(i.bytes)}`).join('; ') },
    largestImageRow(p, b),
  ];
}

const LARGEST = 'largest image file';

/** The page's image whose largest file is nearest its slot's limit (or furthest over it). */
function largestImageRow(p: PageFigures, b: Budgets): { figure: string; value: string; limit: string; over: boolean } {
  const ratio = (i: PageFigures['largest'][number]) => i.bytes / (b.images.largestFileKb[i.slot] * KB);
  // The first of the highest ratio, in one pass: fifteen thousand pages' copies sorted cost a rebuild 10 ms.
  let worst: PageFigures['largest'][number] | undefined;
  for (const i of p.largest) if (!worst || ratio(i) > ratio(worst)) worst = i;
  if (!worst) return { figure: LARGEST, value: '-', limit: 'per slot', over: false };
  return { figure: LARGEST, value: `${fmtKb(worst.bytes)} (${worst.slot})`, limit: `${b.images.largestFileKb[worst.slot]} KB`, over: ratio(worst) > 1 };
}

/** Every image of the page whose largest file is over its slot's limit, by name. */
function imageFindings(p: PageFigures, b: Budgets): BudgetFinding[] {
  return p.largest
    .filter((i) => i.bytes > b.images.largestFileKb[i.slot] * KB)
    .map((i) => ({ page: p.url, figure: `image ${i.src} (${i.slot} slot), largest file`, value: `${fmtKb(i.bytes)} (${path.basename(i.url)})`, limit: `${b.images.largestFileKb[i.slot]} KB` }));
}

/**
 * The pages with their HTML gzipped again at level 9 where the level-1 figure cannot tell the verdict
 * (see gzip.ts): near the limit or over it. `read` gives a page's document; on a site within its
 * budgets by a margin, it is never called.
 */
export async function withExactHtml(pages: PageFigures[], budgets: Budgets, read: (url: string) => Promise<Uint8Array>): Promise<PageFigures[]> {
  const limit = budgets.page.htmlKb * KB;
  return Promise.all(pages.map(async (p) => (needsExactGzip(p.html, limit) ? { ...p, htmlExact: exactGzipSize(await read(p.url)) } : p)));
}

/** Every figure over its limit, page by page; images by name. The HTML's verdict is its level-9 size's where `withExactHtml` took it. */
export function checkBudgets(pages: PageFigures[], budgets: Budgets): BudgetFinding[] {
  return pages.flatMap((p) => [
    ...pageRows(p, budgets).filter((r) => r.over && r.figure !== LARGEST).map(({ figure, value, limit, detail }) => ({ page: p.url, figure, value: detail ? `${value} (${detail})` : value, limit })),
    ...imageFindings(p, budgets),
  ]);
}

/** Thrown by `site build` after writing dist/ when a page is over budget; the CLI prints the lines and exits 1. */
const shown = (dir: string) => path.relative(process.cwd(), dir) || '.';

export class BudgetError extends Error {
  /** `pages`: every page's figures, so that a report can still show the whole table. */
  /** Where the build left the pages to inspect, and the output folder it left alone (set by the build, which knows its folders). */
  keptAt?: { pages: string; outDir: string };

  constructor(readonly findings: BudgetFinding[], readonly pages: PageFigures[] = []) {
    super(`over budget (${BUDGETS_FILE}): ${findings.map((f) => `${f.page} ${f.figure} ${f.value} > ${f.limit}`).join('; ')}`);
    this.name = 'BudgetError';
  }

  get lines(): string[] {
    const pages = new Set(this.findings.map((f) => f.page)).size;
    return [
      ...this.findings.map((f) => `${f.page}: ${f.figure} is ${f.value}, over the budget of ${f.limit}`),
      `build failed: ${this.findings.length} figure${this.findings.length === 1 ? '' : 's'} over budget on ${pages} page${pages === 1 ? '' : 's'} (sizes gzip, HTML at level ${EXACT_GZIP_LEVEL}; limits in ${BUDGETS_FILE})`,
      ...(this.keptAt ? [`${shown(this.keptAt.outDir)}/ is unchanged (the last build that passed); this build's pages are in ${shown(this.keptAt.pages)}/ to inspect`] : []),
    ];
  }
}
