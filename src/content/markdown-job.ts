import { hash } from 'node:crypto';
import path from 'node:path';
import type { RenderedMarkdown } from './markdown.ts';
import type { SiteSettings } from './schemas.ts';
import type { ContentError } from './errors.ts';
import type { SiteImage } from '../images/site-image.ts';
import { frontHash } from './front-hash.ts';
import { imagesNamedIn } from './markdown-images.ts';

// A markdown file's job and what its parse gives back, and the build cache's checks of them: plain
// data and small helpers, apart from the renderer (markdown-file.ts), so that importing them (the
// cache, a quick rebuild) loads none of the markdown processor, the YAML parser or the schemas.

/**
 * One markdown file to parse: its text, its path as errors name it, the survey addresses its links
 * may name, the images it names; and, for an article whose body the build cache keeps apart (see
 * body-marker.ts), the key it is kept under (`apart`).
 */
export interface MarkdownJob {
  /** The file's text, or its bytes as read (UTF-8, decoded by the thread that parses it: a load that finds every file in the cache decodes none). */
  source: string | Uint8Array;
  rel: string; forms?: SiteSettings['assessmentForms']; images?: Record<string, SiteImage>; apart?: string;
}

/**
 * A markdown file as the load hands it to be parsed: its job, and the SHA-256 of its bytes (which
 * its cache key holds). A file the build cache knows unchanged by its stat (see
 * cache/source-index.ts) comes unread: `read` gets its bytes, if it has to be parsed after all.
 */
export type LoadedMarkdown = Omit<MarkdownJob, 'source'> & { source?: MarkdownJob['source']; digest: string; read: () => Uint8Array;
  /** Its front hash (front-hash.ts), where the load knows it. */
  front?: string };

/**
 * A markdown file just read, as the load hands it to be parsed: its bytes, their digest and front hash
 * (front-hash.ts), and the images of `images` its text names.
 */
export function jobOfBytes(source: Buffer, rel: string, forms: SiteSettings['assessmentForms'] | undefined, images: Record<string, SiteImage>) {
  return { source, rel, forms, digest: digestOf(source), front: frontHash(source), images: imagesNamedIn(source, images), read: () => source } satisfies LoadedMarkdown;
}

/** The job a parser takes, its bytes read if they were not; throws if the file no longer has the bytes its digest names (it changed during the build). */
export function parseJob({ read, digest, front: _front, ...job }: LoadedMarkdown): MarkdownJob {
  if (job.source !== undefined) return { ...job, source: job.source };
  const source = read();
  if (digestOf(source) !== digest) throw new Error(`${job.rel} changed while the build was reading it: build again`);
  return { ...job, source };
}

/** The SHA-256 of a file's bytes (of a text's UTF-8 bytes): what a markdown file's cache key holds of them. */
export const digestOf = (source: string | Uint8Array): string => hash('sha256', source);

/** A job's text: its bytes decoded as reading the file as UTF-8 does. */
export const sourceText = (source: string | Uint8Array): string =>
  (typeof source === 'string' ? source : Buffer.from(source.buffer, source.byteOffset, source.byteLength).toString('utf8'));

/** A markdown file split and rendered: the front matter's text (validated later, on the main thread) and the body's HTML. */
export interface ParsedMarkdownFile {
  /**
   * The front matter's text, which the load reads again only for an error's line; not kept in a cache
   * entry filed as checked (a third of its bytes, decoded at every rebuild), where the file is read again instead.
   */
  front?: string;
  /** Lines of the file before the front matter's text, so that its errors point at the file's own lines. */
  frontLine: number;
  /** The front matter parsed (here, off the main thread), and its YAML errors; the schema is checked later. */
  frontData: unknown;
  frontErrors: ContentError[];
  body: RenderedMarkdown;
  /**
   * For a job kept `apart`: the body's cache entry, made by the thread that parsed it, in a buffer
   * of its own that can be handed over rather than copied (its KeptBody); `body.html` is then the
   * marker naming it, and `body.toc` is empty.
   */
  bodyEntry?: Uint8Array;
  /**
   * Set by the build cache for an article a load of this generator found valid, from exactly this
   * file (see cache/build-cache.ts): its front matter as the schema checked it, not checked again.
   */
  checked?: CheckedFront;
  /** Set by the build cache: the load hands back what it checked of a valid article, to be remembered. */
  remember?: (checked: CheckedFront) => void;
}

/**
 * A markdown file's front matter as the load's schema returned it, and the addresses it names, with
 * their lines; in the cache, with the generator that checked it (`by`: its code holds the schemas).
 */
export interface CheckedFront {
  data: object;
  /** frontDigest(data) (see front-digest.ts), for an article: worked out once, when the load checks it. */
  digest?: string;
  links: Array<{ line?: number; path: string; href: string }>;
  by?: string;
}

/** Whether a value read back from the build cache has a CheckedFront's shape (markdown entries and YAML files alike). */
export const isCheckedFront = (c: unknown): c is CheckedFront => {
  const v = c as CheckedFront | null;
  return typeof v === 'object' && v !== null && typeof v.data === 'object' && v.data !== null && Array.isArray(v.links)
    && (v.by === undefined || typeof v.by === 'string') && (v.digest === undefined || (typeof v.digest === 'string' && /^[0-9a-f]{64}$/.test(v.digest)));
};

/**
 * Whether a markdown file (by its `rel`, as parse jobs name it) is an article: its body HTML is read
 * by its page's template alone, never by the load, so the build cache may keep it apart (see cache/build-cache.ts).
 */
export const isArticleFile = (rel: string): boolean => path.dirname(rel) === path.join('content', 'blog');
