// The vocabulary of the site's markdown steps: what one document's render needs and reports (kept
// on its VFile), a step's shape, and a node's line in the file. The steps (markdown-site.ts,
// markdown-links.ts, markdown-images.ts) and the renderer (markdown.ts) all import it from here.
import type { Nodes, Parents } from 'mdast';
import type { ContentError } from './errors.ts';
import type { SiteImage } from '../images/site-image.ts';
import type { ImageUse } from '../images/picture.ts';
import type { SiteSettings } from './schemas.ts';
import type { TocEntry } from '../body-marker.ts';

export type { TocEntry } from '../body-marker.ts';

/** An address a document links to, with its line in the file. */
export interface DocumentLink { href: string; line?: number }

/** What one document's render needs and reports, kept on its VFile so that one processor serves every document. */
export interface SiteMarkdownState {
  file: string;
  lineOffset: number;
  forms: SiteSettings['assessmentForms'];
  images: Record<string, SiteImage>;
  toc: TocEntry[];
  links: DocumentLink[];
  /** The checks that keep markdown plain (raw HTML, unknown directives). */
  errors: ContentError[];
  /** Links, then images: reported after the checks of the same line, as before. */
  linkErrors: ContentError[];
  imageErrors: ContentError[];
  shown: ImageUse[];
}

declare module 'vfile' {
  interface DataMap { site: SiteMarkdownState }
}

/**
 * One of the site's steps over a document's mdast: `enter` sees every node once, in document order
 * (a node before its children), and may replace the node it is given; `done` runs after the walk,
 * for what needs the whole document (a reference's definition may come after it).
 */
export type SiteStep = (state: SiteMarkdownState) => { enter(node: Nodes, index: number | undefined, parent: Parents | undefined): void; done?(): void };

/** The file's line of a node: its line in the body plus the lines before the body. */
export const lineOf = (state: SiteMarkdownState, node: Nodes): number | undefined =>
  node.position ? node.position.start.line + state.lineOffset : undefined;
