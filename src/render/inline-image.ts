// Small SVGs carried in a page's document as data: URLs (which the CSP's img-src allows): its LCP
// image, which then paints in the first frame that paints anything, with the text, not a request and
// a round trip after it (and needs no preload); and the site's logo and favicon, on every page, so
// that nothing but the stylesheet and the islands' runtime is fetched before that frame.
import type { RenderedPage } from './page.tsx';

/** An SVG at most this size goes into the documents that show it so. */
export const INLINE_SVG_BYTES = 8 * 1024;

/** What the documents carry: data: URLs by the file they stand for, and the files every page carries (the logo). */
export interface InlineImages { urls: Record<string, string>; everyPage: string[] }

/**
 * An SVG's text as a data: URL: its runs of white space one space, as SVG's own white-space handling
 * reads them, and every character a URL may not hold as it is (or an HTML attribute: `&`, `"`) escaped.
 */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml,${svg.replace(/\s+/g, ' ').trim().replace(/[^A-Za-z0-9\-._~!$'()*+,;=:@/?]/g, (c) => encodeURIComponent(c))}`;
}

/**
 * Each <img> of `body` whose `src` is `href` given the data URL `url` instead, decoded with the paint
 * that shows it (not `decoding="async"`, which leaves it to a later frame) and not lazily (nothing to fetch).
 */
function inlined(body: string, href: string, url: string): string {
  const open = `<img src="${href}"`;
  let out = '';
  let from = 0;
  for (let at = body.indexOf(open); at !== -1; at = body.indexOf(open, from)) {
    const end = body.indexOf('>', at);
    if (end === -1) break;
    out += body.slice(from, at) + `<img src="${url}"` + body.slice(at + open.length, end).replace(' decoding="async"', '').replace(' loading="lazy"', '');
    from = end;
  }
  return out + body.slice(from);
}

/**
 * `page` with its LCP image (the one it preloads), if `inline` holds it, and the images every page
 * carries, in its document; no preload then.
 */
export function withInlineImages(page: RenderedPage, inline: InlineImages | undefined): RenderedPage {
  if (!inline) return page;
  let { body } = page;
  for (const href of inline.everyPage) body = inlined(body, href, inline.urls[href]!);
  const lcp = page.preload?.href;
  const url = lcp === undefined ? undefined : inline.urls[lcp];
  return url === undefined ? { ...page, body } : { ...page, body: inlined(body, lcp!, url), preload: undefined };
}

/** The text of the code that puts them in: part of what a written page's key holds (see pipeline/render-stage.ts). */
export const INLINE_IMAGE_CODE = [inlined, withInlineImages].map(String).join('\n');
