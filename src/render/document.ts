import type { RenderedPage } from './page.tsx';
import type { SiteImage } from '../content/images.ts';
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

/** The document shell around a rendered page. */
export function documentHtml(page: RenderedPage, assets: PageAssets): string {
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ...assets.inlineScripts.map((s) => `<script>${s}</script>`),
    page.head,
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
  return `<!doctype html>\n<html lang="en-GB"${page.route.status === 200 ? '' : ` data-status="${page.route.status}"`}>\n<head>\n${head.join('\n')}\n</head>\n<body>\n${page.body}\n</body>\n</html>\n`;
}

/** The text of the code that makes a document: part of the key under which a written page may stand (see build.ts). */
export const DOCUMENT_CODE = [documentHtml, preloadTag, attr].map(String).join('\n');
