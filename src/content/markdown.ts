import { compile, parse, postprocess, preprocess } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { directive } from 'micromark-extension-directive';
import type { ContentError } from './errors.ts';
import { ASSESSMENT_FORMS, type SiteSettings } from './schemas.ts';
import { siteHtml, type TocEntry } from './markdown-site.ts';
import { documentLinks, newTabLinks, type DocumentLink } from './markdown-links.ts';
import { respell } from './markdown-spelling.ts';
import { bodyPictures, imageTokens } from './markdown-images.ts';
import type { SiteImage } from './images.ts';
import type { ImageUse } from '../images/picture.ts';

export type { TocEntry } from './markdown-site.ts';
export type { DocumentLink } from './markdown-links.ts';
export { slugify } from './markdown-site.ts';
/** `images`: the content/images files the body shows, for the page that prints it to report. */
export interface RenderedMarkdown { html: string; toc: TocEntry[]; links: DocumentLink[]; errors: ContentError[]; images: ImageUse[] }

/** The survey forms whose addresses markdown may link to, from content/site.yaml. */
export type FormAddresses = SiteSettings['assessmentForms'];

const NO_ADDRESSES = Object.fromEntries(ASSESSMENT_FORMS.map((name) => [name, ''])) as FormAddresses;

// Built once: micromark only reads them.
const syntax = [gfm(), directive()];
const gfmOutput = gfmHtml();

/**
 * Markdown → HTML, once per document, in one pass: micromark's tokens straight to HTML, with no
 * syntax tree in between (remark built two, mdast and hast, and cost most of a build's time).
 * GFM and directives as before; `siteHtml` adds heading ids, the table of contents, the boxes and
 * the checks that keep markdown plain; the links are read from the same tokens. `lineOffset` maps
 * body lines back to the file's lines; `forms` are the survey addresses that `assessment-form:`
 * links resolve to; `images` are the content/images files body images may name, each shown as a
 * responsive <picture>. A pure function of its arguments, so that it can run in a worker.
 */
export function renderMarkdown(source: string, file: string, lineOffset = 0, forms: FormAddresses = NO_ADDRESSES, images: Record<string, SiteImage> = {}): RenderedMarkdown {
  const out = { toc: [] as TocEntry[], errors: [] as ContentError[] };
  const events = postprocess(parse({ extensions: syntax }).document().write(preprocess()(source, undefined, true)));
  const linkErrors: ContentError[] = [];
  const links = documentLinks(events, file, lineOffset, linkErrors);
  const shown = { errors: linkErrors, images: [] as ImageUse[] };
  const html = compile({
    // Links keep any protocol, as remark-html left them: authors write the content, visitors do not.
    allowDangerousProtocol: true,
    htmlExtensions: [gfmOutput, ...siteHtml(file, lineOffset, out)],
  })(events);
  const spelt = respell(bodyPictures(newTabLinks(html, forms), imageTokens(events, lineOffset), images, file, shown));
  // In document order, as one walk of the tree reported them.
  const errors = [...out.errors, ...linkErrors].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { html: spelt && !/[\r\n]$/.test(spelt) ? `${spelt}\n` : spelt, toc: out.toc, links, errors, images: shown.images };
}
