import { renderMarkdown, type RenderedMarkdown } from './markdown.ts';
import type { SiteSettings } from './schemas.ts';
import type { ContentError } from './errors.ts';
import type { SiteImage } from './images.ts';
import { readFrontMatter } from './front-matter.ts';

/** One markdown file to parse: its text, its path as errors name it, the survey addresses its links may name, the images it names. */
export interface MarkdownJob { source: string; rel: string; forms?: SiteSettings['assessmentForms']; images?: Record<string, SiteImage> }

/** A markdown file split and rendered: the front matter's text (validated later, on the main thread) and the body's HTML. */
export interface ParsedMarkdownFile {
  front: string;
  /** Lines of the file before the front matter's text, so that its errors point at the file's own lines. */
  frontLine: number;
  /** The front matter parsed (here, off the main thread), and its YAML errors; the schema is checked later. */
  frontData: unknown;
  frontErrors: ContentError[];
  body: RenderedMarkdown;
}

/**
 * The one place that calls the markdown renderer: pure, plain data in and out, so that it can run
 * in a worker thread and its result can be cached.
 */
export async function parseMarkdownFile({ source, rel, forms, images }: MarkdownJob): Promise<ParsedMarkdownFile> {
  const { front, frontLine, data, errors, body: content, bodyLine } = readFrontMatter(source, rel);
  const body = renderMarkdown(content, rel, bodyLine, forms, images);
  return { front, frontLine, frontData: data, frontErrors: errors, body };
}
