import type { Image } from 'mdast';
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

/** A <picture>'s children as hast, for remark-html: the same elements the <Img> component renders. */
function pictureChildren(m: PictureMarkup) {
  const element = (tagName: string, properties: Record<string, unknown>) => ({ type: 'element', tagName, properties, children: [] });
  const { className, ...img } = m.img;
  return [
    ...m.sources.map((s) => element('source', { type: s.type, srcSet: s.srcSet, sizes: s.sizes })),
    element('img', { ...img, ...(className ? { className: [className] } : {}) }),
  ];
}

/**
 * `![alt](/images/x.jpg)` in a markdown body: alt text required, the file one of content/images;
 * the node becomes the responsive <picture> of the `body` slot, and the use is recorded.
 */
export function bodyImage(node: Image, at: { file: string; line?: number }, images: Record<string, SiteImage>, out: { errors: ContentError[]; images: ImageUse[] }) {
  const alt = node.alt?.trim() ?? '';
  const image = images[node.url];
  if (!alt) out.errors.push({ ...at, path: 'body', message: `has an image without alt text: ![](${node.url})`, hint: 'describe what the picture shows between the brackets, as in ![The team at a workshop](/images/team.jpg)' });
  if (!image) out.errors.push({ ...at, path: 'body', message: `names the image ${node.url}, which is not in content/images`, hint: 'put the file in content/images and write its path as /images/name.jpg' });
  if (!alt || !image) return;
  out.images.push({ src: node.url, slot: 'body', priority: false });
  Object.assign(node, { type: 'sitePicture', children: [], data: { hName: 'picture', hChildren: pictureChildren(pictureMarkup(image, 'body', { alt })) } });
}
