import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { directive } from 'micromark-extension-directive';
import type { ContentError } from './errors.ts';
import { siteHtml, type TocEntry } from './markdown-site.ts';
import { respell } from './markdown-spelling.ts';

export type { TocEntry } from './markdown-site.ts';
export { slugify } from './markdown-site.ts';
export interface RenderedMarkdown { html: string; toc: TocEntry[]; errors: ContentError[] }

// Built once: micromark only reads them.
const syntax = [gfm(), directive()];
const gfmOutput = gfmHtml();

/**
 * Markdown → HTML, once per document, in one pass: micromark's tokens straight to HTML, with no
 * syntax tree in between (remark built two, mdast and hast, and cost most of a build's time).
 * GFM and directives as before; `siteHtml` adds heading ids, the table of contents, the boxes and
 * the checks that keep markdown plain. `lineOffset` maps body lines back to the file's lines.
 * A pure function of its arguments, so that it can run in a worker.
 */
export function renderMarkdown(source: string, file: string, lineOffset = 0): RenderedMarkdown {
  const out = { toc: [] as TocEntry[], errors: [] as ContentError[] };
  const html = micromark(source, {
    extensions: syntax,
    // Links keep any protocol, as remark-html left them: authors write the content, visitors do not.
    allowDangerousProtocol: true,
    htmlExtensions: [gfmOutput, ...siteHtml(file, lineOffset, out)],
  });
  const spelt = respell(html);
  return { html: spelt && !/[\r\n]$/.test(spelt) ? `${spelt}\n` : spelt, ...out };
}
