import { hash } from 'node:crypto';

const OPEN = Buffer.from('---');
const CLOSE = Buffer.from('\n---');

/**
 * The SHA-256 of a markdown file's front matter as bytes: from the file's start through the first
 * `\n---` after its opening `---` (the whole file when it opens otherwise or never closes).
 * The front matter's split (front-matter.ts, as gray-matter's) takes it from exactly those bytes, so two files with
 * the same front hash have the same front matter whatever their bodies: a quick rebuild after a body
 * edit knows by it that the article's front matter, checked by the last full build, need not be
 * checked again (and loads no schema and no content loader for it).
 */
export function frontHash(source: Uint8Array): string {
  const bytes = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  const close = bytes.subarray(0, OPEN.length).equals(OPEN) ? bytes.indexOf(CLOSE, OPEN.length) : -1;
  return hash('sha256', close === -1 ? bytes : bytes.subarray(0, close + CLOSE.length));
}

const noted = new WeakMap<object, string>();

/** `front` is the front hash of the file `article` was loaded from. */
export function noteFrontHash(article: object, front: string): void {
  noted.set(article, front);
}

/** The front hash noted for this very object by the load that made it, if any. */
export const notedFrontHash = (article: object): string | undefined => noted.get(article);
