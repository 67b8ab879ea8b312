import type { RenderedPage } from './page.tsx';
import type { SiteImage } from '../images/site-image.ts';
import type { ImagePreload } from '../images/picture.ts';
import { escapeMarkup as attr } from './escape.ts';

export interface PageAssets {
  css: string;
  runtime?: string;
  /** Chunks to preload: only those the page runs at load. */
  preload: string[];
  favicon?: SiteImage;
  /** Inline scripts, identical on every page so that one CSP hash list covers the site. */
  inlineScripts: string[];
  /** Extra tags for the head (e.g. `site serve`'s live reload). */
  extraHead?: string;
  feed?: { href: string; title: string };
}

/** The LCP image's preload: one format (with `type`, which a browser that cannot decode it skips), at high priority. */
function preloadTag(p: ImagePreload): string {
  const source = p.imageSrcSet ? `imagesrcset="${attr(p.imageSrcSet)}" imagesizes="${attr(p.imageSizes ?? '')}"` : `href="${attr(p.href ?? '')}"`;
  return `<link rel="preload" as="image" type="${attr(p.type)}" ${source} fetchpriority="high">`;
}

/**
 * Where a page's head and body lie in its document, as offsets into its text: [head start, head end,
 * body start, body end]. A later build whose shell differs cuts them out of the document on disk and
 * puts them into the new shell, rather than render the page again (see page-output.ts).
 */
export type DocumentCut = [number, number, number, number];

/** The document shell around a rendered page, and where the page's head and body lie in it. */
export function documentHtml(page: RenderedPage, assets: PageAssets): { html: string; cut: DocumentCut } {
  const lead = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ...assets.inlineScripts.map((s) => `<script>${s}</script>`),
  ];
  const tail = [
    // Before the stylesheet, so the LCP image is requested as early as the CSS.
    page.preload ? preloadTag(page.preload) : '',
    `<link rel="stylesheet" href="${attr(assets.css)}">`,
    assets.favicon ? `<link rel="icon" href="${attr(assets.favicon.src)}" type="image/svg+xml">` : '',
    assets.feed ? `<link rel="alternate" type="application/atom+xml" href="${attr(assets.feed.href)}" title="${attr(assets.feed.title)}">` : '',
    '<meta name="theme-color" content="#0b2545">',
    page.islands.size && assets.runtime ? `<script type="module" src="${attr(assets.runtime)}"></script>` : '',
    ...(page.islands.size ? assets.preload.map((href) => `<link rel="modulepreload" href="${attr(href)}">`) : []),
    assets.extraHead ?? '',
  ].filter(Boolean);
  // The head's lines one to a line, as ever: the page's own head (if any) between the shell's first lines and the rest.
  const open = `<!doctype html>\n<html lang="en-GB"${page.route.status === 200 ? '' : ` data-status="${page.route.status}"`}>\n<head>\n${lead.join('\n')}${page.head ? '\n' : ''}`;
  const middle = `${tail.map((line) => `\n${line}`).join('')}\n</head>\n<body>\n`;
  const headEnd = open.length + page.head.length;
  const bodyStart = headEnd + middle.length;
  return { html: `${open}${page.head}${middle}${page.body}\n</body>\n</html>\n`, cut: [open.length, headEnd, bodyStart, bodyStart + page.body.length] };
}

/** The text of the code that makes a document: part of the key under which a written page may stand (see pipeline/render-stage.ts). */
export const DOCUMENT_CODE = [documentHtml, preloadTag, attr].map(String).join('\n');
