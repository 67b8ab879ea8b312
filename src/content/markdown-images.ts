import type { Definition, Html, Image, ImageReference, Parents } from 'mdast';
import type { SiteImage } from '../images/site-image.ts';
import { pictureMarkup, type PictureMarkup } from '../images/picture.ts';
import { lineOf, type SiteStep } from './markdown-state.ts';

/**
 * The images a markdown file's text names: what its parse needs, and all of its cache key needs,
 * so that a changed photo re-renders the articles that show it and no other.
 */
export function imagesNamedIn(source: string | Buffer, images: Record<string, SiteImage>): Record<string, SiteImage> {
  // Where the text says /images/ at all, found in one pass: asking it for each image's name in turn
  // cost a ten-thousand-article load a seventh of a second. In the images' order, as the key is.
  const at: number[] = [];
  for (let i = source.indexOf(IMAGES); i !== -1; i = source.indexOf(IMAGES, i + 1)) at.push(i);
  const bytes = typeof source === 'string' ? undefined : keyBytes(images);
  const startsAt = (key: string, i: number) => {
    if (typeof source === 'string') return source.startsWith(key, i);
    const wanted = bytes!.get(key)!;
    return i + wanted.length <= source.length && source.compare(wanted, 0, wanted.length, i, i + wanted.length) === 0;
  };
  const named = (key: string) => (key.startsWith(IMAGES) ? at.some((i) => startsAt(key, i)) : source.includes(key));
  return Object.fromEntries(Object.entries(images).filter(([key]) => named(key)));
}

const IMAGES = '/images/';

/** Each image's path as UTF-8 bytes, for a file read as bytes: made once per set of images. */
const encoded = new WeakMap<Record<string, SiteImage>, Map<string, Buffer>>();
function keyBytes(images: Record<string, SiteImage>): Map<string, Buffer> {
  let found = encoded.get(images);
  if (!found) encoded.set(images, (found = new Map(Object.keys(images).map((key) => [key, Buffer.from(key)]))));
  return found;
}

// hast-util-to-html's spelling of an attribute value, as remark-html writes the rest of the page.
const ATTRIBUTE: Record<string, string> = { '&': '&#x26;', '"': '&#x22;', "'": '&#x27;', '`': '&#x60;' };
const encode = (s: string | number) => String(s).replace(/[&"'`]/g, (c) => ATTRIBUTE[c]!);

/** The <picture> as HTML: the same elements and attributes the <Img> component renders; an author's title on the <img>. */
export function pictureHtml(m: PictureMarkup, title?: string | null): string {
  const attrs = (pairs: Array<[string, string | number | null | undefined]>) => pairs.filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => ` ${k}="${encode(v!)}"`).join('');
  const { img } = m;
  return `<picture>${m.sources.map((s) => `<source${attrs([['type', s.type], ['srcset', s.srcSet], ['sizes', s.sizes]])}>`).join('')}`
    + `<img${attrs([['src', img.src], ['srcset', img.srcSet], ['sizes', img.sizes], ['width', img.width], ['height', img.height], ['alt', img.alt], ['title', title], ['class', img.className], ['decoding', img.decoding], ['loading', img.loading], ['fetchpriority', img.fetchPriority]])}></picture>`;
}

/**
 * Each image of a body (inline or by reference) → its responsive <picture>, lazy, in the `body`
 * slot. Alt text is required and the file must be one of content/images; each refusal is an error
 * with its line. Done after the walk, in document order: a definition may follow its references.
 */
export const pictures: SiteStep = (state) => {
  const definitions = new Map<string, Definition>();
  const found: Array<{ node: Image | ImageReference; index: number; parent: Parents }> = [];
  return {
    enter(node, index, parent) {
      if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
      else if (node.type === 'image' || node.type === 'imageReference') found.push({ node, index: index!, parent: parent! });
    },
    done() {
      for (const { node, index, parent } of found) {
        const target: Image | Definition | undefined = node.type === 'image' ? node : definitions.get(node.identifier);
        if (!target) continue; // a reference to nothing stays text, as CommonMark says
        const src = target.url;
        const alt = node.alt ?? '';
        const line = lineOf(state, node);
        const image = state.images[src];
        const fail = (message: string, hint: string) => state.imageErrors.push({ file: state.file, line, path: 'body', message, hint });
        if (!alt.trim()) fail(`has an image without alt text: ![](${src})`, 'describe what the picture shows between the brackets, as in ![The team at a workshop](/images/team.jpg)');
        if (!image) fail(`names the image ${src}, which is not in content/images`, 'put the file in content/images and write its path as /images/name.jpg');
        if (!alt.trim() || !image) continue;
        state.shown.push({ src, slot: 'body', priority: false });
        // Replaced where it stands: no step adds or removes a phrasing node, so its index still holds.
        parent.children[index] = { type: 'html', value: pictureHtml(pictureMarkup(image, 'body', { alt }), target.title) } satisfies Html;
      }
    },
  };
};
