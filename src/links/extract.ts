/** One pass over a page's HTML: the URLs it refers to and the fragment targets it offers. */
import { scanTags, type StartTag } from './tokenize.ts';
import { parseSrcset } from './srcset.ts';

export interface ExtractedLink {
  /** The URL as written in the attribute (references decoded, surrounding whitespace trimmed). */
  url: string;
  tag: string;
  attr: string;
  /** Checked only when it points into the site (canonical, alternate, next…); ignored elsewhere. */
  internalOnly?: true;
}

export interface PageScan {
  links: ExtractedLink[];
  /** Every `id` on the page. */
  ids: Set<string>;
  /** `<a name>` anchors, which fragments also reach. */
  names: Set<string>;
  /** Ids given to more than one element, with how many. */
  duplicateIds: Map<string, number>;
  /** The `<link rel="canonical">` URL, if any. */
  canonical?: string;
  /** The first `<base href>`, which relative URLs resolve against. */
  base?: string;
}

// `<link>` relations that load a resource: checked wherever they point.
const RESOURCE_RELS = new Set(['stylesheet', 'icon', 'apple-touch-icon', 'apple-touch-icon-precomposed', 'mask-icon', 'manifest', 'preload', 'modulepreload', 'prefetch']);
// Relations that name an origin, not a document.
const ORIGIN_RELS = new Set(['preconnect', 'dns-prefetch']);

// Plain URL attributes per element. `<form action>` is deliberately absent: forms post to API routes, not files.
const URL_ATTRS: Record<string, string[]> = {
  a: ['href'],
  area: ['href'],
  script: ['src'],
  img: ['src'],
  iframe: ['src'],
  source: ['src'],
  track: ['src'],
  audio: ['src'],
  video: ['src', 'poster'],
  embed: ['src'],
};
const SRCSET_TAGS = new Set(['img', 'source']);
// `<meta>` that name an image social sites fetch (absolute URLs, so on the site's origin they are checked as files).
const IMAGE_META = new Set(['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src']);

function trimUrl(value: string): string {
  return value.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
}

function linkTag(tag: StartTag, links: ExtractedLink[], scan: PageScan): void {
  const href = tag.attrs.get('href');
  if (href === undefined) return;
  const rels = (tag.attrs.get('rel') ?? '').toLowerCase().split(/[\t\n\f\r ]+/).filter(Boolean);
  const url = trimUrl(href);
  if (rels.includes('canonical') && scan.canonical === undefined) scan.canonical = url;
  if (rels.some((r) => ORIGIN_RELS.has(r))) return;
  if (rels.some((r) => RESOURCE_RELS.has(r))) links.push({ url, tag: 'link', attr: 'href' });
  else links.push({ url, tag: 'link', attr: 'href', internalOnly: true });
}

export function extractPage(html: string): PageScan {
  const links: ExtractedLink[] = [];
  const scan: PageScan = { links, ids: new Set(), names: new Set(), duplicateIds: new Map() };
  scanTags(html, (tag) => {
    const id = tag.attrs.get('id');
    if (id !== undefined && id !== '') {
      if (scan.ids.has(id)) scan.duplicateIds.set(id, (scan.duplicateIds.get(id) ?? 1) + 1);
      else scan.ids.add(id);
    }
    if (tag.name === 'a') {
      const name = tag.attrs.get('name');
      if (name) scan.names.add(name);
    }
    if (tag.name === 'link') return linkTag(tag, links, scan);
    if (tag.name === 'meta') {
      const name = (tag.attrs.get('property') ?? tag.attrs.get('name') ?? '').toLowerCase();
      const content = tag.attrs.get('content');
      if (IMAGE_META.has(name) && content !== undefined) links.push({ url: trimUrl(content), tag: 'meta', attr: name });
    }
    if (tag.name === 'base' && scan.base === undefined) {
      const href = tag.attrs.get('href');
      if (href !== undefined) scan.base = trimUrl(href);
    }
    for (const attr of URL_ATTRS[tag.name] ?? []) {
      const value = tag.attrs.get(attr);
      if (value !== undefined) links.push({ url: trimUrl(value), tag: tag.name, attr });
    }
    if (SRCSET_TAGS.has(tag.name)) {
      const srcset = tag.attrs.get('srcset');
      if (srcset !== undefined) for (const url of parseSrcset(srcset)) links.push({ url, tag: tag.name, attr: 'srcset' });
    }
  });
  return scan;
}
