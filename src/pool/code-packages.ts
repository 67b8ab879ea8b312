import path from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * The packages compiled into the build's bundled code (see code.ts): the markdown processor's
 * pure-JavaScript modules (remark-html and the sixty-odd small modules under it), so that a worker
 * loads one file where it resolved and loaded each of them, and so that mdast-util-to-hast's walk
 * can be swapped. The rest stays in node_modules: React (a worker and the templates share one copy),
 * satteri (native), and what the workers preload while esbuild runs (boot.ts).
 */
const INLINE = /^(?:unified|vfile|remark-html)(?:\/|$)/;

/** mdast-util-to-hast's one `visit`, which unist-util-visit makes eight times slower than it need be (see unist-visit.ts); from the project, as the entries are. */
const FAST_VISIT = 'src/content/unist-visit.ts';
const inPackage = (file: string, name: string) => file.includes(`${path.sep}node_modules${path.sep}${name}${path.sep}`);

export const codePackages = (root: string): Plugin => ({
  name: 'code-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path === 'unist-util-visit' && inPackage(args.importer, 'mdast-util-to-hast')) return { path: path.join(root, FAST_VISIT) };
      // What an inlined package imports is inlined too; Node's own modules and the rest stay imports.
      const inline = INLINE.test(args.path) || (args.importer.includes(`${path.sep}node_modules${path.sep}`) && !args.path.startsWith('node:'));
      return inline ? undefined : { path: args.path, external: true };
    });
  },
});
