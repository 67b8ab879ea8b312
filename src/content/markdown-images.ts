import type { Event } from 'micromark-util-types';
import type { ContentError } from './errors.ts';
import type { SiteImage } from './images.ts';
import { pictureMarkup, type ImageUse, type PictureMarkup } from '../images/picture.ts';

/**
 * The images a markdown file's text names: what its parse needs, and all of its cache key needs,
 * so that a changed photo re-renders the articles that show it and no other.
 */
export function imagesNamedIn(source: string, images: Record<string, SiteImage>): Record<string, SiteImage> {
  return Object.fromEntries(Object.entries(images).filter(([key]) => source.includes(key)));
}

/** Where each image of a body starts, and whether it has alt text, in document order, read from micromark's tokens. */
export function imageTokens(events: Event[], lineOffset: number): Array<{ line: number; hasAlt: boolean }> {
  const found: Array<{ line: number; hasAlt: boolean }> = [];
  let inImage = 0;
  for (const [kind, token, context] of events) {
    const type = token.type as string;
    if (type === 'image') {
      // An image inside another's brackets is only that one's alt text: micromark writes no <img> for it.
      if (kind === 'enter' && !inImage++) found.push({ line: token.start.line + lineOffset, hasAlt: false });
      if (kind === 'exit') inImage--;
    } else if (type === 'labelText' && kind === 'enter' && inImage === 1 && context.sliceSerialize(token).trim()) {
      found.at(-1)!.hasAlt = true;
    }
  }
  return found;
}

const encode = (s: string | number) => String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };

/** The <picture> as HTML: the same elements and attributes the <Img> component renders. */
export function pictureHtml(m: PictureMarkup): string {
  const attrs = (pairs: Array<[string, string | number | undefined]>) => pairs.filter(([, v]) => v !== undefined).map(([k, v]) => ` ${k}="${encode(v!)}"`).join('');
  const { img } = m;
  return `<picture>${m.sources.map((s) => `<source${attrs([['type', s.type], ['srcset', s.srcSet], ['sizes', s.sizes]])}>`).join('')}`
    + `<img${attrs([['src', img.src], ['srcset', img.srcSet], ['sizes', img.sizes], ['width', img.width], ['height', img.height], ['alt', img.alt], ['class', img.className], ['decoding', img.decoding], ['loading', img.loading], ['fetchpriority', img.fetchPriority]])}></picture>`;
}

/**
 * micromark's `<img>` for each image of a body (inline or by reference, in document order, matched
 * to `found`) → its responsive <picture>, lazy, in the `body` slot. Alt text is required and the
 * file must be one of content/images; each refusal is an error with its line.
 */
export function bodyPictures(html: string, found: Array<{ line: number; hasAlt: boolean }>, images: Record<string, SiteImage>, file: string, out: { errors: ContentError[]; images: ImageUse[] }): string {
  if (!found.length) return html;
  let i = 0;
  return html.replace(/<img src="([^"]*)" alt="([^"]*)"( title="[^"]*")? \/>/g, (tag, src: string, alt: string, title = '') => {
    const { line, hasAlt } = found[i++] ?? { line: undefined, hasAlt: Boolean(alt.trim()) };
    const image = images[src];
    const fail = (message: string, hint: string) => out.errors.push({ file, line, path: 'body', message, hint });
    if (!hasAlt) fail(`has an image without alt text: ![](${src})`, 'describe what the picture shows between the brackets, as in ![The team at a workshop](/images/team.jpg)');
    if (!image) fail(`names the image ${src}, which is not in content/images`, 'put the file in content/images and write its path as /images/name.jpg');
    if (!hasAlt || !image) return tag;
    out.images.push({ src, slot: 'body', priority: false });
    const picture = pictureHtml(pictureMarkup(image, 'body', { alt: alt.replace(/&(?:amp|lt|gt|quot);/g, (e) => ENTITIES[e]!) }));
    // An author's title stays on the <img>, as it was.
    return title ? picture.replace(/ decoding="/, `${title} decoding="`) : picture;
  });
}
