import { renderMarkdown } from './markdown.ts';
import { readFrontMatter } from './front-matter.ts';
import { bodyMarker, type KeptBody } from '../body-marker.ts';
import { packValue } from '../pack-value.ts';
import { sourceText, type MarkdownJob, type ParsedMarkdownFile } from './markdown-job.ts';

/**
 * The one place that calls the markdown renderer: pure, plain data in and out, so that it can run
 * in a worker thread and its result can be cached.
 */
export async function parseMarkdownFile({ source, rel, forms, images, apart }: MarkdownJob): Promise<ParsedMarkdownFile> {
  const { front, frontLine, data, errors, body: content, bodyLine } = readFrontMatter(sourceText(source), rel);
  const body = renderMarkdown(content, rel, bodyLine, forms, images);
  const parsed = { front, frontLine, frontData: data, frontErrors: errors };
  // Its HTML never travels to the main thread as a string: a large blog's bodies would be most of its
  // heap. Nor does its table of contents, which only its page reads (see body-marker.ts).
  if (apart !== undefined) return { ...parsed, body: { ...body, html: bodyMarker(apart), toc: [] }, bodyEntry: packValue({ html: body.html, toc: body.toc } satisfies KeptBody) };
  return { ...parsed, body };
}
