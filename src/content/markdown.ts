import { remark } from 'remark';
import remarkGfm from 'remark-gfm';
import remarkDirective from 'remark-directive';
import remarkHtml from 'remark-html';
import type { Root, Heading, Link, RootContent, PhrasingContent } from 'mdast';
import type { ContentError } from './errors.ts';
import { ASSESSMENT_FORMS, type AssessmentFormName, type SiteSettings } from './schemas.ts';
import { ASSESSMENT_FORM_SCHEME, EXTERNAL_ICON_PATHS, NEW_TAB_HINT, assessmentHref } from './assessment-forms.ts';

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

/** The survey forms whose addresses markdown may link to, from content/site.yaml. */
export type FormAddresses = SiteSettings['assessmentForms'];

const NO_ADDRESSES = Object.fromEntries(ASSESSMENT_FORMS.map((name) => [name, ''])) as FormAddresses;

/** The marks of a link that opens in a new tab: an icon to see, and words to hear. */
function newTabMarks(): PhrasingContent[] {
  const icon = {
    type: 'text', value: '',
    data: {
      hName: 'svg',
      hProperties: { className: ['icon', 'icon--external'], viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', ariaHidden: 'true', focusable: 'false' },
      hChildren: EXTERNAL_ICON_PATHS.map((d) => ({ type: 'element', tagName: 'path', properties: { d }, children: [] })),
    },
  };
  const hint = { type: 'text', value: NEW_TAB_HINT, data: { hName: 'span', hProperties: { className: ['visually-hidden'] } } };
  return [icon, hint] as PhrasingContent[];
}

/**
 * `[label](assessment-form:name)` → the survey's address from the settings, opened in a new tab
 * without an opener; an empty address falls back to /dialog-assessment. False for an unknown name.
 */
function resolveAssessmentLink(link: Link, forms: FormAddresses): boolean {
  const name = link.url.slice(ASSESSMENT_FORM_SCHEME.length);
  if (!(ASSESSMENT_FORMS as string[]).includes(name)) return false;
  const { href, external } = assessmentHref({ assessmentForms: forms }, name as AssessmentFormName);
  link.url = href;
  if (external) {
    link.data = { ...link.data, hProperties: { target: '_blank', rel: ['noopener', 'noreferrer'] } };
    link.children.push(...newTabMarks());
  }
  return true;
}

/** One remark pass: heading ids, table of contents, directives, and the checks that keep markdown plain. */
function sitePlugin(file: string, lineOffset: number, forms: FormAddresses, out: { toc: TocEntry[]; words: number; links: DocumentLink[]; errors: ContentError[] }) {
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
      } else if (node.type === 'link' && node.url.startsWith(ASSESSMENT_FORM_SCHEME)) {
        for (const child of node.children) visit(child);
        if (!resolveAssessmentLink(node, forms)) {
          out.errors.push({ file, line, path: 'body', message: `links to ${node.url}, which names no assessment form`, hint: `use one of ${ASSESSMENT_FORMS.map((n) => ASSESSMENT_FORM_SCHEME + n).join(', ')} (assessmentForms in content/site.yaml)` });
        }
        return;
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

/**
 * Markdown → HTML, once per document. `lineOffset` maps body lines back to the file's lines;
 * `forms` are the survey addresses that `assessment-form:` links resolve to.
 */
export async function renderMarkdown(source: string, file: string, lineOffset = 0, forms: FormAddresses = NO_ADDRESSES): Promise<RenderedMarkdown> {
  const out = { toc: [] as TocEntry[], words: 0, links: [] as DocumentLink[], errors: [] as ContentError[] };
  const result = await remark()
    .use(remarkGfm)
    .use(remarkDirective)
    .use(sitePlugin, file, lineOffset, forms, out)
    .use(remarkHtml, { sanitize: false })
    .process(source);
  return { html: String(result), ...out };
}
