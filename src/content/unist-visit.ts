import type { Node, Parent } from 'unist';

/**
 * unist-util-visit's `visit(tree, visitor)`, for mdast-util-to-hast, which calls it once per document
 * to find the definitions (src/pool/code-packages.ts puts this module in its place in the build's
 * bundled code). The package's walk names a closure after every node it visits, for debuggers: on
 * a worker's 500 articles that was a fifth of the markdown time, eight times this walk's cost. The
 * same order (a node, then its children, read after its visit), the same arguments and the same
 * answers to a visitor's result: `false` (EXIT) stops the walk, 'skip' skips the node's children, a
 * number goes on at that index of the parent, and each may come as the first of an [action, index] pair.
 */
export const CONTINUE = true;
export const EXIT = false;
export const SKIP = 'skip';

type Action = typeof CONTINUE | typeof EXIT | typeof SKIP | number | undefined | void;
type Visitor = (node: Node, index: number | undefined, parent: Parent | undefined) => Action | [Action, number?];

/** Only the form mdast-util-to-hast uses: an upgrade that calls it otherwise fails loudly, not differently. */
export function visit(tree: Node, visitor: Visitor, ...rest: unknown[]): void {
  if (typeof visitor !== 'function' || rest.length) throw new TypeError('this visit takes (tree, visitor) only: see src/content/unist-visit.ts');
  one(tree, undefined, undefined, visitor);
}

/** Walks `node` and its children: `false` when the walk must stop, else the index its parent goes on at (undefined: the next one). */
function one(node: Node, index: number | undefined, parent: Parent | undefined, visitor: Visitor): false | number | undefined {
  const result = visitor(node, index, parent);
  const action = Array.isArray(result) ? result[0] : typeof result === 'number' ? CONTINUE : result;
  if (action === EXIT) return false;
  const children = (node as Partial<Parent>).children;
  if (children && action !== SKIP) {
    for (let i = 0; i > -1 && i < children.length;) {
      const next = one(children[i]!, i, node as Parent, visitor);
      if (next === false) return false;
      i = next ?? i + 1;
    }
  }
  const at = Array.isArray(result) ? result[1] : result;
  return typeof at === 'number' ? at : undefined;
}
