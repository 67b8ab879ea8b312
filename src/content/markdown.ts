import { remark } from 'remark';
import remarkGfm from 'remark-gfm';
import remarkDirective from 'remark-directive';
import remarkHtml from 'remark-html';
import type { Root, Heading, Image, RootContent, PhrasingContent } from 'mdast';
import type { ContentError } from './errors.ts';
import type { SiteImage } from './images.ts';
import { pictureMarkup, type ImageUse, type PictureMarkup } from '../images/picture.ts';

export interface TocEntry { id: string; text: string; depth: number }
export interface RenderedMarkdown { html: string; toc: TocEntry[]; words: number; errors: ContentError[]; images: ImageUse[] }

export function slugify(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/['’]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

function plainText(node: RootContent | PhrasingContent | Root): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as RootContent[]).map(plainText).join('');
  return '';
}

interface DirectiveNode { type: 'containerDirective' | 'leafDirective' | 'textDirective'; name: string; attributes?: Record<string, string | null | undefined>; children: RootContent[]; data?: Record<string, unknown>; position?: { start: { line: number } } }

/** Container directives authors may use, each turned into one element. */
const CONTAINERS: Record<string, { tag: string; className: string; heading?: string; role?: string }> = {
  fix: { tag: 'div', className: 'fix-box', heading: 'How to Fix It', role: 'note' },
  note: { tag: 'div', className: 'note-box' },
  sign: { tag: 'section', className: 'warning-sign' },
};

/** A <picture>'s children as hast, for remark-html: the same elements the <Img> component renders. */
function pictureChildren(m: PictureMarkup) {
  const element = (tagName: string, properties: Record<string, unknown>) => ({ type: 'element', tagName, properties, children: [] });
  const { className, ...img } = m.img;
  return [
    ...m.sources.map((s) => element('source', { type: s.type, srcSet: s.srcSet, sizes: s.sizes })),
    element('img', { ...img, ...(className ? { className: [className] } : {}) }),
  ];
}

/** `![alt](/images/x.jpg)`: alt text required, the file one of content/images; shown as a responsive <picture>. */
function bodyImage(node: Image, file: string, line: number | undefined, images: Record<string, SiteImage>, out: { errors: ContentError[]; images: ImageUse[] }) {
  const alt = node.alt?.trim() ?? '';
  const image = images[node.url];
  if (!alt) out.errors.push({ file, line, path: 'body', message: `has an image without alt text: ![](${node.url})`, hint: 'describe what the picture shows between the brackets, as in ![The team at a workshop](/images/team.jpg)' });
  if (!image) out.errors.push({ file, line, path: 'body', message: `names the image ${node.url}, which is not in content/images`, hint: 'put the file in content/images and write its path as /images/name.jpg' });
  if (!alt || !image) return;
  out.images.push({ src: node.url, slot: 'body', priority: false });
  const markup = pictureMarkup(image, 'body', { alt });
  Object.assign(node, { type: 'sitePicture', children: [], data: { hName: 'picture', hChildren: pictureChildren(markup) } });
}

/** One remark pass: heading ids, table of contents, directives, images, and the checks that keep markdown plain. */
function sitePlugin(file: string, lineOffset: number, images: Record<string, SiteImage>, out: { toc: TocEntry[]; words: number; errors: ContentError[]; images: ImageUse[] }) {
  return (tree: Root) => {
    const used = new Map<string, number>();
    const visit = (node: Root | RootContent) => {
      const line = 'position' in node && node.position ? node.position.start.line + lineOffset : undefined;
      if (node.type === 'heading') {
        const heading = node as Heading;
        const label = plainText(heading);
        const base = slugify(label) || 'section';
        const n = used.get(base) ?? 0;
        used.set(base, n + 1);
        const id = n ? `${base}-${n + 1}` : base;
        heading.data = { ...heading.data, hProperties: { id } };
        if (heading.depth === 2 || heading.depth === 3) out.toc.push({ id, text: label, depth: heading.depth });
      } else if (node.type === 'html') {
        out.errors.push({ file, line, path: 'body', message: 'contains raw HTML, which the site does not allow in markdown', hint: 'use a directive such as :::fix … ::: for boxes' });
      } else if (node.type === 'text') {
        out.words += node.value.split(/\s+/).filter(Boolean).length;
      } else if (node.type === 'image') {
        bodyImage(node, file, line, images, out);
        return;
      } else if (node.type === 'imageReference') {
        out.errors.push({ file, line, path: 'body', message: 'uses a reference-style image (![alt][name])', hint: 'write it inline: ![alt text](/images/name.jpg)' });
      }
      const directive = node as unknown as DirectiveNode;
      if (directive.type === 'containerDirective') {
        const spec = CONTAINERS[directive.name];
        if (!spec) {
          out.errors.push({ file, line, path: 'body', message: `uses the unknown directive :::${directive.name}`, hint: `known directives: ${Object.keys(CONTAINERS).map((k) => `:::${k}`).join(', ')}` });
        } else {
          directive.data = { hName: spec.tag, hProperties: { className: [spec.className], ...(spec.role ? { role: spec.role } : {}) } };
          if (spec.heading) directive.children.unshift({ type: 'paragraph', data: { hName: 'p', hProperties: { className: ['box-title'] } }, children: [{ type: 'strong', children: [{ type: 'text', value: spec.heading }] }] } as RootContent);
        }
      } else if (directive.type === 'textDirective') {
        // The site has no inline directives, and prose like '5:30pm' parses as one: put the text back.
        const label = directive.children.length ? `[${plainText(directive as unknown as Root)}]` : '';
        Object.assign(directive, { type: 'text', value: `:${directive.name}${label}`, children: undefined, data: undefined });
        return;
      } else if (directive.type === 'leafDirective') {
        out.errors.push({ file, line, path: 'body', message: `uses the unknown directive ::${directive.name}`, hint: 'start the line with something other than two colons, or escape them as \\:\\:' });
      }
      if ('children' in node) for (const child of node.children as RootContent[]) visit(child);
    };
    visit(tree);
  };
}

/** Markdown → HTML, once per document. `lineOffset` maps body lines back to the file's lines; `images` are content/images, for body images. */
export async function renderMarkdown(source: string, file: string, lineOffset = 0, images: Record<string, SiteImage> = {}): Promise<RenderedMarkdown> {
  const out = { toc: [] as TocEntry[], words: 0, errors: [] as ContentError[], images: [] as ImageUse[] };
  const result = await remark()
    .use(remarkGfm)
    .use(remarkDirective)
    .use(sitePlugin, file, lineOffset, images, out)
    .use(remarkHtml, { sanitize: false })
    .process(source);
  return { html: String(result), ...out };
}
