import type { Nodes, Paragraph, Parents, Root, Text } from 'mdast';
// The directive nodes' types (containerDirective, leafDirective, textDirective) in mdast's unions.
import type {} from 'mdast-util-directive';
import type { VFile } from 'vfile';
import { lineOf, type SiteStep } from './markdown-state.ts';

/**
 * The site's steps as one remark plugin that walks the tree once: seven steps walking it each would
 * cost more than the parser saved. Steps run in the order given.
 */
export function remarkSiteSteps(steps: SiteStep[]) {
  return (tree: Root, vfile: VFile) => {
    const state = vfile.data.site!;
    const running = steps.map((step) => step(state));
    walk(tree, undefined, undefined, (node, index, parent) => {
      for (const step of running) step.enter(node, index, parent);
    });
    for (const step of running) step.done?.();
  };
}

/**
 * unist-util-visit's walk, without its costs: it finds each node's index with indexOf among its
 * siblings (quadratic in a long document's top level) and makes a closure and a parents list per
 * node, a quarter of a worker's markdown time in the profile. The same order and the same live view:
 * a node before its children; the children read after its visit (a box's title, added then, is
 * visited) from the node visited, even if the visit replaced it in its parent (a text directive's
 * label is still walked).
 */
function walk(node: Nodes, index: number | undefined, parent: Parents | undefined, visit: (node: Nodes, index: number | undefined, parent: Parents | undefined) => void): void {
  visit(node, index, parent);
  if (!('children' in node)) return;
  const self = node as Parents;
  for (let i = 0; i < self.children.length; i++) walk(self.children[i] as Nodes, i, self, visit);
}

export function slugify(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/['’]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/** The text a reader sees in a node: no footnote numbers, no image descriptions, no raw HTML; text directives as written. */
export function plainText(node: Nodes): string {
  if (node.type === 'html') return '';
  if (node.type === 'textDirective') return `:${node.name}${node.children.length ? `[${node.children.map(plainText).join('')}]` : ''}`;
  if ('value' in node) return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}

/** Container directives authors may use, each turned into one element. */
const CONTAINERS: Record<string, { tag: string; className: string; heading?: string; role?: string }> = {
  fix: { tag: 'div', className: 'fix-box', heading: 'How to Fix It', role: 'note' },
  note: { tag: 'div', className: 'note-box' },
  sign: { tag: 'section', className: 'warning-sign' },
};

/** Raw HTML and directives the site does not know are errors, each with its line. Runs first: later steps add raw HTML of ours. */
export const plainChecks: SiteStep = (state) => {
  const fail = (node: Nodes, message: string, hint: string) => state.errors.push({ file: state.file, line: lineOf(state, node), path: 'body', message, hint });
  return {
    enter(node) {
      if (node.type === 'html') fail(node, 'contains raw HTML, which the site does not allow in markdown', 'use a directive such as :::fix … ::: for boxes');
      else if (node.type === 'containerDirective' && !CONTAINERS[node.name]) fail(node, `uses the unknown directive :::${node.name}`, `known directives: ${Object.keys(CONTAINERS).map((k) => `:::${k}`).join(', ')}`);
      else if (node.type === 'leafDirective') fail(node, `uses the unknown directive ::${node.name}`, 'start the line with something other than two colons, or escape them as \\:\\:');
    },
  };
};

/**
 * The site has no inline directives, and prose like 'Note:important' parses as one: the text goes
 * back as written, its label as plain text, less any attributes. (The label's nodes are still
 * walked: a link in it is collected, raw HTML in it refused.)
 */
export const textDirectivesAsText: SiteStep = () => ({
  enter(node, index, parent) {
    if (node.type === 'textDirective') parent!.children[index!] = { type: 'text', value: plainText(node) } satisfies Text;
  },
});

/** `:::fix`, `:::note`, `:::sign` → their element; a fix box opens with its title. */
export const boxes: SiteStep = () => ({
  enter(node) {
    if (node.type !== 'containerDirective') return;
    const spec = CONTAINERS[node.name];
    if (!spec) return; // reported by plainChecks
    node.data = { hName: spec.tag, hProperties: { className: [spec.className], ...(spec.role ? { role: spec.role } : {}) } };
    if (spec.heading) {
      const title: Paragraph = { type: 'paragraph', data: { hProperties: { className: ['box-title'] } }, children: [{ type: 'strong', children: [{ type: 'text', value: spec.heading }] }] };
      node.children.unshift(title);
    }
  },
});

/** Heading ids from the text a reader sees (numbered when repeated), and the table of contents (h2, h3). */
export const headingIds: SiteStep = (state) => {
  const used = new Map<string, number>();
  return {
    enter(node) {
      if (node.type !== 'heading') return;
      const text = plainText(node);
      const base = slugify(text) || 'section';
      const n = used.get(base) ?? 0;
      used.set(base, n + 1);
      const id = n ? `${base}-${n + 1}` : base;
      node.data = { ...node.data, hProperties: { ...node.data?.hProperties, id } };
      if (node.depth === 2 || node.depth === 3) state.toc.push({ id, text, depth: node.depth });
    },
  };
};
