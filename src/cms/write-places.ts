// Where the content manager may write: each collection's entries in its own folder with its own
// extension (or its named files), and images in the one folder the build reads them from, as the
// build names them. An SVG is also refused when it could run script once opened as a page.
import type { CmsConfig } from './config.ts';

export interface WritePlaces {
  /** Folder collections: an entry is `<folder>/<slug>.<extension>`. */
  folders: Array<{ folder: string; extension: string }>;
  /** File collections' files, each by its path. */
  files: string[];
  /** Where uploads go (the config's media_folder). */
  media: string;
}

export function writePlaces(config: CmsConfig): WritePlaces {
  return {
    folders: config.collections.flatMap((c) => (c.folder ? [{ folder: c.folder, extension: c.extension ?? 'md' }] : [])),
    files: config.collections.flatMap((c) => (c.files ?? []).map((f) => f.file)),
    media: config.media_folder,
  };
}

/** A slug as a file name: no folder, no dotfile. */
const NAME = /^[A-Za-z0-9_][\w.-]*$/;
/** An image's file name as the site's image paths allow it (/images/<name>). */
const IMAGE_NAME = /^[\w][\w.-]*\.(svg|png|jpe?g|webp|avif)$/;

/** Why an entry may not be written at `rel` (a project-relative path), or undefined when it may. */
export function entryRefusal(places: WritePlaces, rel: string): string | undefined {
  if (places.files.includes(rel)) return undefined;
  const slash = rel.lastIndexOf('/');
  const folder = places.folders.find((f) => f.folder === rel.slice(0, slash));
  if (!folder) return `${rel} is not in a collection's folder (${places.folders.map((f) => f.folder).join(', ')}) nor one of its files`;
  const name = rel.slice(slash + 1);
  if (!name.endsWith(`.${folder.extension}`) || !NAME.test(name)) return `${rel}: an entry of ${folder.folder} is a .${folder.extension} file named by its slug`;
  return undefined;
}

/** Why an image may not be written at `rel`, or undefined when it may. */
export function mediaRefusal(places: WritePlaces, rel: string): string | undefined {
  const slash = rel.lastIndexOf('/');
  if (rel.slice(0, slash) !== places.media) return `${rel}: images are kept in ${places.media}/`;
  if (!IMAGE_NAME.test(rel.slice(slash + 1))) return `${rel}: an image's name is letters, digits, '-', '_' and '.', ending .svg, .png, .jpg, .jpeg, .webp or .avif`;
  return undefined;
}

/** Numeric and a few named character references decoded, so that `jav&#x61;script:` reads as what a browser reads. */
const decoded = (text: string) => text
  .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
  .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
  .replace(/&(colon|tab|newline);/gi, (_, name: string) => ({ colon: ':', tab: '\t', newline: '\n' })[name.toLowerCase() as 'colon']);

/**
 * Why an SVG could run script when opened as a page of the site (an <img> runs none, but the file is
 * served at its own address): a <script> element, an event handler attribute, a javascript: URL.
 */
export function svgRefusal(svg: string): string | undefined {
  if (/<(?:[\w-]+:)?script[\s>/]/i.test(svg)) return 'has a <script> element';
  const handler = /<[^>]*?\s(on[a-z]+)\s*=/i.exec(svg);
  if (handler) return `has an event handler attribute (${handler[1]})`;
  if (/j\s*a\s*v\s*a\s*s\s*c\s*r\s*i\s*p\s*t\s*:/i.test(decoded(svg))) return 'has a javascript: URL';
  return undefined;
}
