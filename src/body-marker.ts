/**
 * An article's body HTML lives in the build cache (.site-cache/bodies.pack), not in the main
 * thread's memory: the parsed article, and so its route's props, hold this marker instead, naming
 * the markdown key the body was made from. A page's key is worked out from the route with the marker
 * in it, which names the body as surely as the HTML would (the parse is a pure function of what the
 * key holds). The HTML is put back only in a copy of the route handed to the thread that renders it.
 *
 * It starts with U+0000, which our markdown renderer never writes (CommonMark turns it into U+FFFD):
 * no real body can be taken for a marker.
 */
const MARKER = '\u0000body:';

export const bodyMarker = (key: string): string => `${MARKER}${key}`;

/** The key a marker names, or undefined for anything else (real HTML). */
export const markedKey = (html: unknown): string | undefined =>
  typeof html === 'string' && html.startsWith(MARKER) ? html.slice(MARKER.length) : undefined;
