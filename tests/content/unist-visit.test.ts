import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Parent } from 'unist';
import { visit as original } from 'unist-util-visit';
import { visit as fast } from '../../src/content/unist-visit.ts';

/**
 * The walk the build's bundled code gives mdast-util-to-hast in place of unist-util-visit's (see
 * src/pool/code-packages.ts), held to the package on random trees and random answers: the same
 * calls, in the same order, with the same index and parent, whatever each visit returns (go on,
 * skip the children, stop, go on at another index, or a pair of these), and the same tree after
 * visitors that change it as they go.
 */
interface TestNode extends Node { id: number; children?: TestNode[] }

const tree = fc.letrec<{ node: TestNode }>((tie) => ({
  node: fc.record({
    type: fc.constantFrom('paragraph', 'text', 'emphasis', 'definition'),
    id: fc.nat(),
    children: fc.option(fc.array(tie('node'), { maxLength: 4 }), { nil: undefined }),
  }, { requiredKeys: ['type', 'id'] }) as fc.Arbitrary<TestNode>,
})).node.map((root) => {
  // Ids made unique, in document order, so that a call names its node.
  let next = 0;
  const number = (n: TestNode): TestNode => ({ ...n, id: next++, ...(n.children ? { children: n.children.map(number) } : {}) });
  return number(root);
});

type Answer = undefined | boolean | 'skip' | number | [boolean | 'skip' | undefined, number?];
const answer: fc.Arbitrary<Answer> = fc.oneof(
  fc.constant(undefined), fc.constant(true), fc.constant(false), fc.constant('skip' as const),
  fc.integer({ min: -1, max: 5 }),
  fc.tuple(fc.constantFrom(true, 'skip' as const, undefined), fc.integer({ min: -1, max: 5 })),
);

/** A visitor answering from `answers` by node id, at most `limit` calls (an index that goes back may loop), recording each call. */
function recorder(answers: Answer[], limit = 200) {
  const calls: string[] = [];
  const visitor = (node: Node, index: number | undefined, parent: Parent | undefined) => {
    const id = (node as TestNode).id;
    calls.push(`${id}@${index ?? '-'}<${(parent as TestNode | undefined)?.id ?? '-'}`);
    if (calls.length >= limit) return false;
    return answers[id % answers.length] as never;
  };
  return { calls, visitor };
}

describe('the walk given to mdast-util-to-hast', () => {
  it('calls a visitor that always goes on exactly as unist-util-visit does', () => {
    fc.assert(fc.property(tree, (root) => {
      const a = recorder([undefined]); const b = recorder([undefined]);
      original(root, a.visitor); fast(root, b.visitor);
      expect(b.calls).toEqual(a.calls);
    }), { numRuns: 300 });
  });

  it('answers go on, skip, stop, an index and a pair as unist-util-visit does', () => {
    fc.assert(fc.property(tree, fc.array(answer, { minLength: 1, maxLength: 8 }), (root, answers) => {
      const a = recorder(answers); const b = recorder(answers);
      original(root, a.visitor); fast(root, b.visitor);
      expect(b.calls).toEqual(a.calls);
    }), { numRuns: 1000 });
  });

  it('reads the children after the visit, as a visitor that adds or replaces children leaves them', () => {
    fc.assert(fc.property(tree, (root) => {
      const change = () => {
        const calls: number[] = [];
        return { calls, visitor: (node: Node) => {
          const n = node as TestNode;
          calls.push(n.id);
          // A paragraph gains a child, which is visited; an emphasis loses its children, which are not.
          if (n.type === 'paragraph' && n.children && n.id < 1000) n.children.push({ type: 'text', id: n.id + 1000 });
          if (n.type === 'emphasis') n.children = [];
        } };
      };
      const left = structuredClone(root); const right = structuredClone(root);
      const a = change(); const b = change();
      original(left, a.visitor); fast(right, b.visitor);
      expect(b.calls).toEqual(a.calls);
      expect(right).toEqual(left);
    }), { numRuns: 300 });
  });

  it('refuses the forms mdast-util-to-hast does not use, rather than walk them differently', () => {
    const root: TestNode = { type: 'root', id: 0, children: [] };
    expect(() => (fast as (...args: unknown[]) => void)(root, 'text', () => undefined)).toThrow(/\(tree, visitor\) only/);
    expect(() => (fast as (...args: unknown[]) => void)(root, () => undefined, true)).toThrow(/\(tree, visitor\) only/);
  });
});
