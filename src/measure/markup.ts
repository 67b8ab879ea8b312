import type { PageFigures } from './summary.ts';

/** What the build can read from a page's own markup: scripts that block rendering, images with no reserved size. */
export function markupFigures(html: string): Pick<PageFigures, 'renderBlockingScripts' | 'imagesWithoutSize'> {
  const head = /<head\b[^>]*>([\s\S]*?)<\/head>/i.exec(html)?.[1] ?? '';
  // A classic external script in <head> stops the parser until it has loaded and run.
  const renderBlockingScripts = [...head.matchAll(/<script\b([^>]*)>/gi)]
    .map((m) => m[1] ?? '')
    .filter((attrs) => /\ssrc\s*=/i.test(attrs) && !/\s(async|defer)\b/i.test(attrs) && !/\stype\s*=\s*["']?module\b/i.test(attrs))
    .length;
  // Without width and height the browser cannot reserve the image's slot before it loads.
  const imagesWithoutSize = [...html.matchAll(/<img\b([^>]*)>/gi)]
    .filter((m) => !/\swidth\s*=/i.test(m[1] ?? '') || !/\sheight\s*=/i.test(m[1] ?? ''))
    .length;
  return { renderBlockingScripts, imagesWithoutSize };
}

export type MarkupFigures = ReturnType<typeof markupFigures>;
