import { remark } from 'remark';
import remarkGfm from 'remark-gfm';
import remarkDirective from 'remark-directive';
import remarkHtml from 'remark-html';
import type { Root, Heading, RootContent, PhrasingContent } from 'mdast';
import type { ContentError } from './errors.ts';

export interface TocEntry { id: string; text: string; depth: number }
/** An address a document links to, with its line in the file. */
export interface DocumentLink { href: string; line?: number }
export interface RenderedMarkdown { html: string; toc: TocEntry[]; words: number; links: DocumentLink[]; errors: ContentError[] }

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

/** One remark pass: heading ids, table of contents, directives, and the checks that keep markdown plain. */
function sitePlugin(file: string, lineOffset: number, out: { toc: TocEntry[]; words: number; links: DocumentLink[]; errors: ContentError[] }) {
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
      } else if (node.type === 'link' || node.type === 'definition') {
        out.links.push({ href: node.url, line });
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

/** Markdown → HTML, once per document. `lineOffset` maps body lines back to the file's lines. */
export async function renderMarkdown(source: string, file: string, lineOffset = 0): Promise<RenderedMarkdown> {
  const out = { toc: [] as TocEntry[], words: 0, links: [] as DocumentLink[], errors: [] as ContentError[] };
  const result = await remark()
    .use(remarkGfm)
    .use(remarkDirective)
    .use(sitePlugin, file, lineOffset, out)
    .use(remarkHtml, { sanitize: false })
    .process(source);
  return { html: String(result), ...out };
}
