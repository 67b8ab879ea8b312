import type { Root } from 'mdast';
import { unified, type Processor } from 'unified';
import remarkHtml from 'remark-html';
import { VFile } from 'vfile';
import type { ContentError } from './errors.ts';
import type { SiteSettings } from './schemas.ts';
import { ASSESSMENT_FORMS } from './assessment-forms.ts';
import { boxes, headingIds, plainChecks, remarkSiteSteps, textDirectivesAsText } from './markdown-site.ts';
import type { DocumentLink, SiteMarkdownState, TocEntry } from './markdown-state.ts';
import { collectLinks, surveyLinks } from './markdown-links.ts';
import { pictures } from './markdown-images.ts';
import { markdownParser, type MarkdownParser } from './markdown-parser.ts';
import type { SiteImage } from '../images/site-image.ts';
import type { ImageUse } from '../images/picture.ts';

export type { DocumentLink, TocEntry } from './markdown-state.ts';
export { slugify } from './markdown-site.ts';
/** `images`: the content/images files the body shows, for the page that prints it to report. */
export interface RenderedMarkdown { html: string; toc: TocEntry[]; links: DocumentLink[]; errors: ContentError[]; images: ImageUse[] }

/** The survey forms whose addresses markdown may link to, from content/site.yaml. */
export type FormAddresses = SiteSettings['assessmentForms'];

const NO_ADDRESSES = Object.fromEntries(ASSESSMENT_FORMS.map((name) => [name, ''])) as FormAddresses;

/**
 * remark's processor with `parser` underneath (satteri, or remark-parse where it cannot load) and the
 * site's steps over mdast in one walk (see remarkSiteSteps), in this order: the checks see the
 * author's tree before our own raw HTML goes in; links are collected as written.
 */
export function siteProcessor(parser: MarkdownParser): Processor<Root, Root, Root, Root, string> {
  return unified()
    .use(function parse(this: Processor) { this.parser = (document: string) => parser.parse(document); })
    .use(remarkSiteSteps, [plainChecks, collectLinks, textDirectivesAsText, boxes, headingIds, surveyLinks, pictures])
    // Links keep any protocol, as before: authors write the content, visitors do not.
    .use(remarkHtml, { sanitize: false })
    .freeze() as unknown as Processor<Root, Root, Root, Root, string>;
}

const processors = new Map<MarkdownParser, Processor<Root, Root, Root, Root, string>>();

/**
 * Markdown → HTML, once per document: GFM and directives; heading ids, the table of contents, the
 * boxes and the checks that keep markdown plain; the links. `lineOffset` maps body lines back to the
 * file's lines; `forms` are the survey addresses that `assessment-form:` links resolve to; `images`
 * are the content/images files body images may name, each shown as a responsive <picture>. A pure
 * function of its arguments, so that it can run in a worker. `parser` is for the differential test.
 */
export function renderMarkdown(source: string, file: string, lineOffset = 0, forms: FormAddresses = NO_ADDRESSES, images: Record<string, SiteImage> = {}, parser: MarkdownParser = markdownParser()): RenderedMarkdown {
  let processor = processors.get(parser);
  if (!processor) processors.set(parser, (processor = siteProcessor(parser)));
  const state: SiteMarkdownState = { file, lineOffset, forms, images, toc: [], links: [], errors: [], linkErrors: [], imageErrors: [], shown: [] };
  const vfile = new VFile({ value: source, data: { site: state } });
  const html = String(processor.processSync(vfile));
  // In document order; on one line, the checks before the links and images, as before.
  const errors = [...state.errors, ...state.linkErrors, ...state.imageErrors].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { html: html && !/[\r\n]$/.test(html) ? `${html}\n` : html, toc: state.toc, links: state.links, errors, images: state.shown };
}
