import matter from 'gray-matter';
import { renderMarkdown, type RenderedMarkdown } from './markdown.ts';
import type { SiteSettings } from './schemas.ts';

/** One markdown file to parse: its text, its path as errors name it, the survey addresses its links may name. */
export interface MarkdownJob { source: string; rel: string; forms?: SiteSettings['assessmentForms'] }

/** A markdown file split and rendered: the front matter's text (validated later, on the main thread) and the body's HTML. */
export interface ParsedMarkdownFile {
  front: string;
  /** Lines of the file before the front matter's text, so that its errors point at the file's own lines. */
  frontLine: number;
  body: RenderedMarkdown;
}

/**
 * The one place that calls the markdown renderer: pure, plain data in and out, so that it can run
 * in a worker thread and its result can be cached.
 */
export async function parseMarkdownFile({ source, rel, forms }: MarkdownJob): Promise<ParsedMarkdownFile> {
  // Options defeat gray-matter's cache, whose entries lose `.matter` on a second parse (serve's rebuilds).
  const { matter: front, content } = matter(source, {});
  const frontLine = source.slice(0, Math.max(0, source.indexOf(front))).split('\n').length - 1;
  const bodyStart = source.length - content.length;
  const body = await renderMarkdown(content, rel, source.slice(0, bodyStart).split('\n').length - 1, forms);
  return { front, frontLine, body };
}
