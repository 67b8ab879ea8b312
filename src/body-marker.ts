
/**
 * An article's body HTML lives in the build cache (.site/cache/bodies.pack), not in the main
 * thread's memory: the parsed article, and so its route's props, hold this marker instead, naming
 * the markdown key the body was made from. A page's key is worked out from the route with the marker
 * in it, which names the body as surely as the HTML would (the parse is a pure function of what the
 * key holds). The HTML is put back only in a copy of the route handed to the thread that renders it.
 *
 * What the marker names is the article's KeptBody: its HTML and its table of contents, the parts of a
 * parsed article that only its own page reads (a rebuild that reads every small entry decodes neither).
 *
 * It starts with U+0000, which our markdown renderer never writes (CommonMark turns it into U+FFFD):
 * no real body can be taken for a marker.
 */
const MARKER = '\u0000body:';

/** A heading of an article's table of contents (the markdown renderer makes them, content/markdown-state.ts). */
export interface TocEntry { id: string; text: string; depth: number }

/** An article's body as the build cache keeps it apart, under the key its marker names. */
export interface KeptBody { html: string; toc: TocEntry[] }

const isTocEntry = (e: unknown): e is TocEntry => {
  const t = e as TocEntry;
  return !!t && typeof t.id === 'string' && typeof t.text === 'string' && typeof t.depth === 'number';
};

/** A kept body, checked: undefined for anything else (a damaged cache), or for a marker in place of the HTML. */
export function keptBody(value: unknown): KeptBody | undefined {
  const v = value as KeptBody;
  if (!v || typeof v.html !== 'string' || markedKey(v.html) !== undefined || !Array.isArray(v.toc) || !v.toc.every(isTocEntry)) return undefined;
  return { html: v.html, toc: v.toc };
}

export const bodyMarker = (key: string): string => `${MARKER}${key}`;

/** The key a marker names, or undefined for anything else (real HTML). */
export const markedKey = (html: unknown): string | undefined =>
  typeof html === 'string' && html.startsWith(MARKER) ? html.slice(MARKER.length) : undefined;
